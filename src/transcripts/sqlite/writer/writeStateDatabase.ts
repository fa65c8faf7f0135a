/**
 * Writes the parts of the global `state/openclaw.sqlite` that sessions use: `schema_meta` (global schema 18, as
 * 2026.9.6), `agent_databases` and `subagent_runs`. The run payload is a small record (task, label, status), not
 * OpenClaw's full run state, so OpenClaw's subagent registry skips these rows; ContextScope reads the key columns.
 * Like the agent writer it writes only a new file or one ContextScope wrote.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { openSqliteDatabase, type SqliteDatabase, type SqliteDriverName } from '../sqliteDriver';

export interface StateDatabaseSpec {
  createdAt: number;
  agentDatabases: { agentId: string; path: string; schemaVersion: number; sizeBytes: number | null }[];
  subagentRuns: {
    runId: string;
    childSessionKey: string;
    requesterSessionKey: string;
    controllerSessionKey?: string | null;
    createdAt: number;
    payload: Record<string, unknown>;
  }[];
}

const DDL = `
CREATE TABLE schema_meta (
  meta_key TEXT NOT NULL PRIMARY KEY, role TEXT NOT NULL, schema_version INTEGER NOT NULL, agent_id TEXT,
  app_version TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE agent_databases (
  agent_id TEXT NOT NULL, path TEXT NOT NULL, schema_version INTEGER NOT NULL, last_seen_at INTEGER NOT NULL,
  size_bytes INTEGER, PRIMARY KEY (agent_id, path)
) STRICT;
CREATE TABLE subagent_runs (
  run_id TEXT NOT NULL PRIMARY KEY, child_session_key TEXT NOT NULL, controller_session_key TEXT,
  controller_store_path TEXT, requester_session_key TEXT NOT NULL, requester_store_path TEXT,
  created_at INTEGER NOT NULL, payload_json TEXT NOT NULL DEFAULT '{}'
) STRICT;
`;

function create(db: SqliteDatabase, createdAt: number): void {
  db.exec('PRAGMA journal_mode = WAL;');
  db.exec(`BEGIN; ${DDL} PRAGMA user_version = 18; COMMIT;`);
  db.prepare(
    'INSERT INTO schema_meta (meta_key, role, schema_version, agent_id, app_version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run('primary', 'global', 18, null, 'contextscope (as OpenClaw 2026.9.6)', createdAt, createdAt);
}

function assertOurs(db: SqliteDatabase, path: string): void {
  const row = db.prepare("SELECT app_version FROM schema_meta WHERE meta_key = 'primary'").get();
  const app = row ? String(row.app_version ?? '') : '';
  if (!app.startsWith('contextscope')) {
    throw new Error(
      `Refusing to write into ${path}: it was not written by ContextScope (${app ? `OpenClaw ${app}` : 'no schema_meta'}); pick another output folder.`,
    );
  }
}

export function writeStateDatabase(path: string, spec: StateDatabaseSpec, driver?: SqliteDriverName): void {
  const fresh = !existsSync(path);
  mkdirSync(dirname(path), { recursive: true });
  const db = openSqliteDatabase(path, { create: true, driver });
  try {
    if (fresh) create(db, spec.createdAt);
    else assertOurs(db, path);
    db.exec('BEGIN');
    const agent = db.prepare(
      'INSERT OR REPLACE INTO agent_databases (agent_id, path, schema_version, last_seen_at, size_bytes) VALUES (?, ?, ?, ?, ?)',
    );
    for (const a of spec.agentDatabases) agent.run(a.agentId, a.path, a.schemaVersion, spec.createdAt, a.sizeBytes);
    const run = db.prepare(
      'INSERT OR REPLACE INTO subagent_runs (run_id, child_session_key, controller_session_key, requester_session_key, created_at, payload_json) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const r of spec.subagentRuns) {
      run.run(
        r.runId,
        r.childSessionKey,
        r.controllerSessionKey ?? null,
        r.requesterSessionKey,
        r.createdAt,
        JSON.stringify(r.payload),
      );
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}
