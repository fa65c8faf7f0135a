/**
 * Pre-prompt overflow precheck budget math and route (behaviour §7.3, `run/preemptive-compaction.ts`).
 * Pure: the caller supplies the token estimate (the larger of the assembled and unwindowed estimates).
 */
import { minPromptBudgetFor, quarterWindowReserveCap, type ReserveRule } from './compactionSettings';

/** What the precheck decides to do with the prompt. */
export type PromptPrecheckRoute = 'fits' | 'compact_only' | 'truncate_tool_results_only' | 'compact_then_truncate';

/** Inputs of `computePromptPrecheck`. */
export interface PromptPrecheckInput {
  /** estimated prompt tokens (messages + system prompt + prompt) */
  estimatedTokens: number;
  /** the model's context token budget */
  contextTokenBudget: number;
  /** compaction `reserveTokens` */
  reserveTokens: number;
  /** characters of tool results that truncation could remove (0 when none) */
  reducibleToolResultChars: number;
  /** how the reserve is capped (default `floor-capped-by-min-prompt`; 2026.8+ caps it at window/4) */
  reserveRule?: ReserveRule;
}

/** Budget figures and route of one precheck. */
export interface PromptPrecheckResult {
  promptBudgetBeforeReserve: number;
  effectiveReserveTokens: number;
  overflowTokens: number;
  route: PromptPrecheckRoute;
  /** true for `compact_only` and `compact_then_truncate` */
  shouldCompact: boolean;
}

/** The synthetic prompt error a compact route raises (behaviour §7.3). */
export const PRECHECK_OVERFLOW_ERROR_MESSAGE = 'Context overflow: prompt too large for the model (precheck).';

/** Chars per token assumed when converting an overflow into removable tool-result characters. */
const CHARS_PER_TOKEN = 4;
/** Token headroom the truncate-only route must free on top of the overflow. */
const TRUNCATION_HEADROOM_TOKENS = 512;

function finiteOr(value: number, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** Minimum reducible tool-result chars for the truncate-only route: `max(o×4 + 512×4, ceil(o×4×1.5))`. */
export function truncationCharsNeeded(overflowTokens: number): number {
  return Math.max(
    overflowTokens * CHARS_PER_TOKEN + TRUNCATION_HEADROOM_TOKENS * CHARS_PER_TOKEN,
    Math.ceil(overflowTokens * CHARS_PER_TOKEN * 1.5),
  );
}

/** Compute the precheck budget, overflow and route for one prompt (behaviour §7.3). */
export function computePromptPrecheck(input: PromptPrecheckInput): PromptPrecheckResult {
  const budget = Math.max(1, Math.floor(finiteOr(input.contextTokenBudget, 1)));
  const reserve = Math.max(0, finiteOr(input.reserveTokens, 0));
  const effectiveReserveTokens =
    input.reserveRule === 'quarter-window-cap'
      ? quarterWindowReserveCap(budget, reserve)
      : Math.min(reserve, Math.max(0, budget - minPromptBudgetFor(budget)));
  const promptBudgetBeforeReserve = Math.max(1, budget - effectiveReserveTokens);
  const estimate = Math.max(0, finiteOr(input.estimatedTokens, 0));
  const overflowTokens = Math.max(0, estimate - promptBudgetBeforeReserve);
  const reducible = Math.max(0, finiteOr(input.reducibleToolResultChars, 0));

  let route: PromptPrecheckRoute;
  if (overflowTokens <= 0) route = 'fits';
  else if (reducible <= 0) route = 'compact_only';
  else if (reducible >= truncationCharsNeeded(overflowTokens)) route = 'truncate_tool_results_only';
  else route = 'compact_then_truncate';

  return {
    promptBudgetBeforeReserve,
    effectiveReserveTokens,
    overflowTokens,
    route,
    shouldCompact: route === 'compact_only' || route === 'compact_then_truncate',
  };
}
