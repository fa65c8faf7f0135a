import { describe, expect, it } from 'vitest';
import { shouldCompact } from '../../../src/engines/legacy';

const settings = { enabled: true, reserveTokens: 16_384, keepRecentTokens: 20_000 };

describe('shouldCompact (the harness trigger: context over window − reserve)', () => {
  it('fires only above window − reserve, not on it', () => {
    const threshold = 200_000 - settings.reserveTokens;
    expect(shouldCompact(threshold, 200_000, settings)).toBe(false);
    expect(shouldCompact(threshold + 1, 200_000, settings)).toBe(true);
  });

  it('never fires when compaction is disabled', () => {
    expect(shouldCompact(1_000_000, 200_000, { ...settings, enabled: false })).toBe(false);
  });

  it('never fires without a usable window (unknown, infinite, zero or negative)', () => {
    // with a reserve of 0, any positive context is over a zero or negative window: the guard is what says no
    const noReserve = { ...settings, reserveTokens: 0 };
    for (const window of [Number.NaN, Number.POSITIVE_INFINITY, 0, -1]) {
      expect(shouldCompact(1_000_000, window, noReserve), `window ${window}`).toBe(false);
    }
  });

  it('compares against the reserve it is given', () => {
    expect(shouldCompact(150_000, 200_000, { ...settings, reserveTokens: 60_000 })).toBe(true);
    expect(shouldCompact(150_000, 200_000, { ...settings, reserveTokens: 40_000 })).toBe(false);
  });
});
