import { describe, expect, it } from 'vitest';
import { computePromptPrecheck, PRECHECK_OVERFLOW_ERROR_MESSAGE, truncationCharsNeeded } from '../../../src/runtime';

const base = { contextTokenBudget: 100_000, reserveTokens: 16_384 };

describe('computePromptPrecheck', () => {
  it('fits when the estimate is within budget − reserve', () => {
    expect(computePromptPrecheck({ ...base, estimatedTokens: 83_616, reducibleToolResultChars: 0 })).toEqual({
      promptBudgetBeforeReserve: 83_616,
      effectiveReserveTokens: 16_384,
      overflowTokens: 0,
      route: 'fits',
      shouldCompact: false,
    });
  });

  it('routes by reducible tool-result chars at the exact threshold', () => {
    const overflow = { ...base, estimatedTokens: 84_616 };
    expect(truncationCharsNeeded(1000)).toBe(6048);
    expect(truncationCharsNeeded(10_000)).toBe(60_000);
    expect(computePromptPrecheck({ ...overflow, reducibleToolResultChars: 0 })).toMatchObject({
      overflowTokens: 1000,
      route: 'compact_only',
      shouldCompact: true,
    });
    expect(computePromptPrecheck({ ...overflow, reducibleToolResultChars: 6048 })).toMatchObject({
      route: 'truncate_tool_results_only',
      shouldCompact: false,
    });
    expect(computePromptPrecheck({ ...overflow, reducibleToolResultChars: 6047 })).toMatchObject({
      route: 'compact_then_truncate',
      shouldCompact: true,
    });
  });

  it('floors the budget and keeps at least one prompt token for tiny budgets', () => {
    expect(
      computePromptPrecheck({
        estimatedTokens: 5,
        contextTokenBudget: 1.9,
        reserveTokens: 500,
        reducibleToolResultChars: 0,
      }),
    ).toEqual({
      promptBudgetBeforeReserve: 1,
      effectiveReserveTokens: 0,
      overflowTokens: 4,
      route: 'compact_only',
      shouldCompact: true,
    });
  });

  it('exports the synthetic precheck error text', () => {
    expect(PRECHECK_OVERFLOW_ERROR_MESSAGE).toBe('Context overflow: prompt too large for the model (precheck).');
  });
});
