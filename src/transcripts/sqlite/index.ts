// OpenClaw 2026.8+ session storage: agent databases (read through private snapshots) and the writer.
export { agentDatabasePath, stateDatabasePath, loadSqliteSession, withAgentDatabase } from './agentDatabase';
export type { AgentDatabaseRead, AgentDatabaseView } from './agentDatabase';
export {
  SqliteSessionError,
  MAX_AGENT_SCHEMA,
  MIN_SESSION_SCHEMA,
  SUPPORTED_AGENT_SCHEMAS,
  inspectAgentSchema,
} from './agentSchema';
export type { AgentSchemaInfo } from './agentSchema';
export { readDatabaseSnapshot, type SnapshotOptions, type SnapshotStrategy } from './databaseSnapshot';
export type { SqliteSessionTarget } from './readSqliteSession';
export { readStateDatabase, type StateDatabaseInfo, type SubagentRun } from './stateDatabase';
export { readTrajectoryEvents, type TrajectoryEvent } from './trajectory';
export {
  availableSqliteDrivers,
  defaultSqliteDriver,
  openSqliteDatabase,
  type SqliteDatabase,
  type SqliteDriverName,
} from './sqliteDriver';
export { compressZstd, decompressZstd, zstdDecoderName } from './zstdCodec';
export { writeAgentDatabase, type WriteAgentDatabaseOptions } from './writer/writeAgentDatabase';
export type {
  AgentDatabaseSpec,
  SqliteArchiveSpec,
  SqliteSessionSpec,
  SqliteWindowSpec,
  TrajectoryEventSpec,
} from './writer/agentDatabaseSpec';
