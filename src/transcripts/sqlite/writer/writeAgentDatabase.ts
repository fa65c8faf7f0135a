/**
 * Writes an agent database as OpenClaw stores sessions (schema 23 as 2026.9.6, or 19 as 2026.8.1): nodes,
 * windows, events (compressed by OpenClaw's rule at 23), identities, the active branch, index state, full-text
 * rows, rewrite watermarks, trajectory rows, archives and cold archives — in WAL mode, as OpenClaw opens it.
 * Only a new file, or one ContextScope wrote (`schema_meta.app_version` `contextscope…`), is written: an OpenClaw
 * database is never modified. Sessions already in the file under the same key are replaced.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { inspectAgentSchema } from '../agentSchema';
import { openSqliteDatabase, type SqliteDatabase, type SqliteDriverName } from '../sqliteDriver';
import { coldArchiveDir } from '../transcriptRows';
import type { AgentDatabaseSpec } from './agentDatabaseSpec';
import { agentSchemaDdl, type WritableAgentSchema } from './agentDdl';
import { insertArchive, insertSession, prepareStatements, type WriteCounts } from './insertRows';

export interface WriteAgentDatabaseOptions {
  /** agent schema to write (default 23, as OpenClaw 2026.9.6) */
  schemaVersion?: WritableAgentSchema;
  driver?: SqliteDriverName;
}

const APP_VERSIONS: Record<WritableAgentSchema, string> = { 19: '2026.8.1', 23: '2026.9.6' };

function createSchema(db: SqliteDatabase, spec: AgentDatabaseSpec, version: WritableAgentSchema): void {
  db.exec('PRAGMA page_size = 4096; PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL;');
  db.exec(`BEGIN; ${agentSchemaDdl(version)} PRAGMA user_version = ${version}; COMMIT;`);
  const app = spec.appVersion ?? `contextscope (as OpenClaw ${APP_VERSIONS[version]})`;
  db.prepare(
    'INSERT INTO schema_meta (meta_key, role, schema_version, agent_id, app_version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run('primary', 'agent', version, spec.agentId, app, spec.createdAt, spec.createdAt);
}

function checkWritable(db: SqliteDatabase, path: string, version: WritableAgentSchema): void {
  const schema = inspectAgentSchema(db, path);
  const app = schema.meta?.appVersion ?? '';
  if (!app.startsWith('contextscope')) {
    throw new Error(
      `Refusing to write into ${path}: it was not written by ContextScope (schema_meta says ${app ? `OpenClaw ${app}` : 'nothing'}). ContextScope never modifies OpenClaw's databases; pick another output folder.`,
    );
  }
  if (schema.userVersion !== version) {
    throw new Error(`Cannot add schema ${version} sessions to ${path}: it is agent schema ${schema.userVersion}`);
  }
}

function deleteSessions(db: SqliteDatabase, spec: AgentDatabaseSpec): void {
  const tables = ['transcript_event_identities', 'session_transcript_active_events', 'session_transcript_index_state', 'transcript_rewrite_watermarks', 'trajectory_runtime_events', 'transcript_events', 'session_transcript_fts']; // prettier-ignore
  for (const session of spec.sessions) {
    const ids = db
      .prepare('SELECT session_id FROM session_windows WHERE session_key = ?')
      .all(session.sessionKey)
      .map((r) => String(r.session_id));
    for (const id of [...ids, ...session.windows.map((w) => w.header.id)]) {
      for (const table of tables) db.prepare(`DELETE FROM ${table} WHERE session_id = ?`).run(id);
      db.prepare('DELETE FROM session_windows WHERE session_id = ?').run(id);
    }
    db.prepare('DELETE FROM session_nodes WHERE session_key = ?').run(session.sessionKey);
  }
}

/** Writes (or adds to) the agent database at `path`. Returns how many events were written and compressed. */
export function writeAgentDatabase(
  path: string,
  spec: AgentDatabaseSpec,
  options: WriteAgentDatabaseOptions = {},
): WriteCounts {
  const version = options.schemaVersion ?? 23;
  const fresh = !existsSync(path);
  mkdirSync(dirname(path), { recursive: true });
  const db = openSqliteDatabase(path, { create: true, driver: options.driver });
  try {
    if (fresh) createSchema(db, spec, version);
    else checkWritable(db, path, version);
    const statements = prepareStatements(db, version);
    const counts: WriteCounts = { events: 0, compressed: 0 };
    db.exec('BEGIN');
    try {
      if (!fresh) deleteSessions(db, spec);
      const maxRow = db.prepare('SELECT max(rowid) AS n FROM session_transcript_fts').get();
      const ftsRowId = { next: Number(maxRow?.n ?? 0) + 1 };
      for (const session of spec.sessions) {
        const written = insertSession(statements, session, version, coldArchiveDir(path), ftsRowId);
        counts.events += written.events;
        counts.compressed += written.compressed;
      }
      for (const archive of spec.archives ?? []) insertArchive(statements, archive);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
    return counts;
  } finally {
    db.close();
  }
}
