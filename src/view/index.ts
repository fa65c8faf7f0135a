/**
 * The pure view model of a Recording (no Node, no DOM): what the CLI, the HTML report and the app show. See
 * README.md.
 */
export {
  compareLanes,
  compareRecordings,
  rootLaneIds,
  sessionOfLane,
  turnCountOf,
  type CompareColumn,
  type CompareInput,
  type RecordingPairProblem,
  type RecordingPairResult,
} from './compareInput';
export {
  laneTurnFigures,
  measuresAssembled,
  tokensOf,
  turnFiguresRow,
  turnFiguresTable,
  turnMarker,
  turnPrompt,
  type LaneTurnFigures,
  type TokenMeasure,
  type TurnFiguresRow,
  type TurnMarker,
} from './turnFigures';
export { compactionCauseLine } from './compactionCause';
export { providerCheckFigures, type ProviderCheckFigures } from './providerChecks';
export { describeEvent, quarantineStarts, turnBadges, STATUS_TEXT, type BadgeKind, type TurnBadge } from './turnEvents';
export {
  findingsIndex,
  hasProblem,
  problemCounts,
  problemSummary,
  recordingFindings,
  turnProblems,
  PROBLEM_DEFINITIONS,
  type FindingsIndex,
  type ProblemCounts,
  type ProblemKind,
  type TurnProblems,
} from './turnProblems';
export {
  isSessionMessage,
  recordedSessionCounts,
  sessionCounts,
  SESSION_COUNT_DEFINITIONS,
  type SessionCounts,
} from './sessionCounts';
export { laneColor, laneColorIndex, laneStroke, LANE_COLORS, rootLaneId } from './laneColors';
export { alignTurn, type AlignedCell, type AlignedColumn, type AlignedRow, type AlignedTurn } from './alignTurn';
export { inContext, type CellStatus } from './laneTurnState';
export {
  comparePair,
  describePair,
  turnDifference,
  turnDifferences,
  type PairDifference,
  type TurnDifference,
} from './lanesDiffer';
export { laneTurnDelta, type LaneTurnDelta } from './turnDelta';
export { laneQuarantineAt, type LaneQuarantine } from './laneQuarantine';
export { changedRowCount, displayItems, foldLabel, type DisplayItem, type DisplayOptions } from './foldRows';
export { messagePreview, messageText } from './messageText';
export { CELL_STATUS_INFO, cellText, rowLabel, type CellStatusInfo } from './cellText';
export {
  advancePace,
  replayRate,
  RATE_WINDOW_MS,
  type ReplayPace,
  replayRateText,
  RATE_MIN_MS,
  RATE_MIN_TURNS,
  type ReplayProgressSample,
  type ReplayRate,
} from './replayRate';
