/**
 * The global `<stateDir>/state/openclaw.sqlite` as far as sessions need it: `subagent_runs` (child → requester /
 * controller session keys: how a subagent family hangs together) and `agent_databases` (the registered agent
 * databases). Read through the same private snapshot as agent databases; a global schema newer than
 * 2026.9.6's (18) is reported, not read.
 */
import { existsSync } from 'node:fs';
import { isRecord } from '../../common/guards';
import { readDatabaseSnapshot, type SnapshotOptions } from './databaseSnapshot';
import type { SqliteDatabase } from './sqliteDriver';

export const MAX_STATE_SCHEMA = 18;

export interface SubagentRun {
  runId: string;
  childSessionKey: string;
  requesterSessionKey: string;
  controllerSessionKey: string | null;
  createdAt: number;
  /** the run record OpenClaw keeps (task, label, execution status …), as stored */
  payload: Record<string, unknown> | null;
}

export interface RegisteredAgentDatabase {
  agentId: string;
  /** relative to the state dir */
  path: string;
  schemaVersion: number;
}

export interface StateDatabaseInfo {
  path: string;
  schemaVersion: number;
  subagentRuns: SubagentRun[];
  agentDatabases: RegisteredAgentDatabase[];
  /** why nothing was read (a newer global schema) */
  problem?: string;
}

function tableNames(db: SqliteDatabase): Set<string> {
  return new Set(
    db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => String(r.name)),
  );
}

function parsePayload(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string') return null;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

function readRuns(db: SqliteDatabase): SubagentRun[] {
  const sql =
    'SELECT run_id, child_session_key, requester_session_key, controller_session_key, created_at, payload_json FROM subagent_runs ORDER BY created_at, run_id';
  return db
    .prepare(sql)
    .all()
    .map((r) => ({
      runId: String(r.run_id),
      childSessionKey: String(r.child_session_key),
      requesterSessionKey: String(r.requester_session_key),
      controllerSessionKey: r.controller_session_key === null ? null : String(r.controller_session_key),
      createdAt: Number(r.created_at),
      payload: parsePayload(r.payload_json),
    }));
}

function readState(db: SqliteDatabase, path: string): StateDatabaseInfo {
  const schemaVersion = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  const info: StateDatabaseInfo = { path, schemaVersion, subagentRuns: [], agentDatabases: [] };
  if (schemaVersion > MAX_STATE_SCHEMA) {
    info.problem = `${path} uses global schema ${schemaVersion}; ContextScope reads up to ${MAX_STATE_SCHEMA} (OpenClaw 2026.9.6), so subagent runs were not read`;
    return info;
  }
  const tables = tableNames(db);
  if (tables.has('subagent_runs')) info.subagentRuns = readRuns(db);
  if (tables.has('agent_databases')) {
    info.agentDatabases = db
      .prepare('SELECT agent_id, path, schema_version FROM agent_databases ORDER BY agent_id, path')
      .all()
      .map((r) => ({ agentId: String(r.agent_id), path: String(r.path), schemaVersion: Number(r.schema_version) }));
  }
  return info;
}

/** Reads the global database, or returns null when the state dir has none. */
export async function readStateDatabase(
  path: string,
  options: SnapshotOptions = {},
): Promise<StateDatabaseInfo | null> {
  if (!existsSync(path)) return null;
  return (await readDatabaseSnapshot(path, (db) => readState(db, path), options)).value;
}
