/**
 * What each behaviour-changing OpenClaw release line does differently, checked against OpenClaw's own dist:
 * openclaw@2026.7.35 (`/tmp/oc735/…/dist`, the 2026.7 extended-stable line, JSONL sessions) and openclaw@2026.9.6
 * (`/tmp/oc/…/dist`, SQLite sessions). File names are the dist chunks the behaviour was read in.
 */

/** How the compaction reserve (and so the prompt budget) is derived from the configured reserve. */
export type ReserveRule =
  /**
   * 2026.7: max(configured, floor 20000 or `reserveTokensFloor`), capped at window − min(8000, window/2)
   * (7.35 agent-settings-*.js `applyAgentCompactionSettingsFromConfig`)
   */
  | 'floor-capped-by-min-prompt'
  /**
   * 2026.8+: min(max(settings reserve, 20000), floor(window × 0.25)) — the prompt keeps ¾ of the window
   * (9.6 openclaw-runtime-agent-*.mjs + agent-compaction-constants-*.mjs `resolveEffectiveCompactionReserveTokens`)
   */
  | 'quarter-window-cap';

export interface VersionBehaviour {
  /** profile id: the release line */
  line: '2026.7' | '2026.7.2-beta' | '2026.8+';
  /** the contract era of behaviour §0 the line implements */
  contractEra: 'E2' | 'E3';
  /** every logical turn needs commitTurn + transcriptSemantics, else it runs on legacy (9.6 context-engine-turn-attempt-*.mjs) */
  durableTurnCommit: boolean;
  reserveRule: ReserveRule;
  /** openclaw.json `agents.defaults.compaction.reserveTokens` / `reserveTokensFloor` are read (9.6: retired, legacy-*.mjs RETIRED_AGENT_TUNING_PATHS) */
  configReserveKeys: boolean;
  /**
   * `compacts`: an overflowing precheck fails the attempt before the prompt and overflow recovery compacts
   * (7.35 selection-*.js); `logs`: it only logs `[context-pressure-diagnostic] admitted provider attempt …` and the
   * prompt is sent (9.6 builtin-openclaw-*.mjs `prepareEmbeddedAttemptPromptPreflight`)
   */
  precheck: 'compacts' | 'logs';
  /**
   * harness `estimateContextTokens` (the threshold after the turn): 9.6 skips usage that computes to 0 and treats a
   * CLI reply without contextUsage as a barrier (compaction-*.mjs); 7.35 takes any non-aborted/error usage
   * (proxy-*.js)
   */
  usageSkipsZeroAndBarrier: boolean;
  /** `prepareCompaction` scales keepRecentTokens by usage/estimate (9.6 compaction-*.mjs `triggerUnitScale`; not in 7.35) */
  scaleKeepRecentByUsage: boolean;
  /**
   * nothing to summarize: 9.6 `prepareCompaction` returns nothing (no entry); 7.35 has no such check and appends a
   * compaction entry anyway (proxy-*.js)
   */
  emptyCompaction: 'skip' | 'append';
  /** heartbeat-artifact filter variant (7.35 heartbeat-filter-*.js, 9.6 heartbeat-filter-*.mjs) */
  heartbeatFilter: '2026.7' | '2026.9';
  /** host-requirement mismatch: fail closed (E2) or degrade the logical turn to legacy (9.6 context-engine-turn-attempt-*.mjs) */
  hostRequirementMismatch: 'fail-closed' | 'degrade-turn';
  /**
   * an engine method that throws inside an agent turn on the configured engine: `quarantine` (7.35 registry-*.js:
   * the turn's engine is behind the quarantine proxy, the engine goes to legacy for good) or `log` (9.6
   * registry-*.mjs `resolveLogicalTurnContextEngines` creates the turn's engine without the proxy; the harness logs
   * the failure and goes on, context-engine-lifecycle-*.mjs, builtin-openclaw-*.mjs, context-engine-turn-attempt-*.mjs)
   */
  turnEngineFailures: 'quarantine' | 'log';
}

/** Both lines sanitize the same way before the engine (7.35 attempt.model-diagnostic-events-*.js, 9.6 builtin-openclaw-*.mjs `sanitizeSessionHistory`). */
export const SANITIZE_STEPS = [
  'tool-call ids rewritten in strict mode for openai/anthropic/google apis (sanitizeToolCallIdsForCloudCodeAssist)',
  'tool-result details stripped (stripToolResultDetails)',
  'usage zeroed on assistant messages older than the latest compaction (stripStaleAssistantUsageBeforeLatestCompaction)',
] as const;

export const LINE_2026_7: VersionBehaviour = {
  line: '2026.7',
  contractEra: 'E2',
  durableTurnCommit: false,
  reserveRule: 'floor-capped-by-min-prompt',
  configReserveKeys: true,
  precheck: 'compacts',
  usageSkipsZeroAndBarrier: false,
  scaleKeepRecentByUsage: false,
  emptyCompaction: 'append',
  heartbeatFilter: '2026.7',
  hostRequirementMismatch: 'fail-closed',
  turnEngineFailures: 'quarantine',
};

/** The 2026.7.2 betas introduced SQLite transcripts and durable turn advancement; the rest is taken as 2026.7's (not checked against a dist). */
export const LINE_2026_7_2_BETA: VersionBehaviour = {
  ...LINE_2026_7,
  line: '2026.7.2-beta',
  contractEra: 'E3',
  durableTurnCommit: true,
};

/** Checked against 2026.9.6; taken to hold from 2026.8.1, the first stable SQLite release. */
export const LINE_2026_8: VersionBehaviour = {
  line: '2026.8+',
  contractEra: 'E3',
  durableTurnCommit: true,
  reserveRule: 'quarter-window-cap',
  configReserveKeys: false,
  precheck: 'logs',
  usageSkipsZeroAndBarrier: true,
  scaleKeepRecentByUsage: true,
  emptyCompaction: 'skip',
  heartbeatFilter: '2026.9',
  hostRequirementMismatch: 'degrade-turn',
  turnEngineFailures: 'log',
};

/** What a profile changes, one line each, for the CLI and the recording. */
export function describeBehaviour(b: VersionBehaviour): string[] {
  return [
    `contract ${b.contractEra}${b.durableTurnCommit ? ', durable turn commit (commitTurn or the turn runs on legacy)' : ''}`,
    b.reserveRule === 'quarter-window-cap'
      ? 'reserve = min(max(reserve, 20000), window/4): prompt budget window − min(20000, window/4)'
      : 'reserve = max(reserve, floor 20000), capped at window − min(8000, window/2)',
    b.configReserveKeys
      ? 'openclaw.json reserveTokens/reserveTokensFloor honoured'
      : 'openclaw.json reserveTokens/reserveTokensFloor ignored (retired)',
    b.precheck === 'compacts'
      ? 'precheck overflow compacts before the prompt'
      : 'precheck only logs; threshold compaction after the turn',
    b.usageSkipsZeroAndBarrier
      ? 'threshold usage skips zero usage, CLI barrier'
      : 'threshold usage: last non-aborted/error assistant usage',
    b.scaleKeepRecentByUsage ? 'keepRecentTokens scaled by usage/estimate' : 'keepRecentTokens unscaled',
    b.emptyCompaction === 'append'
      ? 'a compaction with nothing to summarize still appends its entry'
      : 'nothing to summarize: no compaction',
    `heartbeat filter ${b.heartbeatFilter}`,
    b.hostRequirementMismatch === 'fail-closed'
      ? 'host-requirement mismatch fails closed'
      : 'host-requirement mismatch degrades the turn to legacy',
    b.turnEngineFailures === 'quarantine'
      ? 'an engine call that throws in a turn quarantines the engine'
      : 'an engine call that throws in a turn is logged, no quarantine; a failed commitTurn is retried before the next turn',
  ];
}
