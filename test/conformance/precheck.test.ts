/** Behaviour §14.43 and §14.60: precheck budget math and the compaction reserve cap. */
import { describe, expect, it } from 'vitest';
import { computePromptPrecheck, resolveCompactionSettings } from '../../src/runtime';

describe('conformance: precheck and compaction settings', () => {
  it('§14.43 contextTokenBudget 16000 with reserveTokens 20000 gives effective reserve 8000 and promptBudgetBeforeReserve 8000', () => {
    expect(
      computePromptPrecheck({
        estimatedTokens: 8500,
        contextTokenBudget: 16000,
        reserveTokens: 20000,
        reducibleToolResultChars: 0,
      }),
    ).toEqual({
      promptBudgetBeforeReserve: 8000,
      effectiveReserveTokens: 8000,
      overflowTokens: 500,
      route: 'compact_only',
      shouldCompact: true,
    });
  });

  it('§14.60 a 16K budget with the default floor caps reserveTokens at 8000', () => {
    expect(resolveCompactionSettings({ contextTokenBudget: 16000 })).toEqual({
      enabled: true,
      reserveTokens: 8000,
      keepRecentTokens: 20000,
    });
    expect(resolveCompactionSettings({ contextTokenBudget: 16384 })).toEqual({
      enabled: true,
      reserveTokens: 8384,
      keepRecentTokens: 20000,
    });
  });
});
