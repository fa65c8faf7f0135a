import type { AfterTurnParams, AgentMessage, ContextEngineInfo, MaintainParams } from '../../../contract';
import type { TurnStatus } from '../../../contract/recording';
import type { TurnDraft } from '../../recording/turnDraft';
import type { Lane } from '../laneContext';
import type { AttemptResult } from './attempt';

export interface FinalizeInput {
  attempt: AttemptResult;
  /** the turn's new messages the model saw (none when the prompt was not sent) */
  sent: AgentMessage[];
  autoCompactionSummary?: string;
  tokenBudget: number;
  status: TurnStatus;
  info: ContextEngineInfo;
}

/** afterTurn, else ingestBatch, else ingest per message; false when a call failed (spec §13 step 7). */
async function ingestTurn(lane: Lane, draft: TurnDraft, input: FinalizeInput): Promise<boolean> {
  const { engine } = lane;
  const { attempt, sent } = input;
  if (engine.has('afterTurn')) {
    const params: AfterTurnParams = {
      ...lane.sessionParams,
      sessionFile: lane.transcript.engineSessionFile,
      messages: [...attempt.assembled, ...sent],
      prePromptMessageCount: attempt.assembled.length,
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
  if (engine.has('ingestBatch')) {
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
export async function finalizeTurn(lane: Lane, draft: TurnDraft, input: FinalizeInput): Promise<void> {
  const finalizationOk = await ingestTurn(lane, draft, input);
  if (input.status !== 'ok' || !finalizationOk || !lane.engine.has('maintain')) return;
  const runtimeSettings = input.attempt.runtimeSettings;
  if (input.info.turnMaintenanceMode === 'background' && lane.sessionKey !== null) {
    const params: MaintainParams = {
      ...lane.sessionParams,
      sessionFile: lane.transcript.engineSessionFile,
      reason: 'turn',
      runtimeSettings,
      runtimeContext: lane.runtimeContext(),
    };
    const promise = lane.engine
      .call(draft, 'maintain', params, 'reason=turn, deferred (background)')
      .then(() => undefined);
    lane.deferMaintenance(promise, draft);
  } else {
    await lane.maintain(draft, 'turn', runtimeSettings);
  }
}
