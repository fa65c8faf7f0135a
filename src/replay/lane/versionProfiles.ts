/**
 * What each behaviour-changing OpenClaw release does differently, read in OpenClaw's own dist (file names are the
 * dist chunks a behaviour was read in):
 * - openclaw@2026.3.31, 2026.4.25, 2026.5.2 and 2026.6.11 (installed, `~/.cache/contextscope/openclaw/<v>/…/dist`):
 *   the checked release of each line, `LINE_2026_3` … `LINE_2026_6`;
 * - every other release of those lines from its registry tarball (`npm pack openclaw@<v>`), to find where inside a
 *   line a behaviour changed: `RELEASE_CHANGES` (the lines 2026.3–2026.6 moved fast: a "line" is a month of
 *   releases, not one behaviour);
 * - openclaw@2026.7.35 (the 2026.7 extended-stable line, JSONL sessions) and openclaw@2026.9.6 (SQLite sessions).
 */
import type { ReserveRule } from '../../runtime';
import type { HeartbeatFilterVariant, ToolCallIdPolicy } from '../../engines/legacy';
import type { CjkCounting, MessageEstimator } from '../../tokens';

export type { ReserveRule };

/** The release line a profile belongs to (its month; 2026.8+ for the SQLite-era lines). */
export type ReleaseLine = '2026.3' | '2026.4' | '2026.5' | '2026.6' | '2026.7' | '2026.7.2-beta' | '2026.8+';

export interface VersionBehaviour {
  /** profile id: the release line */
  line: ReleaseLine;
  /**
   * the contract era of reference §0: E1 before 2026.5.28 (no quarantine; 2026.3.7 – 2026.4.14 `resolveContextEngine`
   * throws for an engine that is not registered, 3.31 registry-*.js; from 4.15 it falls back to legacy, 4.25
   * registry-*.js), E2 from 2026.5.28 (quarantine proxy, 6.11 registry-*.js ≈ 7.35's), E3 with durable turns
   */
  contractEra: 'E1' | 'E2' | 'E3';
  /**
   * `plugins.slots.contextEngine` exists: not before 2026.3.7 (3.1 and 3.2 have no context-engine runtime at all, so
   * every session of theirs ran OpenClaw's built-in history pipeline)
   */
  contextEngineSlot: boolean;
  /** every logical turn needs commitTurn + transcriptSemantics, else it runs on legacy (9.6 context-engine-turn-attempt-*.mjs) */
  durableTurnCommit: boolean;
  reserveRule: ReserveRule;
  /** openclaw.json `agents.defaults.compaction.reserveTokens` / `reserveTokensFloor` are read (9.6: retired, legacy-*.mjs RETIRED_AGENT_TUNING_PATHS) */
  configReserveKeys: boolean;
  /**
   * the pre-prompt precheck: `none` (before 2026.4.7: no precheck, 3.31 pi-embedded-*.js; only the tool loop's
   * `Preemptive context overflow` guard from 2026.3.22, as every later line has); `compacts`: an overflowing precheck
   * fails the attempt before the prompt and overflow recovery compacts (4.25 preemptive-compaction-*.js, 7.35
   * selection-*.js); `logs`: it only logs `[context-pressure-diagnostic] admitted provider attempt …` and the prompt
   * is sent (9.6 builtin-openclaw-*.mjs `prepareEmbeddedAttemptPromptPreflight`)
   */
  precheck: 'none' | 'compacts' | 'logs';
  /**
   * the precheck's estimate: `harness-chars` (2026.4.7 – 2026.5.21, 4.25/5.2 preemptive-compaction-*.js
   * `estimatePrePromptTokens`): ceil((Σ harness `estimateTokens(message)` over the messages with tool-result details
   * stripped + `estimateTokens` of the prompt as a user message) × 1.2) — plain `chars/4` per role, and the system
   * prompt costs 0 (its synthetic `system` role is unknown to `estimateTokens`); `llm-boundary` (2026.5.22+, 6.11
   * attempt.tool-run-context-*.js `estimateLlmBoundaryTokenPressure`): what src/tokens/estimatePrecheckTokens.ts models
   */
  precheckEstimator: 'harness-chars' | 'llm-boundary';
  /**
   * an engine that owns compaction is prechecked too (`checked`, before 2026.7.1: 4.25, 5.2, 6.11 selection-*.js have
   * no skip) or skipped unless its promptAuthority is `preassembly_may_overflow` (`skipped`, 7.1+: 7.35 selection-*.js
   * `shouldSkipPrecheck`)
   */
  precheckOwningEngines: 'checked' | 'skipped';
  /**
   * when the pre-assembly (unwindowed) estimate counts: `assembled-differs` (2026.4.7 – 2026.4.29: whenever an engine
   * assembled other messages, 4.25 selection-*.js), `preassembly-may-overflow` (2026.5+: only for that
   * promptAuthority, 5.2 selection-*.js)
   */
  precheckUnwindowed: 'assembled-differs' | 'preassembly-may-overflow';
  /**
   * harness `estimateContextTokens` (the threshold after the turn): 9.6 skips usage that computes to 0 and treats a
   * CLI reply without contextUsage as a barrier (compaction-*.mjs); 7.35 and every earlier line take any
   * non-aborted/error usage (7.35 proxy-*.js; pi-coding-agent 0.64–0.75 compaction.js, which 2026.3–2026.5 use)
   */
  usageSkipsZeroAndBarrier: boolean;
  /** `prepareCompaction` scales keepRecentTokens by usage/estimate (9.6 compaction-*.mjs `triggerUnitScale`; not before) */
  scaleKeepRecentByUsage: boolean;
  /**
   * nothing to summarize: 9.6 `prepareCompaction` returns nothing (no entry); 7.35 and every earlier line have no such
   * check and append a compaction entry anyway (proxy-*.js, pi-coding-agent compaction.js)
   */
  emptyCompaction: 'skip' | 'append';
  /**
   * harness `estimateTokens(message)`, the compaction threshold's trailing estimate and the cut: `plain` UTF-16
   * length per role, images 4,800 chars (2026.3 – 2026.7: pi-coding-agent 0.64 – 0.71 compaction.js, 6.11/7.35
   * proxy-*.js) or `weighted` — CJK characters count 4, images 8,000, sender labels and omission notes (8.1
   * compaction-*.js, 9.6 compaction-*.mjs; src/tokens/estimateMessageTokens.ts)
   */
  messageEstimator: MessageEstimator;
  /**
   * OpenClaw's CJK character count, under the precheck's estimate and (2026.8+) the message estimate: `basic`
   * through 2026.6 (3.31 – 6.35 cjk-chars-*.js), `fullwidth` forms added in 2026.7 (7.1 – 7.35), `tiered` weights
   * from 2026.8 (8.1, 9.6); src/tokens/estimateStringChars.ts
   */
  cjkCounting: CjkCounting;
  /**
   * heartbeat-artifact filter: `none` before 2026.4.7 (3.31 pi-embedded-*.js runs no filter); adjacent pairs 4.7 –
   * 5.18 (4.25/5.2 heartbeat-filter-*.js `filterHeartbeatPairs`); 7.35's from 5.19 (6.11 heartbeat-filter-*.js is
   * 7.35's); 9.6's (heartbeat-filter-*.mjs)
   */
  heartbeatFilter: 'none' | HeartbeatFilterVariant;
  /**
   * host-requirement mismatch: `ignored` before 2026.5.22 (no `hostRequirements` in the dist), fail closed (E2, 5.22
   * host-compat-*.js `assertContextEngineHostSupport`) or degrade the logical turn to legacy (9.6
   * context-engine-turn-attempt-*.mjs)
   */
  hostRequirementMismatch: 'ignored' | 'fail-closed' | 'degrade-turn';
  /**
   * an engine method that throws inside an agent turn on the configured engine: `quarantine` (2026.5.28 – 2026.7:
   * 7.35 registry-*.js, the turn's engine is behind the quarantine proxy, the engine goes to legacy for good) or `log`
   * (before 2026.5.28 there is no quarantine: 3.31 pi-embedded-*.js, 4.25 attempt.tool-run-context-*.js log
   * `context engine afterTurn failed: …`, an assemble that throws sends the pipeline messages; 9.6 registry-*.mjs
   * `resolveLogicalTurnContextEngines` creates the turn's engine without the proxy and the harness logs the failure)
   */
  turnEngineFailures: 'quarantine' | 'log';
  /**
   * the `tokenBudget` `assemble` gets: the context window (`context-window`, before 2026.7.1: 3.31 pi-embedded-*.js,
   * 4.25/5.2/6.11 selection-*.js pass `params.contextTokenBudget`) or window − reserve − the rendered system prompt
   * and prompt (`prompt-budget`, 7.1+: 7.35 selection-*.js `contextEngineAssembleMessageBudget`)
   */
  assembleTokenBudget: 'context-window' | 'prompt-budget';
  /** which runs get the strict tool-call id rewrite (engines/legacy/sanitizeToolCallIds.ts) */
  toolCallIds: ToolCallIdPolicy;
  /**
   * the compaction `openclaw agent` runs after each turn's run when the session's precheck estimate (empty prompt, no
   * system prompt) or its last prompt tokens exceed the prompt budget (`runCliTurnCompactionLifecycle`,
   * replay/lane/turnBudgetCompaction.ts): `raw-branch` measures every message entry on the branch, compactions
   * ignored (4.25 – 7.35 cli-compaction-*.js `getSessionBranchMessages`); `none` before (3.31 has no such step) and
   * on 2026.8+: 9.6 keeps the step (cli-compaction-*.mjs, measuring `buildSessionContext().messages`) behind more
   * gates, and its recorded embedded runs never compacted there (after turn 5 of tool-results-64k-long and of
   * cjk-usage-below-tiktoken that measure is over the budget), so which runs reach it is not modelled
   */
  turnBudgetCompaction: 'none' | 'raw-branch';
  /**
   * what the host does at each model call of a turn run by an engine that owns compaction, when messages were added
   * since the last call (the prompt, then tool results): nothing (`none`: 3.31 pi-embedded-*.js has no such hook);
   * `afterTurn-then-assemble` — afterTurn (else ingestBatch/ingest of the new messages) with everything so far, then
   * assemble of everything so far, whose messages are what the model gets (4.25, 5.2, 6.11, 7.35 selection-*.js
   * `installContextEngineLoopHook`); `assemble-history` — for an admitted logical turn only assemble, of the history
   * before the prompt with the prompt and a budget less the pending messages, which follow its messages to the model
   * (9.6 builtin-openclaw-*.mjs, the hook's `deferredTurn`)
   */
  ownerModelCallHook: 'none' | 'afterTurn-then-assemble' | 'assemble-history';
  /**
   * after an embedded run `openclaw agent` checks the session against the prompt budget (`runCliTurnCompactionLifecycle`,
   * 6.11/7.35 cli-compaction-*.js, reached for embedded runs through agent-command-*.js `embeddedAssistantGapFill`):
   * the last call's prompt tokens (or the transcript's estimate) over window − reserve compact the configured engine
   * with `compact({force: true, compactionTarget: "budget"})`, then `maintain`. An engine that owns compaction has no
   * harness auto-compaction, so this is where it compacts (`budget-check`); 5.2 and 9.6 run the check only for CLI
   * backends (`none`). For other engines the harness threshold compaction the replay runs stands for it.
   */
  // the same `runCliTurnCompactionLifecycle` step as turnBudgetCompaction, read apart for owning engines; the two
  // disagree on 4.25 and 5.2 (legacy: raw-branch, an owner: CLI backends only): each keeps what its recorded runs
  // matched until a run of each on those releases settles it
  ownerCompactionAfterTurn: 'none' | 'budget-check';
}

/** The sanitize steps every line runs before the engine (3.31 pi-embedded-*.js, 7.35 attempt.model-diagnostic-events-*.js, 9.6 builtin-openclaw-*.mjs `sanitizeSessionHistory`). */
export const SANITIZE_STEPS = [
  "tool-call ids rewritten in strict mode when the turn's model asks for it under the release's policy (sanitizeToolCallIdsForCloudCodeAssist)",
  'tool-result details stripped (stripToolResultDetails)',
  'usage zeroed on assistant messages older than the latest compaction (stripStaleAssistantUsageBeforeLatestCompaction)',
] as const;

/** The 2026.7 line (7.1 – 7.35), checked against 7.35. */
export const LINE_2026_7: VersionBehaviour = {
  line: '2026.7',
  contractEra: 'E2',
  contextEngineSlot: true,
  durableTurnCommit: false,
  reserveRule: 'floor-capped-by-min-prompt',
  configReserveKeys: true,
  precheck: 'compacts',
  precheckEstimator: 'llm-boundary',
  precheckOwningEngines: 'skipped',
  precheckUnwindowed: 'preassembly-may-overflow',
  usageSkipsZeroAndBarrier: false,
  scaleKeepRecentByUsage: false,
  emptyCompaction: 'append',
  messageEstimator: 'plain',
  cjkCounting: 'fullwidth',
  heartbeatFilter: '2026.7',
  hostRequirementMismatch: 'fail-closed',
  turnEngineFailures: 'quarantine',
  assembleTokenBudget: 'prompt-budget',
  toolCallIds: { keyedOn: 'provider-plugin', codexApi: 'openai-chatgpt-responses', ollama: 'native' },
  turnBudgetCompaction: 'raw-branch',
  ownerModelCallHook: 'afterTurn-then-assemble',
  ownerCompactionAfterTurn: 'budget-check',
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
  ...LINE_2026_7,
  line: '2026.8+',
  contractEra: 'E3',
  durableTurnCommit: true,
  reserveRule: 'quarter-window-cap',
  configReserveKeys: false,
  precheck: 'logs',
  usageSkipsZeroAndBarrier: true,
  scaleKeepRecentByUsage: true,
  emptyCompaction: 'skip',
  messageEstimator: 'weighted',
  cjkCounting: 'tiered',
  heartbeatFilter: '2026.9',
  hostRequirementMismatch: 'degrade-turn',
  turnEngineFailures: 'log',
  turnBudgetCompaction: 'none',
  ownerModelCallHook: 'assemble-history',
  ownerCompactionAfterTurn: 'none',
};

/**
 * 2026.3.1 and 3.2: OpenClaw before the context-engine runtime. The harness, reserve and sanitize rules are those of
 * 3.31 (the same pi-coding-agent compaction and transcript policy); only the slot is missing.
 */
const RELEASE_2026_3_1: VersionBehaviour = {
  ...LINE_2026_7,
  line: '2026.3',
  contractEra: 'E1',
  contextEngineSlot: false,
  reserveRule: 'uncapped',
  precheck: 'none',
  precheckEstimator: 'harness-chars',
  precheckOwningEngines: 'checked',
  precheckUnwindowed: 'assembled-differs',
  cjkCounting: 'basic',
  heartbeatFilter: 'none',
  hostRequirementMismatch: 'ignored',
  turnEngineFailures: 'log',
  assembleTokenBudget: 'context-window',
  toolCallIds: { keyedOn: 'provider-family', codexApi: 'openai-codex-responses', ollama: 'unowned' },
  turnBudgetCompaction: 'none',
  ownerModelCallHook: 'none',
  ownerCompactionAfterTurn: 'none',
};

/**
 * Where a behaviour changed inside the 2026.3–2026.6 lines, in release order: from `since` on, `changes` apply on
 * top of the release before. Each was found by comparing the dists of consecutive releases (`npm pack`).
 */
export const RELEASE_CHANGES: readonly { since: string; changes: Partial<VersionBehaviour>; read: string }[] = [
  { since: '2026.3.7', changes: { contextEngineSlot: true }, read: '3.7 registry-*.js (no context engine in 3.2)' },
  {
    since: '2026.4.5',
    changes: { toolCallIds: { keyedOn: 'provider-plugin', codexApi: 'openai-codex-responses', ollama: 'unowned' } },
    read: '4.5 `buildUnownedProviderTransportReplayFallback` (provider plugins own their replay policy)',
  },
  {
    since: '2026.4.7',
    changes: { precheck: 'compacts', heartbeatFilter: 'pairs-2026.4' },
    read: '4.7 preemptive-compaction-*.js, heartbeat-filter-*.js `filterHeartbeatPairs`',
  },
  { since: '2026.4.15', changes: { reserveRule: 'floor-capped' }, read: '4.15 pi-settings-*.js (floor capped)' },
  {
    since: '2026.4.25',
    changes: { turnBudgetCompaction: 'raw-branch', ownerModelCallHook: 'afterTurn-then-assemble' },
    read:
      '4.25 cli-compaction-*.js `runCliTurnCompactionLifecycle` and `installContextEngineLoopHook` (none in 3.31; the ' +
      'releases between not compared)',
  },
  {
    since: '2026.4.26',
    changes: {
      heartbeatFilter: 'pairs-2026.5',
      toolCallIds: { keyedOn: 'provider-plugin', codexApi: 'openai-codex-responses', ollama: 'openai-compatible' },
    },
    read: '4.26 heartbeat-filter-*.js (poll placeholder), extensions/ollama `buildReplayPolicy`',
  },
  { since: '2026.5.1', changes: { precheckUnwindowed: 'preassembly-may-overflow' }, read: '5.2/5.3 selection-*.js' },
  { since: '2026.5.19', changes: { heartbeatFilter: '2026.7' }, read: '5.19 `filterHeartbeatTranscriptArtifacts`' },
  {
    since: '2026.5.20',
    changes: { toolCallIds: { keyedOn: 'provider-plugin', codexApi: 'openai-codex-responses', ollama: 'native' } },
    read: '5.20 extensions/ollama `buildNativeOllamaReplayPolicy`',
  },
  {
    since: '2026.5.22',
    changes: { precheckEstimator: 'llm-boundary', hostRequirementMismatch: 'fail-closed' },
    read: '5.22 `estimateLlmBoundaryTokenPressure`, host-compat-*.js',
  },
  {
    since: '2026.5.28',
    changes: { contractEra: 'E2', turnEngineFailures: 'quarantine' },
    read: '5.28 registry-*.js (quarantine proxy)',
  },
  {
    since: '2026.6.1',
    changes: { toolCallIds: { keyedOn: 'provider-plugin', codexApi: 'openai-chatgpt-responses', ollama: 'native' } },
    read: '6.1 tool-result-middleware-*.js (`openai-chatgpt-responses`)',
  },
  {
    since: '2026.6.11',
    changes: { ownerCompactionAfterTurn: 'budget-check' },
    read: '6.11 agent-command-*.js `embeddedAssistantGapFill` (5.2 checks CLI runs only; the 2026.6 release that added it is not narrowed down)',
  },
  {
    since: '2026.7.1',
    changes: {
      reserveRule: 'floor-capped-by-min-prompt',
      precheckOwningEngines: 'skipped',
      assembleTokenBudget: 'prompt-budget',
      cjkCounting: 'fullwidth',
    },
    read: '7.1 agent-settings-*.js, selection-*.js, cjk-chars-*.js (fullwidth forms; 6.35 has none)',
  },
];

function compareReleases(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** The behaviour of a 2026.3.x – 2026.7.x release (`year.month.patch`) by the changes up to it. */
export function behaviourOfRelease(release: string): VersionBehaviour {
  let behaviour: VersionBehaviour = RELEASE_2026_3_1;
  for (const change of RELEASE_CHANGES) {
    if (compareReleases(change.since, release) > 0) break;
    behaviour = { ...behaviour, ...change.changes };
  }
  const month = Number(release.split('.')[1]);
  const line: ReleaseLine = month >= 7 ? '2026.7' : (`2026.${month}` as ReleaseLine);
  return { ...behaviour, line };
}

/** 2026.3.7 – 2026.4.4, checked against 3.31 (4.1 and 4.2 show no change). */
export const LINE_2026_3 = behaviourOfRelease('2026.3.31');
/** Checked against 4.25: the same as 4.15 – 4.25; 4.7 – 4.14 keep the uncapped reserve, 4.5 – 4.6 are 2026.3 with the 4.25 tool-call id policy. */
export const LINE_2026_4 = behaviourOfRelease('2026.4.25');
/** Checked against 5.2: the same as 4.26 – 5.18 except the unwindowed precheck estimate (5.x only). */
export const LINE_2026_5 = behaviourOfRelease('2026.5.2');
/** Checked against 6.11: the same as 6.1 – 6.35 (and 5.28 – 5.31 but for the renamed ChatGPT Responses api). */
export const LINE_2026_6 = behaviourOfRelease('2026.6.11');

function describeReserve(rule: ReserveRule): string {
  switch (rule) {
    case 'quarter-window-cap':
      return 'reserve = min(max(reserve, 20000), window/4): prompt budget window − min(20000, window/4)';
    case 'floor-capped-by-min-prompt':
      return 'reserve = max(reserve, floor 20000), capped at window − min(8000, window/2)';
    case 'floor-capped':
      return 'reserve = max(reserve, floor 20000 capped at window − min(8000, window/2)): a larger reserve is not capped';
    case 'uncapped':
      return 'reserve = max(reserve, floor 20000), not capped: a window at or under the reserve compacts after every turn';
  }
}

function describePrecheck(b: VersionBehaviour): string {
  if (b.precheck === 'none') return 'no pre-prompt precheck (only the tool loop guard)';
  const estimator =
    b.precheckEstimator === 'harness-chars'
      ? 'estimated as chars/4 per message + the prompt (system prompt not counted) × 1.2'
      : 'estimated at the LLM boundary';
  const owning = b.precheckOwningEngines === 'checked' ? ', engines that own compaction included' : '';
  return b.precheck === 'compacts'
    ? `precheck overflow compacts before the prompt (${estimator}${owning})`
    : 'precheck only logs; threshold compaction after the turn';
}

function describeHeartbeat(filter: VersionBehaviour['heartbeatFilter']): string {
  if (filter === 'none') return 'no heartbeat filtering: heartbeat turns stay in the history';
  if (filter === 'pairs-2026.4' || filter === 'pairs-2026.5')
    return `heartbeat filter: only a heartbeat prompt and the bare HEARTBEAT_OK right after it${filter === 'pairs-2026.5' ? ' (poll placeholder included)' : ''}`;
  return `heartbeat filter ${filter}`;
}

function describeToolCallIds(policy: ToolCallIdPolicy): string {
  const keyed =
    policy.keyedOn === 'provider-family'
      ? 'by provider family and api'
      : `by the provider's plugin, else the api (Ollama's own api: ${policy.ollama === 'openai-compatible' ? 'rewritten' : 'kept'})`;
  return `tool-call ids rewritten for the model each turn called, ${keyed}`;
}

function describeTurnBudgetCompaction(rule: VersionBehaviour['turnBudgetCompaction']): string {
  if (rule === 'none') return 'no compaction after the run';
  return "after the run: compaction when every message on the branch (compactions ignored, precheck estimate) or the last prompt's usage exceeds the prompt budget";
}

function describeOwnerTurn(b: VersionBehaviour): string {
  const hook =
    b.ownerModelCallHook === 'none'
      ? 'an engine that owns compaction is not called at model calls'
      : b.ownerModelCallHook === 'afterTurn-then-assemble'
        ? 'an engine that owns compaction gets afterTurn + assemble at each model call, and the model gets what it assembles'
        : 'an engine that owns compaction assembles the history again at each model call of a logical turn';
  return b.ownerCompactionAfterTurn === 'budget-check'
    ? `${hook}; over the prompt budget after the turn its compact(force) runs`
    : hook;
}

/** What a profile changes, one line each, for the CLI and the recording. */
export function describeBehaviour(b: VersionBehaviour): string[] {
  return [
    `contract ${b.contractEra}${b.durableTurnCommit ? ', durable turn commit (commitTurn or the turn runs on legacy)' : ''}`,
    ...(b.contextEngineSlot ? [] : ['no context-engine slot: only the built-in (legacy) pipeline runs']),
    describeReserve(b.reserveRule),
    b.configReserveKeys
      ? 'openclaw.json reserveTokens/reserveTokensFloor honoured'
      : 'openclaw.json reserveTokens/reserveTokensFloor ignored (retired)',
    describePrecheck(b),
    b.usageSkipsZeroAndBarrier
      ? 'threshold usage skips zero usage, CLI barrier'
      : 'threshold usage: last non-aborted/error assistant usage',
    b.scaleKeepRecentByUsage ? 'keepRecentTokens scaled by usage/estimate' : 'keepRecentTokens unscaled',
    b.messageEstimator === 'weighted'
      ? 'message estimate weighs CJK characters and images 8,000 chars'
      : 'message estimate: chars/4 by UTF-16 length (CJK not weighted), images 4,800 chars',
    `CJK counting under the estimates: ${b.cjkCounting}`,
    b.emptyCompaction === 'append'
      ? 'a compaction with nothing to summarize still appends its entry'
      : 'nothing to summarize: no compaction',
    describeHeartbeat(b.heartbeatFilter),
    b.hostRequirementMismatch === 'fail-closed'
      ? 'host-requirement mismatch fails closed'
      : b.hostRequirementMismatch === 'degrade-turn'
        ? 'host-requirement mismatch degrades the turn to legacy'
        : 'host requirements not checked',
    b.turnEngineFailures === 'quarantine'
      ? 'an engine call that throws in a turn quarantines the engine'
      : b.durableTurnCommit
        ? 'an engine call that throws in a turn is logged, no quarantine; a failed commitTurn is retried before the next turn'
        : 'an engine call that throws in a turn is logged, no quarantine',
    b.assembleTokenBudget === 'context-window'
      ? 'assemble gets the whole context window as tokenBudget'
      : 'assemble gets window − reserve − the rendered prompt as tokenBudget',
    describeToolCallIds(b.toolCallIds),
    describeTurnBudgetCompaction(b.turnBudgetCompaction),
    describeOwnerTurn(b),
  ];
}
