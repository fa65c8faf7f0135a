/**
 * One recorded turn on one lane, in the embedded runner's order (behaviour §13): `/compact` when asked → host
 * requirements → attempts until the prompt fits (bootstrap, history pipeline, assemble, precheck, overflow
 * recovery) → the recorded output appended → an owning engine's calls at each model call (modelCallHook.ts) →
 * subagent hooks → harness auto-compaction → finalize → the after-run budget compaction of `openclaw agent`
 * (legacy lanes: turnBudgetCompaction.ts; an owning engine: budgetCheckAfterTurn.ts) → the record.
 */
import type { AgentMessage, ContextEngineInfo } from '../../../contract';
import type { Finding, TurnPath, TurnRecord, TurnStatus } from '../../../contract/recording';
import { estimateContextTokens, shouldCompact } from '../../../engines/legacy';
import { deriveAssembleTokenBudget } from '../../../tokens';
import { computeTurnFindings, FINDING_SEVERITY } from '../../findings/computeTurnFindings';
import { noteKilledEngineHost } from './hostKilled';
import { buildTurnRecord } from '../../recording/buildTurnRecord';
import type { StoredMessage } from '../../recording/messageTable';
import type { TurnDraft } from '../../recording/turnDraft';
import { promptTextOf, recordedTurnOutcome, type SessionTurn } from '../../session/sessionTurns';
import { attachHookRecords, persistToolResults, runAgentEndHooks, runRunStartHooks } from '../hooks';
import { autoCompact, compactOnEngine } from '../laneCompactions';
import { compactAfterRunIfOverBudget } from '../turnBudgetCompaction';
import type { Lane, LastContext } from '../laneContext';
import { ownRun } from '../laterRuns';
import { noteOwnCompaction } from '../ownCompaction';
import { compactOwnerOverBudget } from './budgetCheckAfterTurn';
import { runModelCallHooks } from './modelCallHook';
import { noteLaneCompactions, recordedUsageApplies } from '../recordedUsage';
import { handleRecordedSpawns } from '../subagentLifecycle';
import { assembledEstimate, attemptUntilPromptFits, type AssembleBudget, type AttemptResult } from './attempt';
import { anchorOf, type TurnBoundary } from './commitTurn';
import { finalizeTurn } from './finalizeTurn';
import { checkAgentRunHostSupport } from './hostRequirements';
import { appendRecordedTurn } from './recordedOutput';
import { engineFailureFindings } from '../turnFailures';

/**
 * `/compact` before this turn when the caller asked for a manual compaction (behaviour §13 step 1), on the slot's engine
 * behind the quarantine proxy: OpenClaw's /compact resolves it with `resolveContextEngine` (2026.7.35 and 2026.9.6
 * embedded-agent-*, `compactEmbeddedAgentSession`), so a 2026.9.6 logical turn that runs on legacy does not move
 * /compact to legacy, and a compact() that throws quarantines the engine.
 */
async function runManualCompaction(lane: Lane, draft: TurnDraft, turnIndex: number): Promise<void> {
  const manual = lane.state.manualCompactions.get(turnIndex);
  if (manual === undefined) return;
  const { contextWindow, settings } = lane.group;
  const budget = deriveAssembleTokenBudget({
    contextTokenBudget: contextWindow,
    reserveTokens: settings.reserveTokens,
  });
  await compactOnEngine(
    lane,
    draft,
    lane.configuredEngine,
    'manual',
    {
      force: true,
      forceReason: 'manual',
      tokenBudget: contextWindow,
      ...(manual.customInstructions ? { customInstructions: manual.customInstructions } : {}),
    },
    lane.runtimeSettings(budget.tokenBudget),
    { measure: 'request' },
  );
}

function engineRecordOf(lane: Lane, info: ContextEngineInfo) {
  const { runtime } = lane.group;
  // a 2026.8+ turn on the configured engine without the proxy: the engine itself runs it, quarantined or not
  const unguarded =
    lane.engine !== lane.configuredEngine &&
    lane.engine.engine === runtime.unguardedContextEngine(lane.configuredEngine.engine);
  const resolved = runtime.describeResolvedEngine(lane.configuredEngine.engine);
  const described = unguarded
    ? resolved && { ...resolved, quarantined: false }
    : runtime.describeResolvedEngine(lane.engine.engine);
  const requestedId = lane.group.requestedEngineId;
  // quarantined at factory, resolve or contract time: legacy serves the turn and the requested engine is the one held
  const heldBack = requestedId !== info.id && runtime.isContextEngineQuarantined(requestedId);
  return {
    requestedId,
    engineId: info.id,
    ...(described?.owner && !described.quarantined ? { owner: described.owner } : {}),
    quarantined: described?.quarantined === true || heldBack,
    ownsCompaction: info.ownsCompaction === true,
  };
}

function budgetRecordOf(lane: Lane, budget: AssembleBudget) {
  return {
    contextWindow: lane.group.contextWindow,
    reserveTokens: lane.group.settings.reserveTokens,
    promptBudget: budget.promptBudget,
    tokenBudget: budget.tokenBudget,
    renderedPromptTokens: budget.renderedTokens,
  };
}

/**
 * The context size the threshold compares after the turn (behaviour §3.3 "Trigger"). While a legacy lane's context is
 * the one OpenClaw sent (it compacted where the recording did: recordedUsage.ts), the harness's
 * `estimateContextTokens` applies: the provider-reported usage of the last assistant message with usable usage (the
 * recorded reply's) plus estimates of what came after — stale usage before the latest compaction is already zeroed
 * by the sanitize step. Otherwise (a lane that diverged, a plugin engine) the recorded model never saw the lane's
 * context, and its assembled + new messages are estimated instead.
 */
function thresholdTokens(
  lane: Lane,
  draft: TurnDraft,
  info: ContextEngineInfo,
  attempt: AttemptResult,
  appended: { newMessages: readonly AgentMessage[]; newMessageKeys: readonly string[] },
): { tokens: number; source: 'recorded usage' | 'estimate' } {
  const { newMessages, newMessageKeys } = ownRun(appended);
  if (info.id === 'legacy' && recordedUsageApplies(lane, draft, draft.turn ?? 0)) {
    const tokens = estimateContextTokens([...attempt.assembled, ...newMessages], lane.state.profile).tokens;
    return { tokens, source: 'recorded usage' };
  }
  const tokens =
    assembledEstimate(attempt) + newMessageKeys.reduce((s, k) => s + (lane.state.table.get(k)?.estTokens ?? 0), 0);
  return { tokens, source: 'estimate' };
}

/** What the turn sent: OpenClaw's estimate of the assembled messages and their count. */
function contextOf(info: ContextEngineInfo, attempt: AttemptResult): LastContext {
  const tokens = assembledEstimate(attempt);
  return { engineId: info.id, tokens, count: attempt.assembled.length, appendedTokens: 0 };
}

/** Harness auto-compaction for engines that do not own compaction, when the context crosses the threshold. */
async function autoCompactIfNeeded(
  lane: Lane,
  draft: TurnDraft,
  info: ContextEngineInfo,
  attempt: AttemptResult,
  appended: { newMessages: readonly AgentMessage[]; newMessageKeys: readonly string[] },
): Promise<string | undefined> {
  const { group } = lane;
  if (!group.compactionEnabled || info.ownsCompaction === true) return undefined;
  const context = thresholdTokens(lane, draft, info, attempt, appended);
  if (!shouldCompact(context.tokens, group.contextWindow, group.settings)) return undefined;
  const limit = Math.max(0, group.contextWindow - group.settings.reserveTokens);

  return autoCompact(lane, draft, { measure: 'context', ...context, limit });
}

/** The end of a run that got to an attempt: the agent_end hooks, then `openclaw agent`'s after-run budget compaction. */
async function endRun(
  lane: Lane,
  draft: TurnDraft,
  turn: number,
  run: {
    attempt: AttemptResult;
    promptSent: boolean;
    status: TurnStatus;
    error: string | undefined;
    newMessages: readonly AgentMessage[];
    newMessageKeys: readonly string[];
  },
): Promise<void> {
  const { attempt, promptSent, error, newMessages } = run;
  const messages = [...attempt.assembled, ...(promptSent ? newMessages : [])];
  await runAgentEndHooks(lane, draft, {
    messages,
    success: run.status === 'ok',
    ...(error !== undefined ? { error } : {}),
  });
  if (promptSent) await compactAfterRunIfOverBudget(lane, draft, turn, run);
}

function turnStatusOf(
  turn: SessionTurn,
  hostFailure: string | undefined,
  promptError: string | undefined,
): { status: TurnStatus; error?: string } {
  if (hostFailure !== undefined) return { status: 'host_unsupported', error: hostFailure };
  if (promptError !== undefined) return { status: 'prompt_error', error: promptError };
  const recorded = recordedTurnOutcome(turn);
  return { status: recorded.outcome, ...(recorded.error !== undefined ? { error: recorded.error } : {}) };
}

function pickTokens(stored: StoredMessage): { estTokens: number; tiktokenTokens: number } {
  return { estTokens: stored.estTokens, tiktokenTokens: stored.tiktokenTokens };
}

interface TurnOutcome {
  turn: SessionTurn;
  promptKey: string;
  info: ContextEngineInfo;
  /** the engine as resolved when the turn started (a quarantine during the turn shows in its events) */
  engine: ReturnType<typeof engineRecordOf>;
  budget: AssembleBudget;
  attempt?: AttemptResult;
  hostFailure?: string;
  status: TurnStatus;
  error?: string;
  newMessageKeys: string[];
  turnPath?: TurnPath;
  modelCallKeys?: string[];
}

/** The turn's admission (its user entry) and terminal (its last entry) anchors in the lane transcript. */
function turnBoundary(lane: Lane, turn: SessionTurn, newMessageKeys: readonly string[]): TurnBoundary | undefined {
  const { transcript } = lane;
  const admissionId = transcript.laneIdOf(turn.userEntry.id);
  const lastKey = newMessageKeys[newMessageKeys.length - 1];
  const terminalId = lastKey === undefined ? undefined : transcript.laneIdOf(lastKey);
  const admission = admissionId === undefined ? undefined : anchorOf(lane, admissionId);
  const terminal = terminalId === undefined ? undefined : anchorOf(lane, terminalId);
  if (!admission || !terminal) return undefined;
  return { admission: { ...admission, logicalTurnId: `${admission.sessionId}:${admission.entryId}` }, terminal };
}

function recordTurn(lane: Lane, draft: TurnDraft, outcome: TurnOutcome): { record: TurnRecord; findings: Finding[] } {
  const { turn, info, budget, attempt, hostFailure } = outcome;
  const record = buildTurnRecord({
    lane: lane.id,
    turn: turn.index,
    userEntryId: turn.userEntry.id,
    promptKey: outcome.promptKey,
    status: outcome.status,
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
    engine: outcome.engine,
    budget: budgetRecordOf(lane, budget),
    historyCount: lane.session.info.turnStarts[turn.index] ?? lane.session.info.messageKeys.length,
    ...(attempt
      ? {
          attempt: {
            inputCount: attempt.pipeline.length,
            pipelineRemoved: attempt.pipelineRemoved,
            assemblySucceeded: attempt.assemblySucceeded,
            classified: attempt.classified,
            stored: attempt.stored,
            ...(attempt.result ? { result: attempt.result } : {}),
            precheck: attempt.precheck,
          },
        }
      : {}),
    draft,
    newMessageKeys: outcome.newMessageKeys,
    ...(outcome.turnPath ? { turnPath: outcome.turnPath } : {}),
    ...(outcome.modelCallKeys ? { modelCallKeys: outcome.modelCallKeys } : {}),
    reference: lane.session.reference,
    messageKeys: lane.session.info.messageKeys,
  });
  const findings = computeTurnFindings({
    lane: lane.id,
    turn: turn.index,
    engineId: info.id,
    isLegacy: info.id === 'legacy',
    ownsCompaction: info.ownsCompaction === true,
    assemblySucceeded: attempt?.assemblySucceeded ?? true,
    ...(attempt?.assembleError !== undefined ? { assembleError: attempt.assembleError } : {}),
    assembled: attempt ? attempt.assembled.map((message, i) => ({ message, ...pickTokens(attempt.stored[i]!) })) : [],
    estimatedTokens: record.estimatedTokens,
    tokenBudget: budget.tokenBudget,
    driftThreshold: lane.state.driftThreshold,
    compactions: draft.compactions,
    ...(draft.determinism ? { determinism: draft.determinism } : {}),
    voidResults: draft.voidResults,
    invalidResults: draft.invalidResults,
    quarantines: draft.quarantines,
    ...(hostFailure !== undefined ? { hostFailure } : {}),
  });
  findings.push(...engineFailureFindings(lane, turn.index, info.id, lane.engineFailures));
  const commit = outcome.turnPath?.commit;
  if (commit === 'skipped' || commit === 'failed') {
    findings.push({
      code: 'turn-commit-skipped',
      severity: FINDING_SEVERITY['turn-commit-skipped'],
      lane: lane.id,
      turn: turn.index,
      message:
        `The accepted turn was not committed to engine "${info.id}" (commitTurn ${commit}; see the turn's warnings). ` +
        'The engine has not seen this turn; OpenClaw retries the advancement before the next turn.',
    });
  }
  return { record: attachHookRecords(record, draft), findings };
}

/** The turn's assemble budget for the lane's release. */
function turnBudget(lane: Lane, prompt: string): AssembleBudget {
  const derived = deriveAssembleTokenBudget({
    contextTokenBudget: lane.group.contextWindow,
    reserveTokens: lane.group.settings.reserveTokens,
    systemPrompt: lane.state.systemPrompt,
    prompt,
    cjkCounting: lane.state.profile.cjkCounting,
  });
  // before 2026.7.1 assemble (and afterTurn) get the whole context window (versionProfiles.ts assembleTokenBudget)
  return lane.state.profile.assembleTokenBudget === 'context-window'
    ? { ...derived, tokenBudget: derived.contextTokenBudget }
    : derived;
}

/** Replay one recorded turn on `lane` (its draft already receives the turn's quarantine events). */
export async function replayTurn(
  lane: Lane,
  turn: SessionTurn,
  draft: TurnDraft,
  degradedReason?: string,
): Promise<{ record: TurnRecord; findings: Finding[] }> {
  const prompt = promptTextOf(turn.userEntry.message);
  const promptKey = lane.state.table.intern(turn.userEntry.id, turn.userEntry.message, turn.userEntry.id).key;
  await runManualCompaction(lane, draft, turn.index);

  const info = lane.engine.info;
  const engine = engineRecordOf(lane, info);
  const budget = turnBudget(lane, prompt);
  await runRunStartHooks(lane, draft, prompt);
  const hostFailure = checkAgentRunHostSupport(lane, draft, info);
  const tried = hostFailure === undefined ? await attemptUntilPromptFits(lane, draft, prompt, budget) : undefined;
  const attempt = tried?.attempt;
  const promptSent = hostFailure === undefined && tried?.promptError === undefined;

  const sentContext = attempt && contextOf(info, attempt);
  if (sentContext) noteOwnCompaction(lane, draft, sentContext, info.ownsCompaction === true);

  const persisted = await persistToolResults(lane, draft, turn);
  const { newMessages, newMessageKeys } = appendRecordedTurn(lane, draft, turn, persisted);
  const atModelCalls =
    promptSent && attempt ? await runModelCallHooks(lane, draft, attempt, prompt, newMessages) : undefined;
  const { status, error } = turnStatusOf(turn, hostFailure, tried?.promptError);
  if (promptSent) await handleRecordedSpawns(lane, turn, draft);
  const autoCompactionSummary =
    promptSent && attempt
      ? await autoCompactIfNeeded(lane, draft, info, attempt, { newMessages, newMessageKeys })
      : undefined;
  const boundary = lane.state.profile.durableTurnCommit ? turnBoundary(lane, turn, newMessageKeys) : undefined;
  const finalized = attempt
    ? await finalizeTurn(lane, draft, {
        attempt,
        sent: promptSent ? newMessages : [],
        ...(autoCompactionSummary !== undefined ? { autoCompactionSummary } : {}),
        tokenBudget: budget.tokenBudget,
        status,
        info,
        promptSent,
        ...(atModelCalls?.afterTurnCheckpoint !== undefined
          ? { afterTurnCheckpoint: atModelCalls.afterTurnCheckpoint }
          : {}),
        ...(boundary ? { boundary } : {}),
      })
    : ({ finalize: 'none' } as const);
  if (attempt)
    await endRun(lane, draft, turn.index, { attempt, promptSent, status, error, newMessages, newMessageKeys });
  const ownerCompacted = attempt ? await compactOwnerOverBudget(lane, draft, attempt) : false;
  const turnPath: TurnPath = {
    engine: degradedReason === undefined ? 'configured' : 'legacy-fallback',
    ...(degradedReason !== undefined ? { degradedReason } : {}),
    ...finalized,
  };
  noteLaneCompactions(lane, draft, turn.index);
  // after a compaction the host drove, the next turn's smaller context is that compaction's, already an event
  lane.lastContext = ownerCompacted
    ? undefined
    : sentContext && {
        ...sentContext,
        appendedTokens: newMessageKeys.reduce((s, k) => s + (lane.state.table.get(k)?.estTokens ?? 0), 0),
      };
  await noteKilledEngineHost(lane, draft);
  const modelCallKeys = atModelCalls?.firstCall && changedModelCall(lane, attempt, promptKey, atModelCalls.firstCall);
  return recordTurn(lane, draft, {
    turn,
    promptKey,
    info,
    engine,
    budget,
    ...(attempt ? { attempt } : {}),
    ...(hostFailure !== undefined ? { hostFailure } : {}),
    status,
    ...(error !== undefined ? { error } : {}),
    newMessageKeys,
    turnPath,
    ...(modelCallKeys ? { modelCallKeys } : {}),
  });
}

/** The first model call's keys when they are not the assembled context + the prompt, else undefined. */
function changedModelCall(
  lane: Lane,
  attempt: AttemptResult | undefined,
  promptKey: string,
  sent: readonly AgentMessage[],
): string[] | undefined {
  const keys = lane.classify(sent).classified.map((c) => c.key);
  const expected = [...(attempt?.classified.map((c) => c.key) ?? []), promptKey];
  const same = keys.length === expected.length && keys.every((k, i) => k === expected[i]);
  return same ? undefined : keys;
}
