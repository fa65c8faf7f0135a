import { describe, expect, it } from 'vitest';
import { calculateContextTokens, estimateContextTokens, shouldCompact } from '../../../src/engines/legacy';
import { assistantText, usage, user } from './helpers';

const t = (n: number) => 'x'.repeat(4 * n);

describe('calculateContextTokens', () => {
  it('prefers contextUsage.totalTokens, then totalTokens, then the sum of parts', () => {
    expect(
      calculateContextTokens({
        ...usage(100),
        contextUsage: { state: 'available', promptTokens: 90, totalTokens: 95 },
      }),
    ).toBe(95);
    expect(calculateContextTokens(usage(100))).toBe(100);
    expect(calculateContextTokens({ input: 10, output: 5, cacheRead: 20, cacheWrite: 1, totalTokens: 0 })).toBe(36);
  });
});

describe('estimateContextTokens', () => {
  it('anchors on the last assistant with usable usage and estimates what follows', () => {
    const messages = [user(t(5)), assistantText(t(3), { usage: usage(1000) }), user(t(7)), assistantText(t(2))];
    expect(estimateContextTokens(messages)).toEqual({
      tokens: 1009,
      usageTokens: 1000,
      trailingTokens: 9,
      lastUsageIndex: 1,
    });
  });

  it('skips aborted, errored and zero usage', () => {
    const messages = [
      user(t(1)),
      assistantText(t(1), { usage: usage(500) }),
      assistantText(t(1), { usage: usage(900), stopReason: 'aborted' }),
      assistantText(t(1), { usage: usage(900), stopReason: 'error' }),
      assistantText(t(1), { usage: usage(0) }),
    ];
    // anchor = index 1 (500); trailing = 1 + 1 + 1 = 3
    expect(estimateContextTokens(messages)).toEqual({
      tokens: 503,
      usageTokens: 500,
      trailingTokens: 3,
      lastUsageIndex: 1,
    });
  });

  it('a CLI reply without contextUsage is a barrier: the whole transcript is estimated', () => {
    const messages = [
      user(t(4)),
      assistantText(t(1), { usage: usage(5000) }),
      assistantText(t(2), { api: 'cli', usage: usage(7000) }),
      user(t(3)),
    ];
    expect(estimateContextTokens(messages)).toEqual({
      tokens: 10,
      usageTokens: 0,
      trailingTokens: 10,
      lastUsageIndex: null,
    });
  });

  it('usage marked unavailable does not anchor', () => {
    const messages = [
      user(t(2)),
      assistantText(t(1), { usage: usage(800) }),
      assistantText(t(1), { usage: { ...usage(300), contextUsage: { state: 'unavailable' } } }),
    ];
    expect(estimateContextTokens(messages)).toEqual({
      tokens: 801,
      usageTokens: 800,
      trailingTokens: 1,
      lastUsageIndex: 1,
    });
  });
});

describe('shouldCompact', () => {
  const settings = { enabled: true, reserveTokens: 1000, keepRecentTokens: 500 };
  it('holds only above window − reserve', () => {
    expect(shouldCompact(9000, 10000, settings)).toBe(false);
    expect(shouldCompact(9001, 10000, settings)).toBe(true);
  });
  it('never holds when disabled or without a window', () => {
    expect(shouldCompact(99999, 10000, { ...settings, enabled: false })).toBe(false);
    expect(shouldCompact(99999, 0, settings)).toBe(false);
    expect(shouldCompact(99999, Number.NaN, settings)).toBe(false);
  });
});
