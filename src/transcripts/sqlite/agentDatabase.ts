/**
 * Opening an OpenClaw agent database for reading: a private consistent view (see databaseSnapshot.ts), the schema
 * checked, the session index read, then the caller's read — all in one snapshot, so what is listed and what is
 * loaded agree. `<stateDir>/agents/<agentId>/agent/openclaw-agent.sqlite` is the only file name used: the folder
 * also holds `*.lock.sqlite`, `*.memory-reindex-*` and other SQLite files that are not agent databases.
 */
import { join } from 'node:path';
import type { LoadedSession, SessionLoadMode } from '../sessionParser';
import { assertReadableSessionSchema, inspectAgentSchema, type AgentSchemaInfo } from './agentSchema';
import { readAgentSessionIndex, type AgentSessionIndex } from './agentSessions';
import { readDatabaseSnapshot, type SnapshotOptions, type SnapshotStrategy } from './databaseSnapshot';
import { readSqliteSession, type SqliteReadContext, type SqliteSessionTarget } from './readSqliteSession';
import type { SqliteDatabase } from './sqliteDriver';

export const AGENT_DATABASE_NAME = 'openclaw-agent.sqlite';

/** `<stateDir>/agents/<agentId>/agent/openclaw-agent.sqlite` */
export function agentDatabasePath(stateDir: string, agentId: string): string {
  return join(stateDir, 'agents', agentId, 'agent', AGENT_DATABASE_NAME);
}

/** `<stateDir>/state/openclaw.sqlite` (the global database: subagent runs, the agent database registry) */
export function stateDatabasePath(stateDir: string): string {
  return join(stateDir, 'state', 'openclaw.sqlite');
}

export interface AgentDatabaseView {
  db: SqliteDatabase;
  ctx: SqliteReadContext;
  index: AgentSessionIndex;
}

export interface AgentDatabaseRead<T> {
  schema: AgentSchemaInfo;
  strategy: SnapshotStrategy;
  /** null when the database has no transcript tables (agent schema 1-3: its sessions are still JSONL) */
  value: T | null;
}

/** Runs `read` on a snapshot of the agent database once its schema is known to be readable. */
export async function withAgentDatabase<T>(
  database: string,
  agentId: string,
  read: (view: AgentDatabaseView) => T,
  options: SnapshotOptions = {},
): Promise<AgentDatabaseRead<T>> {
  const result = await readDatabaseSnapshot(
    database,
    (db, strategy) => {
      const schema = inspectAgentSchema(db, database);
      if (!assertReadableSessionSchema(database, schema)) return { schema, value: null };
      const ctx: SqliteReadContext = { database, agentId, schema, readStrategy: strategy };
      return { schema, value: read({ db, ctx, index: readAgentSessionIndex(db, schema) }) };
    },
    options,
  );
  return { schema: result.value.schema, strategy: result.strategy, value: result.value.value };
}

/** Loads one session of an agent database. */
export async function loadSqliteSession(
  database: string,
  agentId: string,
  target: SqliteSessionTarget,
  options: { mode?: SessionLoadMode; snapshot?: SnapshotOptions } = {},
): Promise<LoadedSession> {
  const read = await withAgentDatabase(
    database,
    agentId,
    ({ db, ctx, index }) => readSqliteSession(db, ctx, index, target, options.mode ?? 'strict'),
    options.snapshot,
  );
  if (read.value === null) {
    throw new Error(
      `${database} (agent schema ${read.schema.userVersion}) has no transcript tables; this agent's sessions are JSONL files in its sessions/ folder`,
    );
  }
  return read.value;
}
