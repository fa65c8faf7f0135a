/**
 * The compactions a lane turn can run (behaviour §7): the engine's own `compact()` for overflow recovery and `/compact`
 * (the successor session adopted, then `maintain("compaction")`), the harness's built-in auto-compaction on the
 * lane transcript for engines that do not own compaction, and a recorded compaction replayed when the caller
 * honours the session's own compactions. Each records a `compaction` event and the facts findings look at.
 */
import type {
  CompactionEntry,
  CompactParams,
  CompactResult,
  ContextEngineInfo,
  ContextEngineRuntimeSettings,
} from '../../contract';
import { compactTranscript } from '../../engines/legacy';
import type { CompactionOutcome } from '../findings/computeTurnFindings';
import type { CompactionCause, CompactionEvent, CompactionTrigger } from '../../contract/recording';
import type { Lane } from './laneContext';
import type { RecordedEngine } from '../recording/recordEngineCalls';
import type { TurnDraft } from '../recording/turnDraft';
import { errorMessage } from '../../common/errorText';
import { withEngineCompactionHooks, withHarnessCompactionHooks } from './hooks';
import { withoutTrailingCliNotices } from './laterRuns';

/**
 * OpenClaw's log line when `compact()` threw (the error is caught and the compaction counts as failed; a quarantine
 * proxy around the engine has quarantined it first): the /compact path logs `context-engine compaction failed`
 * (`compactEmbeddedAgentSession`, compact.queued.ts), overflow recovery `contextEngine.compact() threw during
 * overflow recovery for <provider>/<model>: <String(error)>` (7.35 `runEmbeddedAgentInternal`, 9.6
 * `compactEmbeddedRunForRecovery`); both 2026.7.35 and 2026.9.6 embedded-agent-*; the after-run budget compaction
 * `CLI transcript compaction failed for <provider>/<model>: <reason>` (7.35 cli-compaction-*.js `compactCliTranscript`).
 */
export function compactThrewLine(
  lane: Lane,
  trigger: EngineCompactionTrigger,
  error: unknown,
  message: string,
): string {
  if (trigger === 'manual') return `context-engine compaction failed ${JSON.stringify({ errorMessage: message })}`;
  const model = `${lane.group.provider ?? 'unknown'}/${lane.group.model ?? 'unknown'}`;
  // the budget check after an `openclaw agent` turn (6.11/7.35 cli-compaction-*.js `compactCliTranscript`)
  if (trigger === 'budget') return `CLI transcript compaction failed for ${model}: ${message}`;
  const text = error instanceof Error ? String(error) : message;
  return `contextEngine.compact() threw during overflow recovery for ${model}: ${text}`;
}

type CompactRequest = Omit<CompactParams, 'sessionId' | 'sessionKey' | 'sessionFile'>;

/** Why the host called an engine's compact(): overflow recovery, `/compact`, or the budget check after a turn. */
export type EngineCompactionTrigger = 'overflow' | 'manual' | 'budget';

/**
 * The lane's session, target and runtime context around `params`; runtimeSettings only for an owner. The budget
 * check's runtime context says so as OpenClaw's does (`trigger: "cli_budget"`, 7.35 cli-compaction-*.js).
 */
function compactParamsOf(
  lane: Lane,
  info: ContextEngineInfo,
  trigger: EngineCompactionTrigger,
  params: CompactRequest,
  runtimeSettings: ContextEngineRuntimeSettings | undefined,
): CompactParams {
  return {
    ...lane.sessionParams,
    sessionFile: lane.transcript.sessionFile,
    ...lane.targetParams(),
    ...params,
    runtimeContext: lane.runtimeContext({
      tokenBudget: params.tokenBudget,
      ...(params.currentTokenCount !== undefined ? { currentTokenCount: params.currentTokenCount } : {}),
      ...(trigger === 'budget' ? { trigger: 'cli_budget' } : {}),
    }),
    ...(runtimeSettings && info.ownsCompaction ? { runtimeSettings } : {}),
  };
}

/**
 * Run `engine`'s `compact()` (the turn's engine for overflow recovery, the slot's for /compact); true when it
 * compacted (and the lane moved on to any successor session).
 */
export async function compactOnEngine(
  lane: Lane,
  draft: TurnDraft,
  engine: RecordedEngine,
  trigger: EngineCompactionTrigger,
  params: CompactRequest,
  runtimeSettings: ContextEngineRuntimeSettings | undefined,
  cause: CompactionCause,
): Promise<boolean> {
  const info = engine.info;
  const full = compactParamsOf(lane, info, trigger, params, runtimeSettings);
  const note = `${trigger}${params.forceReason ? `, forceReason=${params.forceReason}` : ''}`;
  const delegatedBefore = lane.group.delegatedCompactions;
  const outcome = await withEngineCompactionHooks(
    lane,
    draft,
    info,
    params.currentTokenCount,
    () => engine.call<CompactResult>(draft, 'compact', full, note),
    (o) => (o.ok ? o.value : undefined),
  );
  const compaction: CompactionOutcome = {
    trigger,
    byEngine: true,
    force: params.force === true,
    delegated: lane.group.delegatedCompactions > delegatedBefore,
    ok: false,
    compacted: false,
    tokensBefore: null,
    tokensAfter: null,
  };
  if (!outcome.ok) {
    compaction.error = outcome.message;
    draft.compactions.push(compaction);
    draft.addEvent(failedCompactionEvent(trigger, info.id, outcome.message, cause));
    draft.warn(compactThrewLine(lane, trigger, outcome.error, outcome.message));
    return false;
  }
  const value = outcome.value;
  const result = value?.result;
  compaction.ok = value?.ok === true;
  compaction.compacted = value?.compacted === true;
  if (value?.reason !== undefined) compaction.reason = String(value.reason);
  compaction.tokensBefore = typeof result?.tokensBefore === 'number' ? result.tokensBefore : null;
  compaction.tokensAfter = typeof result?.tokensAfter === 'number' ? result.tokensAfter : null;
  draft.compactions.push(compaction);
  const successorSessionId = result?.sessionTarget?.sessionId ?? result?.sessionId;
  const successorSessionFile = result?.sessionFile;
  draft.addEvent({
    type: 'compaction',
    trigger,
    engineId: info.id,
    ok: compaction.ok,
    compacted: compaction.compacted,
    ...(compaction.reason !== undefined ? { reason: compaction.reason } : {}),
    tokensBefore: compaction.tokensBefore,
    tokensAfter: compaction.tokensAfter,
    summary: typeof result?.summary === 'string' ? result.summary : null,
    firstKeptEntryId:
      typeof result?.firstKeptEntryId === 'string' ? lane.transcript.keyOf(result.firstKeptEntryId) : null,
    ...(successorSessionId && successorSessionId !== lane.transcript.sessionId ? { successorSessionId } : {}),
    ...(successorSessionFile && successorSessionFile !== lane.transcript.sessionFile ? { successorSessionFile } : {}),
    cause,
  });
  if (!compaction.compacted) return false;
  if (successorSessionId !== undefined || successorSessionFile !== undefined) {
    await lane.transcript.adoptSuccessor(successorSessionId, successorSessionFile);
    lane.group.transcripts.set(lane.transcript.sessionId, lane.transcript);
    lane.group.transcripts.set(lane.transcript.sessionFile, lane.transcript);
  }
  await lane.maintain(draft, 'compaction', runtimeSettings, engine);
  return true;
}

/** Replay a compaction entry of the recorded session on the lane (honourRecordedCompactions). */
/** The event of a compaction that threw or failed before producing a result. */
function failedCompactionEvent(
  trigger: CompactionTrigger,
  engineId: string,
  error: string,
  cause: CompactionCause,
): Omit<CompactionEvent, 'turn' | 'seq' | 'lane'> {
  return {
    type: 'compaction',
    trigger,
    engineId,
    ok: false,
    compacted: false,
    tokensBefore: null,
    tokensAfter: null,
    summary: null,
    firstKeptEntryId: null,
    error,
    cause,
  };
}

export function appendRecordedCompaction(lane: Lane, draft: TurnDraft, entry: CompactionEntry): void {
  lane.transcript.appendRecorded(entry);
  draft.compactions.push({
    trigger: 'recorded',
    byEngine: false,
    force: false,
    ok: true,
    compacted: true,
    tokensBefore: entry.tokensBefore,
    tokensAfter: null,
  });
  draft.addEvent({
    type: 'compaction',
    trigger: 'recorded',
    engineId: 'recorded',
    ok: true,
    compacted: true,
    tokensBefore: entry.tokensBefore,
    tokensAfter: null,
    summary: entry.summary,
    firstKeptEntryId: entry.firstKeptEntryId,
  });
}

/** The harness's in-prompt auto-compaction on the lane transcript; returns the summary when it compacted. */
export async function autoCompact(
  lane: Lane,
  draft: TurnDraft,
  cause: Extract<CompactionCause, { measure: 'context' }>,
): Promise<string | undefined> {
  const contextTokens = cause.tokens;
  try {
    const outcome = await withHarnessCompactionHooks(lane, draft, () =>
      compactTranscript({
        transcript: lane.transcript.handle,
        summarizer: lane.group.summarizer,
        settings: lane.group.settings,
        tokenBudget: lane.group.contextWindow,
        currentTokenCount: contextTokens,
        harness: lane.state.profile,
        measuredMessages: withoutTrailingCliNotices,
      }),
    );
    const result = outcome.result;
    draft.compactions.push({
      trigger: 'auto',
      byEngine: false,
      force: false,
      ok: outcome.ok,
      compacted: outcome.compacted,
      ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
      tokensBefore: result?.tokensBefore ?? null,
      tokensAfter: result?.tokensAfter ?? null,
    });
    draft.addEvent({
      type: 'compaction',
      trigger: 'auto',
      engineId: 'built-in',
      ok: outcome.ok,
      compacted: outcome.compacted,
      ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
      tokensBefore: result?.tokensBefore ?? null,
      tokensAfter: result?.tokensAfter ?? null,
      summary: result?.summary ?? null,
      firstKeptEntryId: result?.firstKeptEntryId ? lane.transcript.keyOf(result.firstKeptEntryId) : null,
      cause,
    });
    return outcome.compacted ? result?.summary : undefined;
  } catch (error) {
    const message = errorMessage(error);
    draft.addEvent(failedCompactionEvent('auto', 'built-in', message, cause));
    return undefined;
  }
}
