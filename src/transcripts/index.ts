// Reading, building context from, writing and generating OpenClaw sessions: JSONL v3/v4 files and the SQLite
// databases of OpenClaw 2026.8+, behind one LoadedSession model (loadSession hides the storage).
export type { SessionContext, SessionTreeSource } from './sessionContext';
export { buildContextFromPath, buildSessionContext, getActivePath, selectResetKeptEntries } from './sessionContext';
export type { CreateSessionTranscriptOptions, SessionTranscript } from './sessionTranscript';
export { createSessionTranscript } from './sessionTranscript';
export { openSessionTranscript } from './openSessionTranscript';
export {
  serializeSessionEntries,
  serializeSessionLine,
  writeSessionFile,
  writeSessionFileSync,
} from './serializeSession';
export type { WritableSession } from './serializeSession';
export { SessionTreeIndex, indexSessionEntries, leafIdUpdateAfterEntry, appendParentIdAfterEntry } from './sessionTree';
export { parseSessionTimestampMs } from './timestamps';
export { generateEntryId, randomEntryIdSource, type EntryIdSource } from './entryIds';
export type {
  LoadedSession,
  SessionLoadMode,
  SessionStorage,
  SqliteSessionStorage,
  SessionWindowRange,
} from './sessionParser';
export { readSessionFile, parseSessionText, type ReadSessionOptions } from './readSessionFile';
export type { ReadProgress } from './readLines';
export {
  SessionFileError,
  formatSessionFileError,
  type SessionProblem,
  type SessionProblemCode,
  type SessionSourceKind,
} from './sessionProblems';
export {
  convertToLlm,
  bashExecutionToText,
  isRuntimeContextCarrier,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
} from './convertToLlm';
export {
  projectSessionEntryMessage,
  createCompactionSummaryMessage,
  createBranchSummaryMessage,
  createCustomMessage,
} from './projectEntryMessage';
export {
  readSessionStore,
  parseSessionStore,
  parseSessionKey,
  isSubagentSessionKey,
  storeEntryFile,
} from './sessionStore';
export type { SessionStoreFile, ParsedSessionKey } from './sessionStore';
export { discoverSessions, resolveStateDir } from './discoverSessions';
export type {
  DiscoveredSession,
  DiscoveredAgent,
  DiscoveryResult,
  DiscoverOptions,
  SessionRef,
  SqliteSessionFacts,
  SqliteWindowSummary,
} from './discoverSessions';
export { loadSession, findSession } from './loadSession';
export type { LoadSessionOptions, FindSessionOptions, FoundSession } from './loadSession';
export { sessionKeyOf, createChildSessionResolver } from './sessionFamily';
export {
  promptProjectionFor,
  projectMessagesForModel,
  escapeInternalContextDelimiters,
  type PromptProjection,
} from './promptProjection';
export {
  agentDatabasePath,
  stateDatabasePath,
  loadSqliteSession,
  withAgentDatabase,
  SqliteSessionError,
  readStateDatabase,
  readTrajectoryEvents,
  readDatabaseSnapshot,
  writeAgentDatabase,
  availableSqliteDrivers,
  defaultSqliteDriver,
  compressZstd,
  decompressZstd,
  MAX_AGENT_SCHEMA,
  SUPPORTED_AGENT_SCHEMAS,
} from './sqlite';
export type {
  AgentDatabaseSpec,
  SqliteSessionSpec,
  SqliteWindowSpec,
  SqliteArchiveSpec,
  SqliteSessionTarget,
  SnapshotOptions,
  SnapshotStrategy,
  SqliteDriverName,
  StateDatabaseInfo,
  SubagentRun,
  TrajectoryEvent,
} from './sqlite';
export { collectSpawnRecords, SpawnCollector, SESSIONS_SPAWN_TOOL } from './spawnRecords';
export type { SpawnRecord, SpawnArguments } from './spawnRecords';
export { describeSessionTree, type SessionTreeSummary } from './describeSessionTree';
export { generateSession, writeGeneratedSessions, effectiveReserveTokens } from './generator';
export type {
  GenerateSessionOptions,
  GeneratedSession,
  GeneratedSessionSet,
  GeneratedSessionStats,
  WrittenSessionSet,
  WriteGeneratedOptions,
} from './generator';
export { isTrajectoryFileName, readSessionTrajectory, readTrajectoryFile, trajectoryFileOf } from './sessionTrajectory';
export type { SessionTrajectory } from './sessionTrajectory';
export { countToolPairing, type ToolPairing } from './toolPairing';
