/**
 * Whether a replayed turn gets OpenClaw's strict tool-call id rewrite: decided as OpenClaw decides it, from the model
 * the turn called (its own reply, else a `model-snapshot` entry, else an earlier reply — session/turnModels.ts;
 * never an assistant message OpenClaw wrote itself) under the policy of the release the turn ran as (a root session
 * that spans releases: its own run's, from the trajectory; else the replay's).
 */
import { rewritesToolCallIds } from '../../engines/legacy';
import type { TurnModel } from '../session/turnModels';
import type { ReplayState } from './replayState';

/** Decides per turn of a session replayed at `depth` (0: the root session). */
export type ToolCallIdDecision = (turn: number | null, model: TurnModel | undefined) => boolean;

export function toolCallIdDecision(state: ReplayState, depth: number): ToolCallIdDecision {
  return (turn, model) => {
    const profile = depth === 0 && turn !== null ? state.profileOfTurn(turn) : state.profile;
    return rewritesToolCallIds(model, profile.toolCallIds);
  };
}
