/** The recorded lane of a finished replay run, when OpenClaw left a trajectory for its root session. */
import type { TrajectoryReport } from '../../contract/recording';
import type { SessionTrajectory } from '../../transcripts';
import type { ReplayRun } from '../replayRun';
import type { PreparedSession } from '../session/prepareSession';
import { buildRecordedLane, RECORDED_LANE_ID } from './recordedLane';

/** Adds the recorded lane to the run (lanes and turns) and returns its verdicts; undefined without recorded contexts. */
export async function recordedLaneOf(
  run: ReplayRun,
  root: PreparedSession,
  trajectory: SessionTrajectory | null,
): Promise<TrajectoryReport | undefined> {
  // no trajectory, or one without context.compiled (e.g. trajectories ContextScope's generator writes) has nothing to show
  if (!trajectory?.events.some((e) => e.type === 'context.compiled')) return undefined;
  const lane = await buildRecordedLane({
    root,
    trajectory,
    table: run.state.table,
    lanes: run.lanes,
    turns: run.turns,
    laneId: run.laneIds.next(RECORDED_LANE_ID),
  });
  run.addLane(lane.record);
  run.turns[lane.record.id]!.push(...lane.turns);
  return lane.report;
}
