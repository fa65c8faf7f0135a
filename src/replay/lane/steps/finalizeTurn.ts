import type { AfterTurnParams, AgentMessage, ContextEngineInfo, MaintainParams } from '../../../contract';
import type { TurnPath, TurnStatus } from '../../../contract/recording';
import type { TurnDraft } from '../../recording/turnDraft';
import type { Lane } from '../laneContext';
import type { AttemptResult } from './attempt';
import { errorText, logsTurnFailures } from '../turnFailures';
import { noteMaintainFailure } from './bootstrap';
import { commitAcceptedTurn, type TurnBoundary } from './commitTurn';

export interface FinalizeInput {
  attempt: AttemptResult;
  /** the turn's new messages the model saw (none when the prompt was not sent) */
  sent: AgentMessage[];
  autoCompactionSummary?: string;
  tokenBudget: number;
  status: TurnStatus;
  info: ContextEngineInfo;
  /** the prompt was sent (not refused by the precheck or the window) */
  promptSent: boolean;
  /** the turn's admission and terminal anchors (2026.8+ hosts) */
  boundary?: TurnBoundary;
  /** the message count afterTurn saw at the turn's last model call (modelCallHook.ts), else the assembled count */
  afterTurnCheckpoint?: number;
}

type FinalizePath = Pick<TurnPath, 'finalize' | 'commit' | 'advancementKey'>;

/** afterTurn, else ingestBatch, else ingest per message; ok false when a call failed (behaviour §13 step 7). */
async function ingestTurn(
  lane: Lane,
  draft: TurnDraft,
  input: FinalizeInput,
): Promise<{ ok: boolean; path: FinalizePath }> {
  const { engine } = lane;
  if (engine.has('afterTurn')) return { ok: await callAfterTurn(lane, draft, input), path: { finalize: 'afterTurn' } };
  if (engine.has('ingestBatch'))
    return { ok: await callIngestBatch(lane, draft, input), path: { finalize: 'ingestBatch' } };
  return { ok: await callIngest(lane, draft, input), path: { finalize: 'ingest' } };
}

async function callAfterTurn(lane: Lane, draft: TurnDraft, input: FinalizeInput): Promise<boolean> {
  const { engine } = lane;
  const { attempt, sent } = input;
  const params: AfterTurnParams = {
    ...lane.sessionParams,
    sessionFile: lane.transcript.engineSessionFile,
    messages: [...attempt.assembled, ...sent],
    prePromptMessageCount: input.afterTurnCheckpoint ?? attempt.assembled.length,
    ...(input.autoCompactionSummary !== undefined ? { autoCompactionSummary: input.autoCompactionSummary } : {}),
    isHeartbeat: false,
    tokenBudget: input.tokenBudget,
    runtimeSettings: attempt.runtimeSettings,
    runtimeContext: lane.runtimeContext(),
  };
  const outcome = await engine.call(draft, 'afterTurn', params);
  if (outcome.ok) return true;
  draft.warn(`context engine afterTurn failed: ${outcome.message}`);
  return false;
}

async function callIngestBatch(lane: Lane, draft: TurnDraft, input: FinalizeInput): Promise<boolean> {
  const { engine } = lane;
  const { sent } = input;
  if (sent.length === 0) return true;
  const outcome = await engine.call(draft, 'ingestBatch', {
    ...lane.sessionParams,
    messages: sent,
    isHeartbeat: false,
  });
  if (outcome.ok) return true;
  draft.warn(`context engine ingestBatch failed: ${outcome.message}`);
  return false;
}

async function callIngest(lane: Lane, draft: TurnDraft, input: FinalizeInput): Promise<boolean> {
  const { engine } = lane;
  const { sent } = input;
  let ok = true;
  for (const message of sent) {
    const outcome = await engine.call(draft, 'ingest', { ...lane.sessionParams, message, isHeartbeat: false });
    if (!outcome.ok) {
      ok = false;
      draft.warn(`context engine ingest failed: ${outcome.message}`);
    }
  }
  return ok;
}

/**
 * Finalize the turn, then `maintain("turn")` unless the turn failed: deferred (awaited before the lane's next
 * turn) for `turnMaintenanceMode: "background"` engines when the run has a session key, else inline.
 */
export async function finalizeTurn(lane: Lane, draft: TurnDraft, input: FinalizeInput): Promise<FinalizePath> {
  if (lane.state.profile.durableTurnCommit) {
    const path = await commitAcceptedTurn(lane, draft, {
      boundary: input.boundary,
      messages: input.sent,
      promptSent: input.promptSent,
      status: input.status,
    });
    const committed = path.commit === 'committed' || path.commit === 'duplicate';
    if (committed && lane.engine.has('maintain')) await maintainAfterTurn(lane, draft, input);
    return path;
  }
  const { ok, path } = await ingestTurn(lane, draft, input);
  if (input.status === 'ok' && ok && lane.engine.has('maintain')) await maintainAfterTurn(lane, draft, input);
  return path;
}

/** `maintain("turn")`, deferred for background-maintenance engines when the run has a session key. */
async function maintainAfterTurn(lane: Lane, draft: TurnDraft, input: FinalizeInput): Promise<void> {
  const runtimeSettings = input.attempt.runtimeSettings;
  if (input.info.turnMaintenanceMode === 'background' && lane.sessionKey !== null) {
    const params: MaintainParams = {
      ...lane.sessionParams,
      sessionFile: lane.transcript.engineSessionFile,
      ...lane.targetParams(),
      reason: 'turn',
      runtimeSettings,
      runtimeContext: lane.runtimeContext(),
    };
    const promise = lane.engine
      .call(draft, 'maintain', params, 'reason=turn, deferred (background)')
      .then(() => undefined);
    lane.deferMaintenance(promise, draft);
  } else {
    const outcome = await lane.maintain(draft, 'turn', runtimeSettings);
    if (outcome && !outcome.ok && logsTurnFailures(lane)) noteMaintainFailure(lane, draft, 'turn', errorText(outcome));
  }
}
