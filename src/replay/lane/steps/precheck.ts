import { computePromptPrecheck, prependSystemPromptAddition } from '../../../runtime';
import { estimatePrecheckTokensFromMessageSum } from '../../../tokens';
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

function precheckEstimate(stored: readonly StoredMessage[], systemPrompt: string, prompt: string): number {
  return estimatePrecheckTokensFromMessageSum({
    messageTokensSum: stored.reduce((s, m) => s + m.precheckTokens, 0),
    systemPrompt,
    prompt,
  });
}

/**
 * The pre-prompt precheck (behaviour §7.3): `systemPromptAddition` prepended, skipped for an engine that owns
 * compaction unless its `promptAuthority` is `preassembly_may_overflow` (then the larger of the assembled and
 * pre-assembly estimates wins). Returns the record and, when the route is not `fits`, the overflow — except on
 * 2026.8+, where the precheck only logs (openclaw@2026.9.6 dist builtin-openclaw-*.mjs
 * `prepareEmbeddedAttemptPromptPreflight`) and threshold compaction after the turn takes over.
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
  const skipped = assemblySucceeded && live.ownsCompaction === true && authority !== 'preassembly_may_overflow';
  let estimate = precheckEstimate(stored, systemPrompt, prompt);
  let pressureSource: PrecheckRecord['pressureSource'] = 'assembled';
  if (authority === 'preassembly_may_overflow' && pipeline !== assembled) {
    const unwindowedEstimate = precheckEstimate(lane.classify(pipeline).stored, systemPrompt, prompt);
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
  const onlyLogs = lane.state.profile.precheck === 'logs';
  const precheck: PrecheckRecord = {
    skipped,
    ...(skipped ? { skipReason: skipReasonFor(live.id) } : {}),
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
