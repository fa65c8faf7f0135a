import { computePromptPrecheck, prependSystemPromptAddition } from '../../../runtime';
import {
  applyPrecheckSafetyMargin,
  CHARS_PER_TOKEN_ESTIMATE,
  estimatePrecheckTokensFromMessageSum,
} from '../../../tokens';
import type { PrecheckRecord, ProviderCheck } from '../../../contract/recording';
import type { TurnDraft } from '../../recording/turnDraft';
import type { StoredMessage } from '../../recording/messageTable';
import type { Lane } from '../laneContext';
import { checkProviderOverflow } from '../providerCheck';
import { reducibleToolResultChars } from '../toolResultTruncation';
import type { AssembledContext } from './assemble';

/** Precheck or provider overflow: the prompt cannot be sent as is. */
export interface PromptOverflow {
  source: 'precheck' | 'provider';
  tokens: number;
  route: PrecheckRecord['route'];
  /** a provider overflow: what decided it */
  check?: ProviderCheck;
}

function skipReasonFor(engineId: string): string {
  return `[context-overflow-precheck] skipped: context engine "${engineId}" owns compaction`;
}

const NO_PRECHECK_REASON =
  'no pre-prompt precheck in this release (OpenClaw added it in 2026.4.7): the prompt goes to the provider as is';

/**
 * The precheck's estimate of messages + system prompt + prompt, by the release's estimator: at the LLM boundary
 * (2026.5.22+), or 2026.4.7 – 2026.5.21's `estimatePrePromptTokens` (4.25 preemptive-compaction-*.js): the harness
 * `estimateTokens` of each message (the table's `estTokens`: the plain estimator on those releases) and of the
 * prompt as a user message, times 1.2 — the system prompt goes in as a `system` message, a role `estimateTokens`
 * does not know, so it costs 0.
 */
function precheckEstimate(lane: Lane, stored: readonly StoredMessage[], systemPrompt: string, prompt: string): number {
  if (lane.state.profile.precheckEstimator === 'harness-chars') {
    const messages = stored.reduce((s, m) => s + m.estTokens, 0);
    return applyPrecheckSafetyMargin(messages + Math.ceil(prompt.length / CHARS_PER_TOKEN_ESTIMATE));
  }
  return estimatePrecheckTokensFromMessageSum(
    { messageTokensSum: stored.reduce((s, m) => s + m.precheckTokens, 0), systemPrompt, prompt },
    lane.state.profile.cjkCounting,
  );
}

/**
 * The pre-prompt precheck (behaviour §7.3) as the lane's release runs it (versionProfiles.ts): `systemPromptAddition`
 * prepended; from 2026.7.1 skipped for an engine that owns compaction unless its `promptAuthority` is
 * `preassembly_may_overflow` (before, every engine is checked: 4.25 – 6.11 selection-*.js); the larger of the
 * assembled and pre-assembly estimates wins for that authority (2026.5+) or whenever the engine assembled other
 * messages (2026.4.7 – 4.29). Returns the record and, when the route is not `fits`, the overflow — except on
 * 2026.8+, where the precheck only logs (openclaw@2026.9.6 dist builtin-openclaw-*.mjs
 * `prepareEmbeddedAttemptPromptPreflight`) and threshold compaction after the turn takes over, and before 2026.4.7,
 * which has no precheck (3.31 pi-embedded-*.js).
 */
export function precheckPrompt(
  lane: Lane,
  context: AssembledContext,
  prompt: string,
  /** the system prompt as plugin prompt hooks left it (the engine's addition already in it) */
  hookedSystemPrompt?: string,
): { precheck: PrecheckRecord; systemPrompt: string; overflow?: PromptOverflow } {
  const { result, assemblySucceeded, pipeline, assembled, stored } = context;
  const systemPrompt =
    hookedSystemPrompt ?? prependSystemPromptAddition(lane.state.systemPrompt, result?.systemPromptAddition);
  const authority = result?.promptAuthority;
  // Read live: an engine quarantined by this very assemble now answers with legacy's info.
  const live = lane.engine.info;
  const { profile } = lane.state;
  const ownerSkipped =
    profile.precheckOwningEngines === 'skipped' &&
    assemblySucceeded &&
    live.ownsCompaction === true &&
    authority !== 'preassembly_may_overflow';
  const absent = profile.precheck === 'none';
  const skipped = absent || ownerSkipped;
  let estimate = precheckEstimate(lane, stored, systemPrompt, prompt);
  let pressureSource: PrecheckRecord['pressureSource'] = 'assembled';
  const unwindowedCounts =
    profile.precheckUnwindowed === 'assembled-differs' || authority === 'preassembly_may_overflow';
  if (unwindowedCounts && pipeline !== assembled) {
    const unwindowedEstimate = precheckEstimate(lane, lane.classify(pipeline).stored, systemPrompt, prompt);
    if (unwindowedEstimate > estimate) {
      estimate = unwindowedEstimate;
      pressureSource = 'unwindowed_transcript_estimate';
    }
  }
  const reducible = reducibleToolResultChars(assembled, lane.group.contextWindow);
  const computed = computePromptPrecheck({
    estimatedTokens: estimate,
    contextTokenBudget: lane.group.contextWindow,
    reserveTokens: lane.group.settings.reserveTokens,
    reducibleToolResultChars: reducible,
    reserveRule: lane.state.profile.reserveRule,
  });
  const onlyLogs = profile.precheck === 'logs';
  const precheck: PrecheckRecord = {
    skipped,
    ...(skipped ? { skipReason: absent ? NO_PRECHECK_REASON : skipReasonFor(live.id) } : {}),
    estimatedTokens: estimate,
    pressureSource,
    promptBudgetBeforeReserve: computed.promptBudgetBeforeReserve,
    effectiveReserveTokens: computed.effectiveReserveTokens,
    overflowTokens: computed.overflowTokens,
    reducibleToolResultChars: reducible,
    route: computed.route,
    shouldCompact: computed.shouldCompact,
    ...(onlyLogs && !skipped && computed.route !== 'fits' ? { onlyLogged: true } : {}),
  };
  const overflow =
    !skipped && !onlyLogs && computed.route !== 'fits'
      ? { source: 'precheck' as const, tokens: estimate, route: computed.route }
      : undefined;
  return { precheck, systemPrompt, ...(overflow ? { overflow } : {}) };
}

/** OpenClaw 2026.8+'s log line for a precheck that did not fit but let the prompt through. */
export function admittedAttemptLine(lane: Lane, precheck: PrecheckRecord): string {
  const model = `${lane.group.provider ?? 'unknown'}/${lane.group.model ?? 'unknown'}`;
  return (
    `[context-pressure-diagnostic] admitted provider attempt for ${model} route=${precheck.route} ` +
    `estimatedPromptTokens=${precheck.estimatedTokens} promptBudgetBeforeReserve=${precheck.promptBudgetBeforeReserve}`
  );
}

/**
 * Whether the provider rejects the prompt (assembled + system prompt + prompt), decided on the provider's own counts
 * where the session has them (lane/providerCheck.ts); the check is kept on the draft for the turn's record.
 */
export async function providerOverflow(
  lane: Lane,
  draft: TurnDraft,
  stored: readonly StoredMessage[],
  systemPrompt: string,
  prompt: string,
  route: PrecheckRecord['route'],
): Promise<PromptOverflow | undefined> {
  const counter = lane.state.counter;
  const localTokens =
    stored.reduce((s, m) => s + m.tiktokenTokens, 0) +
    (await counter.count(systemPrompt)) +
    (await counter.count(prompt));
  const check = await checkProviderOverflow(lane, draft, localTokens);
  draft.providerChecks.push(check);
  if (!check.overflowed) return undefined;
  // OpenClaw compacts for the count the error states, else for one past the window (`ctxInfo.tokens + 1`)
  return { source: 'provider', tokens: check.providerTokens ?? lane.group.contextWindow + 1, route, check };
}
