import {
  type AgentMessage,
  type AssembleParams,
  type AssembleResult,
  type ContextEngineRuntimeSettings,
} from '../../../contract';
import type { ClassifiedMessage } from '../../recording/classifyProvenance';
import type { StoredMessage } from '../../recording/messageTable';
import type { TurnDraft } from '../../recording/turnDraft';
import type { Lane } from '../laneContext';
import { errorText, logsTurnFailures } from '../turnFailures';

export const ASSEMBLE_FAILED_WARNING = 'context engine assemble failed, using pipeline messages: ';

/** What the engine assembled from the history pipeline's messages (or those messages, when assemble failed). */
export interface AssembledContext {
  pipeline: AgentMessage[];
  pipelineRemoved: number;
  assembled: AgentMessage[];
  classified: ClassifiedMessage[];
  stored: StoredMessage[];
  assemblySucceeded: boolean;
  assembleError?: string;
  result?: AssembleResult;
}

/**
 * History pipeline over the lane's own transcript, then `assemble({messages, tokenBudget, availableTools, model,
 * prompt, runtimeSettings})`. A failed assemble falls back to the pipeline messages (behaviour §13 step 5).
 */
export async function assembleContext(
  lane: Lane,
  draft: TurnDraft,
  prompt: string,
  tokenBudget: number,
  runtimeSettings: ContextEngineRuntimeSettings,
): Promise<AssembledContext> {
  const piped = lane.pipelineContext();
  const pipeline = piped.messages;
  const params: AssembleParams = {
    ...lane.sessionParams,
    messages: pipeline,
    tokenBudget,
    availableTools: new Set(lane.session.toolNames),
    ...(lane.group.model ? { model: lane.group.model } : {}),
    prompt,
    runtimeSettings,
    // 2026.8+ hosts pass runtimeContext (with sessionTarget) to assemble too
    ...(lane.state.profile.durableTurnCommit ? { runtimeContext: lane.runtimeContext() } : {}),
  };
  // a result whose messages the host cannot read already failed the call (the engine is quarantined)
  const outcome = await lane.engine.call<AssembleResult>(draft, 'assemble', params);
  let context: AssembledContext;
  if (outcome.ok && outcome.value && Array.isArray(outcome.value.messages)) {
    const result = outcome.value;
    context = {
      pipeline,
      pipelineRemoved: piped.removed,
      assembled: result.messages,
      assemblySucceeded: true,
      result,
      ...lane.classify(result.messages),
    };
  } else {
    // OpenClaw's ensureAssembleResultShape case (no messages array): the pipeline messages are sent
    const assembleError = !outcome.ok ? outcome.message : 'assemble() returned no messages array';
    // 2026.8+ reaches the harness's catch with the engine's own error, printed as `String(error)`
    draft.warn(ASSEMBLE_FAILED_WARNING + (!outcome.ok && logsTurnFailures(lane) ? errorText(outcome) : assembleError));
    context = {
      pipeline,
      pipelineRemoved: piped.removed,
      assembled: pipeline,
      assemblySucceeded: false,
      assembleError,
      ...lane.classify(pipeline),
    };
  }
  if (context.assemblySucceeded && lane.state.checkDeterminism) await checkDeterminism(lane, draft, params, context);
  return context;
}

/** Assemble a second time with the same params and record both key lists (the determinism finding compares them). */
async function checkDeterminism(
  lane: Lane,
  draft: TurnDraft,
  params: AssembleParams,
  first: AssembledContext,
): Promise<void> {
  const again = await lane.engine.call<AssembleResult>(draft, 'assemble', { ...params }, 'determinism check');
  if (again.ok && again.value && Array.isArray(again.value.messages)) {
    const second = lane.classify(again.value.messages).classified.map((c) => c.key);
    draft.determinism = { first: first.classified.map((c) => c.key), second };
  }
}
