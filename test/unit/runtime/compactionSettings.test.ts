import { describe, expect, it } from 'vitest';
import { minPromptBudgetFor, resolveCompactionSettings } from '../../../src/runtime';

describe('resolveCompactionSettings', () => {
  it('raises the harness default reserve to the 20000 floor when no budget is known', () => {
    expect(resolveCompactionSettings()).toEqual({ enabled: true, reserveTokens: 20_000, keepRecentTokens: 20_000 });
  });

  it('uses reserveTokensFloor when ≥ 0, else the default floor', () => {
    expect(resolveCompactionSettings({ reserveTokensFloor: 0 }).reserveTokens).toBe(16_384);
    expect(resolveCompactionSettings({ reserveTokensFloor: 25_000 }).reserveTokens).toBe(25_000);
    expect(resolveCompactionSettings({ reserveTokensFloor: -1 }).reserveTokens).toBe(20_000);
  });

  it('keeps a configured reserve above the floor, capped by the budget', () => {
    expect(resolveCompactionSettings({ reserveTokens: 30_000, contextTokenBudget: 200_000 }).reserveTokens).toBe(
      30_000,
    );
    expect(resolveCompactionSettings({ reserveTokens: 30_000, contextTokenBudget: 32_000 }).reserveTokens).toBe(24_000);
    expect(resolveCompactionSettings({ reserveTokensFloor: 0, contextTokenBudget: 16_000 }).reserveTokens).toBe(8_000);
    expect(resolveCompactionSettings({ contextTokenBudget: 1 }).reserveTokens).toBe(0);
  });

  it('takes keepRecentTokens only when it is a positive integer, and honours enabled', () => {
    expect(resolveCompactionSettings({ keepRecentTokens: 5000, enabled: false })).toMatchObject({
      keepRecentTokens: 5000,
      enabled: false,
    });
    for (const bad of [0, -5, 1.5, Number.NaN])
      expect(resolveCompactionSettings({ keepRecentTokens: bad }).keepRecentTokens).toBe(20_000);
  });

  it('minPromptBudgetFor is min(8000, max(1, floor(budget/2)))', () => {
    expect([1, 3, 15_999, 16_000, 200_000].map(minPromptBudgetFor)).toEqual([1, 1, 7999, 8000, 8000]);
  });
});
