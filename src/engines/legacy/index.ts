/** Public API of the built-in `legacy` engine: the engine, its history pipeline and OpenClaw's built-in compaction. */
export { LEGACY_ENGINE_INFO, createLegacyContextEngine, type LegacyContextEngineOptions } from './legacyEngine';
export { runHistoryPipeline, type HistoryPipelineOptions, type HistoryPipelineResult } from './historyPipeline';
export { createIncrementalHistoryPipeline, type IncrementalHistoryPipeline } from './incrementalHistoryPipeline';
export type { HistoryRemoval, HistoryRemovalReason } from './historyItems';
export type { TurnValidation } from './validateTurns';
export {
  DEFAULT_HEARTBEAT_ACK_MAX_CHARS,
  DEFAULT_HEARTBEAT_PROMPT,
  DEFAULT_HEARTBEAT_PROMPT_2026_9,
  HEARTBEAT_TRANSCRIPT_PROMPT,
  isHeartbeatAck,
  isHeartbeatUserMessage,
  type HeartbeatFilterOptions,
  type HeartbeatFilterVariant,
} from './heartbeatArtifacts';
export { MISSING_TOOL_RESULT_TEXT, type InsertedToolResult } from './repairToolResultPairing';
export { calculateContextTokens, estimateContextTokens, type ContextTokenEstimate } from './estimateContextTokens';
export { shouldCompact } from './shouldCompact';
export { HistorySanitizer, latestCalledModel, sanitizeStoredMessages } from './sanitizeHistory';
export {
  rewritesToolCallIds,
  TOOL_CALL_ID_POLICY_2026_6,
  type CalledModel,
  type ToolCallIdPolicy,
} from './sanitizeToolCallIds';
export { HARNESS_2026_7, HARNESS_2026_9, type HarnessBehaviour } from './harnessBehaviour';
export { findCutPoint, findTurnStartIndex, type CutPointResult } from './findCutPoint';
export { isCutPointMessage, isTurnStartMessage } from './compactionEntries';
export { prepareCompaction, type CompactionPreparation, type PrepareCompactionOptions } from './prepareCompaction';
export {
  computeFileLists,
  createFileOps,
  extractFileOpsFromMessage,
  formatFileOperations,
  type FileOperations,
} from './fileOperations';
export {
  MAX_COMPACTION_SUMMARY_CHARS,
  SUMMARY_TRUNCATED_MARKER,
  TURN_CONTEXT_PREFIX,
  capCompactionSummary,
  composeCompactionSummary,
  extractLatestUserRequest,
} from './compactionSummaryLayout';
export { compactTranscript, type CompactTranscriptOptions, type CompactTranscriptResult } from './compactTranscript';
export { NO_PRIOR_HISTORY } from './generateSummary';
export type { TrackedTranscriptHandle } from './trackedTranscript';
export {
  delegateCompactionToRuntime,
  type DelegateCompactionDeps,
  type TranscriptRef,
} from './delegateCompactionToRuntime';
