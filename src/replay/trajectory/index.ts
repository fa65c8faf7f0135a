/** The recorded trajectory as ground truth: the recorded lane and its per-turn verdicts. */
export { compareRecordedContext, describeValue } from './compareContext';
export type { ContextComparison, ContextDifference } from './compareContext';
export { alignCompiledContexts } from './compiledContexts';
export type { AlignedContexts, CompiledContext } from './compiledContexts';
export { buildRecordedLane, RECORDED_LANE_ID } from './recordedLane';
export type { RecordedLane, RecordedLaneInput } from './recordedLane';
export { formatTrajectoryVerdicts, trajectoryMismatches } from './formatVerdicts';
