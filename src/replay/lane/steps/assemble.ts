import {
  describeAssembleResultProblem,
  type AgentMessage,
  type AssembleParams,
  type AssembleResult,
  type ContextEngineRuntimeSettings,
} from '../../../contract';
import type { ClassifiedMessage } from '../../recording/classifyProvenance';
import type { StoredMessage } from '../../recording/messageTable';
import type { TurnDraft } from '../../recording/turnDraft';
import type { Lane } from '../laneContext';

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
 * prompt, runtimeSettings})`. A failed assemble falls back to the pipeline messages (spec §13 step 5).
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
  const outcome = await lane.engine.call<AssembleResult>(draft, 'assemble', params);
  const invalid = outcome.ok ? invalidResultReason(lane, outcome.value) : undefined;
  let context: AssembledContext;
  if (outcome.ok && outcome.value && Array.isArray(outcome.value.messages) && invalid === undefined) {
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
    const assembleError = !outcome.ok ? outcome.message : (invalid ?? 'assemble() returned no messages array');
    draft.warn(ASSEMBLE_FAILED_WARNING + assembleError);
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

/**
 * A result whose messages the host cannot read quarantines the engine (a contract failure of this lane; the other
 * lanes go on). Undefined when the result is readable, or has no messages array at all (OpenClaw's own case: the
 * pipeline messages are sent, no quarantine).
 */
function invalidResultReason(lane: Lane, result: unknown): string | undefined {
  if (!result || typeof result !== 'object' || !Array.isArray((result as AssembleResult).messages)) return undefined;
  const problem = describeAssembleResultProblem(result);
  if (problem === undefined) return undefined;
  const reason = `assemble() returned an invalid AssembleResult: ${problem}`;
  const described = lane.group.runtime.describeResolvedEngine(lane.engine.engine);
  if (described && !described.quarantined && described.engineId !== 'legacy') {
    lane.group.runtime.quarantineContextEngine({ engineId: described.engineId, operation: 'assemble', error: reason });
  }
  return reason;
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
