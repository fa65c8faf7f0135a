/**
 * What an OpenClaw agent database holds, from its schema: `PRAGMA user_version`, `schema_meta` and the tables and
 * columns present. ContextScope reads the session layout of agent schemas 14–23 (logical session nodes and
 * generation windows; verified against databases written by OpenClaw 2026.8.1 = schema 19 and 2026.9.6 = 23).
 * Schemas 1–3 have no transcript tables (those agents keep JSONL sessions); 4–13 (2026.7.2 betas) keep
 * transcripts without session windows and are refused with a clear error, as are schemas newer than 23.
 */
import type { SqliteDatabase } from './sqliteDriver';

export const MIN_SESSION_SCHEMA = 14;
export const MAX_AGENT_SCHEMA = 23;
export const SUPPORTED_AGENT_SCHEMAS = `${MIN_SESSION_SCHEMA}-${MAX_AGENT_SCHEMA}`;

export interface AgentSchemaInfo {
  userVersion: number;
  /** `schema_meta` (primary row), when present */
  meta: { role: string; agentId: string | null; appVersion: string | null; schemaVersion: number } | null;
  /** the database has transcript tables (schema >= 4) */
  hasTranscripts: boolean;
  tables: ReadonlySet<string>;
  /** `transcript_events` stores compressed rows (`event_zstd`, schema 23) */
  compressedEvents: boolean;
  navigationColumn: boolean;
  activeEvents: boolean;
  coldArchives: boolean;
  archives: boolean;
  trajectory: boolean;
  identities: boolean;
}

/** An OpenClaw database ContextScope cannot read (what was found, what is supported, what to do). */
export class SqliteSessionError extends Error {
  readonly database: string;
  readonly code: 'not_a_database' | 'unsupported_schema' | 'corrupt_row' | 'not_found' | 'read_error';
  constructor(database: string, code: SqliteSessionError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SqliteSessionError';
    this.database = database;
    this.code = code;
  }
}

function columnsOf(db: SqliteDatabase, table: string): Set<string> {
  return new Set(
    db
      .prepare(`SELECT name FROM pragma_table_info('${table}')`)
      .all()
      .map((r) => String(r.name)),
  );
}

function readMeta(db: SqliteDatabase, tables: ReadonlySet<string>): AgentSchemaInfo['meta'] {
  if (!tables.has('schema_meta')) return null;
  const row = db
    .prepare("SELECT role, agent_id, app_version, schema_version FROM schema_meta WHERE meta_key = 'primary'")
    .get();
  if (!row) return null;
  return {
    role: String(row.role),
    agentId: row.agent_id === null ? null : String(row.agent_id),
    appVersion: row.app_version === null ? null : String(row.app_version),
    schemaVersion: Number(row.schema_version),
  };
}

/**
 * Reads the schema facts. Throws a SqliteSessionError when the file is not an SQLite database. `path` names the
 * database in messages (the file read may be a private copy).
 */
export function inspectAgentSchema(db: SqliteDatabase, path: string = db.path): AgentSchemaInfo {
  let userVersion: number;
  let tables: Set<string>;
  try {
    userVersion = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
    tables = new Set(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((r) => String(r.name)),
    );
  } catch (error) {
    throw new SqliteSessionError(
      path,
      'not_a_database',
      `${path} is not a readable SQLite database (${(error as Error).message})`,
      { cause: error },
    );
  }
  const events = tables.has('transcript_events') ? columnsOf(db, 'transcript_events') : new Set<string>();
  return {
    userVersion,
    meta: readMeta(db, tables),
    hasTranscripts: tables.has('transcript_events'),
    tables,
    compressedEvents: events.has('event_zstd'),
    navigationColumn: events.has('navigation_json'),
    activeEvents: tables.has('session_transcript_active_events'),
    coldArchives: tables.has('session_transcript_cold_archives'),
    archives: tables.has('session_transcript_archives'),
    trajectory: tables.has('trajectory_runtime_events'),
    identities: tables.has('transcript_event_identities'),
  };
}

/**
 * Refuses a database whose session layout ContextScope does not know. Returns false (nothing to read) for an
 * agent database without transcript tables.
 */
export function assertReadableSessionSchema(path: string, schema: AgentSchemaInfo): boolean {
  const written = schema.meta?.appVersion ? ` (written by OpenClaw ${schema.meta.appVersion})` : '';
  if (schema.meta && schema.meta.role !== 'agent') {
    throw new SqliteSessionError(
      path,
      'unsupported_schema',
      `${path} is an OpenClaw ${schema.meta.role} database, not an agent database`,
    );
  }
  if (schema.userVersion > MAX_AGENT_SCHEMA) {
    throw new SqliteSessionError(
      path,
      'unsupported_schema',
      `${path} uses agent schema version ${schema.userVersion}${written}; ContextScope reads agent schemas ${SUPPORTED_AGENT_SCHEMAS} (OpenClaw 2026.8.1 to 2026.9.6). Update ContextScope, or export the session as JSONL.`,
    );
  }
  if (!schema.hasTranscripts) return false;
  if (schema.userVersion < MIN_SESSION_SCHEMA || !schema.tables.has('session_windows')) {
    throw new SqliteSessionError(
      path,
      'unsupported_schema',
      `${path} uses agent schema version ${schema.userVersion}${written}, which keeps transcripts without session windows; ContextScope reads agent schemas ${SUPPORTED_AGENT_SCHEMAS}. Migrate it with a current OpenClaw (openclaw doctor --fix).`,
    );
  }
  return true;
}
