/**
 * Public API of src/replay: the host simulator (`replaySession`), the Recording schema and its import/export,
 * provenance classification, findings, lane specs, the side-by-side comparison and the HTML report.
 */
export { replaySession, ReplayAbortedError } from './replaySession';
export type {
  LaneEngineSource,
  LiveReplay,
  PluginLoadingOptions,
  ReplayLaneConfig,
  ReplayOptions,
  ReplayProgress,
} from './lane/replayTypes';
export * from '../contract/recording'; // the Recording schema lives with the contracts; re-exported for library users
export {
  importRecording,
  validateRecording,
  jsonPointerToPath,
  RecordingImportError,
  type RecordingValidationIssue,
} from './recording/importRecording';
export { exportRecordingJson, recordingJsonChunks, RECORDING_FILE_VERSION } from './recording/exportRecording';
export { writeRecordingFile } from './recording/writeRecordingFile';
export {
  canonicalJson,
  canonicalContentHash,
  createHashKeyCache,
  hashKeyOf,
  messageKeyOf,
  isHashKey,
  HASH_KEY_PREFIX,
  type HashKeyCache,
} from './recording/messageIdentity';
export {
  buildReferenceIndex,
  classifyAssembled,
  classifyMessage,
  classifyOmitted,
  roleTimestampKey,
  type ClassifiedMessage,
  type ClassifyContext,
  type OmittedMessages,
  type ReferenceIndex,
} from './recording/classifyProvenance';
export { readSummaryMarker, type SummaryMarker } from './recording/summaryMarkers';
export { indicesToRanges, rangesToIndices, countInRanges, rangesContain } from './recording/indexRanges';
export {
  computeTurnFindings,
  findToolPairingProblems,
  DEFAULT_DRIFT_THRESHOLD,
  FINDING_SEVERITY,
  type CompactionOutcome,
  type TurnFindingInput,
} from './findings/computeTurnFindings';
export {
  parseLaneSpec,
  printLaneSpec,
  laneOfRequest,
  parseHostSpec,
  parseMegabytes,
  defaultLaneLabel,
  LaneSpecError,
  type ParsedLaneSpec,
  type HostSpec,
} from './lane/laneSpec';
export { laneConfigFromSpec, laneConfigOf, type LaneSpecDefaults } from './lane/laneConfigFromSpec';
export {
  activeBranchTurns,
  buildReplayPlan,
  checkReplayRequest,
  settingsOverridesOf,
  type CheckedReplayRequest,
  type ReplayPlan,
  type ReplayRequest,
} from './plan/replayPlan';
export { laneSettingsFindings, type LaneSettingsInput } from './findings/laneSettingsFindings';
export {
  countSessionFile,
  createSessionCountCache,
  type SessionCounts,
  type SessionCountsOrProblem,
  type SessionCountCache,
} from './session/sessionCounts';
export {
  compareRows,
  compareTurns,
  describeEvent,
  laneTurnCell,
  selectFailingFindings,
  type CompareRow,
  type LaneTurnCell,
} from './report/compareTurns';
export { renderHtmlReport, type HtmlReportOptions } from './report/renderHtmlReport';
export { alignedTurnJson, formatAlignedTurn, statusLegend } from './report/formatAlignedTurn';
export { compareRecordingLanes, formatRecordingComparison } from './report/formatRecordingComparison';
export { renderAlignedTurns } from './report/renderAlignedTurns';
export { escapeHtml } from './report/escapeHtml';
export { renderBudgetChart, type BudgetChartInput, type ChartSeries } from './report/svgBudgetChart';
export {
  splitSessionTurns,
  promptTextOf,
  recordedTurnOutcome,
  type SessionTurn,
  type SplitSession,
} from './session/sessionTurns';
export { findRecordedSpawns, interpretSpawnRecord, type RecordedSpawn } from './session/subagentSpawns';
export { FORK_REQUIRES_TRANSCRIPT_ERROR, LIGHT_CONTEXT_SKIP_REASON } from './lane/subagentLifecycle';
export { ASSEMBLE_FAILED_WARNING, BOOTSTRAP_FAILED_WARNING, MAX_OVERFLOW_COMPACTION_ATTEMPTS } from './lane/laneRunner';
export { maxToolResultChars, reducibleToolResultChars, truncateToolResult } from './lane/toolResultTruncation';
export { formatCompareTable, formatLaneSummary, formatProblemLine, rootLaneIds } from './report/formatCompareTable';
export {
  locatorOf,
  openReplaySession,
  parseSqliteSessionLocator,
  resolveSessionInput,
  sqliteSessionLocator,
  type ResolvedSessionInput,
} from './session/resolveSessionInput';
export { sliceRecording, type RecordingSlice } from './recording/sliceRecording';
export { TurnLog, turnLogOf, type TurnPage } from './stream/turnLog';
export {
  BRIDGE_MESSAGE_BYTES,
  RecordingPageError,
  type RecordingPage,
  type RecordingPageRequest,
} from './stream/recordingPages';
export { createPagedRecordings, type PagedRecordings, type RecordingAnswer } from './stream/pagedRecordings';
export {
  createReplayService,
  defaultDemoSessionsDir,
  listSessions,
  ReplayNotFoundError,
  type ListedSession,
  type ReplayProgressUpdate,
  type ReplayRead,
  type ReplayReadRequest,
  type ReplayService,
  type ReplayServiceOptions,
  type ReplaySnapshot,
  type ReplayStatus,
  type StartReplayRequest,
} from './replayService';
export {
  DEFAULT_OPENCLAW_VERSION,
  NEWEST_OPENCLAW_VERSION,
  openClawVersionProfile,
  type OpenClawVersionProfile,
} from './lane/openclawVersion';
export { describeBehaviour, SANITIZE_STEPS, type VersionBehaviour } from './lane/versionProfiles';
export {
  resolveReplaySettings,
  settingSourcesOf,
  type ReplaySettings,
  type ReplaySettingsOverrides,
  type ResolvedReplaySettings,
  type SettingSource,
} from './settings/resolveReplaySettings';
export {
  chooseOpenClawVersion,
  chooseReplayVersion,
  describeVersionChoice,
  type VersionChoice,
} from './settings/inferOpenClawVersion';
export { readOpenClawJson, OpenClawJsonError } from './settings/openclawJson';
export { stateDirOfSession } from './settings/sessionStateDir';
export { formatReplaySettingsLine } from './settings/formatSettings';
export { replayDefaults, type ReplayDefaultsRequest, type ReplayDefaultsResponse } from './settings/replayDefaults';
export { followSession, sourceStamp, type FollowInput, type FollowSessionOptions } from './follow/followSession';
export {
  compareRecordedContext,
  formatTrajectoryVerdicts,
  trajectoryMismatches,
  type ContextComparison,
  type ContextDifference,
} from './trajectory';
