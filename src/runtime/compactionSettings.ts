/**
 * Compaction settings as OpenClaw's embedded runner resolves them (behaviour §3.3 "Settings"):
 * the harness defaults, then `applyAgentCompactionSettingsFromConfig`'s reserve floor, capped so that a small
 * context budget always keeps a minimum prompt budget.
 */

/** Harness default: compaction enabled. */
export const DEFAULT_COMPACTION_ENABLED = true;
/** Harness default reserve (tokens kept free for the model's output and the summary). */
export const DEFAULT_COMPACTION_RESERVE_TOKENS = 16384;
/** Harness default number of recent tokens a compaction keeps verbatim. */
export const DEFAULT_COMPACTION_KEEP_RECENT_TOKENS = 20000;
/** `DEFAULT_AGENT_COMPACTION_RESERVE_TOKENS_FLOOR`. */
export const DEFAULT_COMPACTION_RESERVE_TOKENS_FLOOR = 20000;
/** Upper bound of the prompt budget that the reserve may never eat into. */
export const MIN_PROMPT_BUDGET_TOKENS = 8000;
/** 2026.8+: the reserve never exceeds this share of the window (`MAX_COMPACTION_RESERVE_RATIO`). */
export const MAX_COMPACTION_RESERVE_RATIO = 0.25;

/**
 * How the reserve is capped:
 * - `uncapped` (2026.3 – 2026.4.14: `max(reserve, floor)`, no cap; 3.31 current-time-*.js
 *   `applyPiCompactionSettingsFromConfig`): a reserve at or over the window makes every turn cross the threshold;
 * - `floor-capped` (2026.4.15 – 2026.6: only the floor is capped so that min(8000, window/2) stays for the prompt, a
 *   larger configured or default reserve is kept; 4.25 pi-settings-*.js, 6.11 agent-settings-*.js);
 * - `floor-capped-by-min-prompt` (2026.7: floor and reserve capped so that min(8000, window/2) stays for the prompt);
 * - `quarter-window-cap` (2026.8+: the floor is always 20000 and the reserve is capped at window/4; openclaw@2026.9.6
 *   dist agent-compaction-constants-*.mjs).
 * The precheck caps its effective reserve the same way on every line before 2026.8 (`computePromptPrecheck`).
 */
export type ReserveRule = 'uncapped' | 'floor-capped' | 'floor-capped-by-min-prompt' | 'quarter-window-cap';

/** Inputs of `resolveCompactionSettings` (config values and the context budget). */
export interface CompactionSettingsInput {
  /** configured `agents.defaults.compaction.reserveTokens` (the harness default when absent) */
  reserveTokens?: number;
  /** configured `keepRecentTokens`; used only when it is a positive integer */
  keepRecentTokens?: number;
  /** configured `reserveTokensFloor`; used when ≥ 0, else 20000 */
  reserveTokensFloor?: number;
  /** the model's context token budget; when given, the reserve is capped so a minimum prompt budget remains */
  contextTokenBudget?: number;
  enabled?: boolean;
  /** default `floor-capped-by-min-prompt` */
  reserveRule?: ReserveRule;
}

/** Resolved compaction settings, as the harness uses them. */
export interface CompactionSettings {
  enabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The prompt budget a context budget always keeps: `min(8000, max(1, floor(budget × 0.5)))`. */
export function minPromptBudgetFor(contextTokenBudget: number): number {
  return Math.min(MIN_PROMPT_BUDGET_TOKENS, Math.max(1, Math.floor(contextTokenBudget * 0.5)));
}

/** Resolve `{enabled, reserveTokens, keepRecentTokens}` from config values and the context budget (behaviour §3.3). */
/** 2026.8+'s cap: `min(max(0, floor(reserve)), floor(max(1, floor(budget)) × 0.25))`. */
export function quarterWindowReserveCap(contextTokenBudget: number, reserveTokens: number): number {
  const budget = Math.max(1, Math.floor(contextTokenBudget));
  return Math.min(Math.max(0, Math.floor(reserveTokens)), Math.floor(budget * MAX_COMPACTION_RESERVE_RATIO));
}

function keepRecentOf(input: CompactionSettingsInput): number {
  return Number.isInteger(input.keepRecentTokens) && (input.keepRecentTokens as number) > 0
    ? (input.keepRecentTokens as number)
    : DEFAULT_COMPACTION_KEEP_RECENT_TOKENS;
}

export function resolveCompactionSettings(input: CompactionSettingsInput = {}): CompactionSettings {
  const enabled = typeof input.enabled === 'boolean' ? input.enabled : DEFAULT_COMPACTION_ENABLED;
  const current =
    isFiniteNumber(input.reserveTokens) && input.reserveTokens >= 0
      ? Math.floor(input.reserveTokens)
      : DEFAULT_COMPACTION_RESERVE_TOKENS;
  if (input.reserveRule === 'quarter-window-cap') {
    const requested = Math.max(current, DEFAULT_COMPACTION_RESERVE_TOKENS_FLOOR);
    const budget = input.contextTokenBudget;
    const reserveTokens = isFiniteNumber(budget) && budget > 0 ? quarterWindowReserveCap(budget, requested) : requested;
    return { enabled, reserveTokens, keepRecentTokens: keepRecentOf(input) };
  }
  let floor =
    isFiniteNumber(input.reserveTokensFloor) && input.reserveTokensFloor >= 0
      ? Math.floor(input.reserveTokensFloor)
      : DEFAULT_COMPACTION_RESERVE_TOKENS_FLOOR;

  let reserveTokens: number;
  if (input.reserveRule !== 'uncapped' && isFiniteNumber(input.contextTokenBudget) && input.contextTokenBudget > 0) {
    const budget = Math.floor(input.contextTokenBudget);
    const maxReserve = Math.max(0, budget - minPromptBudgetFor(budget));
    floor = Math.min(floor, maxReserve);
    reserveTokens = Math.max(current, floor);
    if (input.reserveRule !== 'floor-capped') reserveTokens = Math.min(reserveTokens, maxReserve);
  } else {
    reserveTokens = Math.max(current, floor);
  }

  return { enabled, reserveTokens, keepRecentTokens: keepRecentOf(input) };
}
