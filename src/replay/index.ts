/**
 * Public API of src/replay: the host simulator (`replaySession`), the Recording schema and its import/export,
 * provenance classification, findings, lane specs, the side-by-side comparison and the HTML report.
 */
export { replaySession, ReplayAbortedError } from './replaySession';
export type {
  LaneEngineSource,
  PluginLoadingOptions,
  ReplayLaneConfig,
  ReplayOptions,
  ReplayProgress,
} from './replayTypes';
export * from './recordingSchema';
export {
  importRecording,
  validateRecording,
  jsonPointerToPath,
  RecordingImportError,
  type RecordingValidationIssue,
} from './importRecording';
export { exportRecordingJson } from './exportRecording';
export {
  canonicalJson,
  contentHash,
  createHashKeyCache,
  hashKeyOf,
  messageKeyOf,
  isHashKey,
  HASH_KEY_PREFIX,
  type HashKeyCache,
} from './messageIdentity';
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
} from './classifyProvenance';
export { readSummaryMarker, type SummaryMarker } from './summaryMarkers';
export { indicesToRanges, rangesToIndices, countInRanges, rangesContain } from './indexRanges';
export {
  computeTurnFindings,
  findToolPairingProblems,
  DEFAULT_DRIFT_THRESHOLD,
  FINDING_SEVERITY,
  type CompactionOutcome,
  type TurnFindingInput,
} from './computeTurnFindings';
export {
  parseLaneSpec,
  parseHostSpec,
  defaultLaneLabel,
  LaneSpecError,
  type ParsedLaneSpec,
  type HostSpec,
} from './laneSpec';
export { laneConfigFromSpec, type LaneSpecDefaults } from './laneConfigFromSpec';
export { laneSettingsFindings, type LaneSettingsInput } from './laneSettingsFindings';
export { countSessionFile, createSessionCountCache, type SessionCounts, type SessionCountCache } from './sessionCounts';
export {
  compareTurns,
  describeEvent,
  laneTurnCell,
  selectFailingFindings,
  type CompareRow,
  type LaneTurnCell,
} from './compareTurns';
export { renderHtmlReport, type HtmlReportOptions } from './report/renderHtmlReport';
export { escapeHtml } from './report/escapeHtml';
export { renderBudgetChart, type BudgetChartInput, type ChartSeries } from './report/svgBudgetChart';
export {
  splitSessionTurns,
  promptTextOf,
  recordedTurnOutcome,
  type SessionTurn,
  type SplitSession,
} from './sessionTurns';
export { findRecordedSpawns, interpretSpawnRecord, type RecordedSpawn } from './subagentSpawns';
export { FORK_REQUIRES_TRANSCRIPT_ERROR, LIGHT_CONTEXT_SKIP_REASON } from './subagentLifecycle';
export { ASSEMBLE_FAILED_WARNING, BOOTSTRAP_FAILED_WARNING, MAX_OVERFLOW_COMPACTION_ATTEMPTS } from './laneRunner';
export { maxToolResultChars, reducibleToolResultChars, truncateToolResult } from './toolResultTruncation';
export { formatCompareTable, formatLaneSummary } from './formatCompareTable';
export { resolveSessionInput, type ResolvedSessionInput } from './resolveSessionInput';
export { sliceRecording, type RecordingSlice } from './sliceRecording';
export {
  createReplayService,
  defaultDemoSessionsDir,
  listSessions,
  ReplayNotFoundError,
  type ListedSession,
  type ReplayProgressUpdate,
  type ReplayService,
  type ReplayServiceOptions,
  type ReplaySnapshot,
  type ReplayStatus,
  type StartReplayRequest,
} from './replayService';
