// Reading, building context from, writing and generating OpenClaw session transcripts (JSONL v3).
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
export type { LoadedSession, SessionLoadMode } from './sessionParser';
export { readSessionFile, parseSessionText, type ReadSessionOptions } from './readSessionFile';
export type { ReadProgress } from './readLines';
export {
  SessionFileError,
  formatSessionFileError,
  type SessionProblem,
  type SessionProblemCode,
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
export { readSessionStore, parseSessionStore, parseSessionKey, isSubagentSessionKey } from './sessionStore';
export type { SessionStoreFile, ParsedSessionKey } from './sessionStore';
export { discoverSessions, resolveStateDir } from './discoverSessions';
export type { DiscoveredSession, DiscoveredAgent, DiscoveryResult, DiscoverOptions } from './discoverSessions';
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
} from './generator';
