/**
 * Durable turn advancement (OpenClaw 2026.8+, context-engine-turn-attempt.ts `finalizeAcceptedContextEngineTurn`):
 * after an accepted turn, `commitTurn({advancementKey, admission, terminal, messages, sessionId, sessionKey,
 * sessionTarget, isHeartbeat, runtimeContext})` with the turn's transcript messages between the admission anchor (the
 * user entry) and the terminal anchor (the turn's last entry); then `maintain("turn")`. A turn that was not accepted
 * (prompt error, recorded failure) discards its intent; a turn whose transcript target changed after admission (a
 * compaction moved the lane to a successor session) is skipped, as OpenClaw skips it.
 */
import type { AgentMessage, CommitTurnParams, ContextEngineSessionTarget } from '../../../contract';
import type { TurnPath, TurnStatus } from '../../../contract/recording';
import type { TurnDraft } from '../../recording/turnDraft';
import type { Lane } from '../laneContext';
import { commitQueuedWarning, logsTurnFailures } from '../turnFailures';
import { supportsDurableTurnAdvancement } from './turnEngine';

/** Where a turn starts or ends in the lane's transcript, in OpenClaw's anchor shape. */
export interface TurnAnchor {
  agentId: string;
  sessionId: string;
  sessionKey: string;
  storePath: string;
  generation: number;
  entryId: string;
  rawSeq: number;
  effectiveParentId: string | null;
  activeMessagePosition: number;
}

export interface TurnBoundary {
  admission: TurnAnchor & { logicalTurnId: string };
  terminal: TurnAnchor;
}

/** The anchor of a lane entry (undefined when the entry is not on the active branch). */
export function anchorOf(lane: Lane, laneEntryId: string): TurnAnchor | undefined {
  const facts = lane.transcript.anchorFacts(laneEntryId);
  const target = lane.sessionTarget();
  if (!facts || !target) return undefined;
  return {
    agentId: target.agentId!,
    sessionId: target.sessionId!,
    sessionKey: target.sessionKey!,
    storePath: target.storePath!,
    generation: 0,
    entryId: laneEntryId,
    ...facts,
  };
}

export interface CommitInput {
  boundary: TurnBoundary | undefined;
  messages: AgentMessage[];
  promptSent: boolean;
  status: TurnStatus;
}

/** The finalize part of the turn path; calls commitTurn when the turn was accepted. */
export async function commitAcceptedTurn(
  lane: Lane,
  draft: TurnDraft,
  input: CommitInput,
): Promise<Pick<TurnPath, 'finalize' | 'commit' | 'advancementKey'>> {
  const { engine } = lane;
  const declares = engine.info.transcriptSemantics?.turnAdvancementIdempotency !== undefined;
  const implements_ = supportsDurableTurnAdvancement(engine);
  if (!declares && !implements_) return { finalize: 'none' };
  const boundary = input.boundary;
  const advancementKey = boundary?.admission.logicalTurnId;
  const path = { finalize: 'commitTurn' as const, ...(advancementKey ? { advancementKey } : {}) };
  if (!input.promptSent || input.status !== 'ok') return { ...path, commit: 'discarded' };
  const skip = !boundary
    ? 'the turn has no transcript anchors'
    : lane.transcript.sessionId !== boundary.admission.sessionId
      ? 'accepted context-engine transcript target changed after admission'
      : !declares || !implements_
        ? 'accepted context engine does not support durable turn advancement'
        : undefined;
  if (skip !== undefined || !boundary) {
    draft.warn(`[context-engine] skipped accepted turn advancement: ${skip}`);
    return { ...path, commit: 'skipped' };
  }
  const { admission, terminal } = boundary;
  const sessionTarget: ContextEngineSessionTarget = {
    agentId: admission.agentId,
    sessionId: admission.sessionId,
    sessionKey: admission.sessionKey,
    storePath: admission.storePath,
  };
  const params: CommitTurnParams = {
    advancementKey: admission.logicalTurnId,
    admission,
    terminal,
    messages: input.messages,
    sessionId: admission.sessionId,
    sessionKey: admission.sessionKey,
    sessionTarget,
    isHeartbeat: false,
    runtimeContext: lane.runtimeContext(),
  };
  const outcome = await engine.call<{ status?: unknown }>(draft, 'commitTurn', params);
  const status = outcome.ok ? outcome.value?.status : undefined;
  if (status === 'committed' || status === 'duplicate') return { ...path, commit: status };
  const why = outcome.ok ? `invalid commitTurn result status: ${String(status)}` : outcome.message;
  draft.warn(commitQueuedWarning(admission.logicalTurnId, why));
  // the outbox keeps it; the next turn retries it before it runs (9.6 `drainPendingContextEngineTurnsBeforeRun`)
  if (logsTurnFailures(lane)) lane.pendingCommit = params;
  return { ...path, commit: 'failed' };
}
