/**
 * The events of one transcript generation as JSONL text, one per `seq`: `transcript_events.event_json`, or the
 * decoded `event_zstd` frame (exactly `event_utf8_bytes` bytes of UTF-8), or — when the rows were moved to cold
 * storage — the `event` records of the generation's `sessions/cold/<sha256>.jsonl.zst` archive.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errorMessage } from '../../common/errorText';
import { isRecord } from '../../common/guards';
import { SqliteSessionError, type AgentSchemaInfo } from './agentSchema';
import type { SqliteDatabase, SqliteRow } from './sqliteDriver';
import { decompressZstd } from './zstdCodec';

export interface EventText {
  seq: number;
  text: string;
}

/** A row that could not be decoded (tolerant loading reports it and goes on). */
export interface EventFailure {
  seq: number;
  /** what is wrong, without the location */
  reason: string;
  error: SqliteSessionError;
}

export interface ColdArchiveRow {
  sessionId: string;
  generation: string;
  archiveName: string;
  sha256: string;
  eventCount: number;
  archiveBytes: number;
  storage: 'file' | 'sqlite';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Where a row is, for messages: `<database> session <id> seq <n>`. */
export function rowLocation(database: string, sessionId: string, seq: number): string {
  return `${database} session ${sessionId} seq ${seq}`;
}

function decodeRow(row: SqliteRow, database: string, sessionId: string): EventText | EventFailure {
  const seq = Number(row.seq);
  if (typeof row.event_json === 'string') return { seq, text: row.event_json };
  const where = rowLocation(database, sessionId, seq);
  try {
    if (!(row.event_zstd instanceof Uint8Array))
      throw new Error(`${where}: the row has neither event_json nor event_zstd`);
    const size = row.event_utf8_bytes === null ? undefined : Number(row.event_utf8_bytes);
    return { seq, text: utf8.decode(decompressZstd(row.event_zstd, where, size)) };
  } catch (error) {
    const message = errorMessage(error);
    const reason = message.startsWith(`${where}: `) ? message.slice(where.length + 2) : message;
    return {
      seq,
      reason,
      error: new SqliteSessionError(database, 'corrupt_row', `${where}: ${reason}`, { cause: error }),
    };
  }
}

/** Rows of one generation in seq order (decoded lazily, one at a time). */
export function* iterateEventRows(
  db: SqliteDatabase,
  schema: AgentSchemaInfo,
  database: string,
  sessionId: string,
): Generator<EventText | EventFailure> {
  const columns = schema.compressedEvents ? 'seq, event_json, event_zstd, event_utf8_bytes' : 'seq, event_json';
  const statement = db.prepare(`SELECT ${columns} FROM transcript_events WHERE session_id = ? ORDER BY seq`);
  for (const row of statement.iterate(sessionId)) yield decodeRow(row, database, sessionId);
}

/** `sessions/cold/` beside an `agent/` directory, else `cold/` beside the database (OpenClaw's layout rule). */
export function coldArchiveDir(database: string): string {
  const dir = dirname(database);
  return basename(dir) === 'agent' ? join(dirname(dir), 'sessions', 'cold') : join(dir, 'cold');
}

function coldArchiveBytes(db: SqliteDatabase, database: string, archive: ColdArchiveRow): Buffer {
  if (archive.storage === 'sqlite') {
    const row = db
      .prepare('SELECT archive_blob FROM session_transcript_cold_archives WHERE session_id = ?')
      .get(archive.sessionId);
    return Buffer.from((row?.archive_blob as Uint8Array | null) ?? []);
  }
  const file = join(coldArchiveDir(database), archive.archiveName);
  try {
    return readFileSync(file);
  } catch (error) {
    throw new SqliteSessionError(
      database,
      'read_error',
      `Cold transcript archive ${file} (session ${archive.sessionId}) cannot be read (${errorMessage(error)}); restore it from a backup.`,
      { cause: error },
    );
  }
}

/** The events of a cold-archived generation, verified against the archive's recorded size and sha256. */
export function readColdArchiveEvents(db: SqliteDatabase, database: string, archive: ColdArchiveRow): EventText[] {
  const bytes = coldArchiveBytes(db, database, archive);
  const where = `cold transcript archive ${archive.archiveName} (session ${archive.sessionId})`;
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (bytes.length !== archive.archiveBytes || sha !== archive.sha256) {
    throw new SqliteSessionError(
      database,
      'corrupt_row',
      `${database}: ${where} failed verification (${bytes.length} bytes, sha256 ${sha.slice(0, 12)}…; recorded ${archive.archiveBytes} bytes, ${archive.sha256.slice(0, 12)}…)`,
    );
  }
  let text: string;
  try {
    text = utf8.decode(decompressZstd(bytes, `${database}: ${where}`));
  } catch (error) {
    throw new SqliteSessionError(database, 'corrupt_row', errorMessage(error), { cause: error });
  }
  const events: EventText[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const record: unknown = JSON.parse(line);
    if (!isRecord(record) || record.kind !== 'event' || !isRecord(record.row)) continue;
    if (typeof record.row.event_json === 'string')
      events.push({ seq: Number(record.row.seq), text: record.row.event_json });
  }
  return events.sort((a, b) => a.seq - b.seq);
}

/**
 * The rows of a generation that may hold a `sessions_spawn` call or result, decoded: identity rows whose text
 * names the tool, and compressed rows whose navigation metadata (tool-call names, tool name) does.
 */
export function spawnCandidateRows(
  db: SqliteDatabase,
  schema: AgentSchemaInfo,
  database: string,
  sessionId: string,
): EventText[] {
  const columns = schema.compressedEvents ? 'seq, event_json, event_zstd, event_utf8_bytes' : 'seq, event_json';
  const nav = schema.navigationColumn ? " OR navigation_json LIKE '%sessions_spawn%'" : '';
  const sql = `SELECT ${columns} FROM transcript_events WHERE session_id = ? AND (event_json LIKE '%sessions_spawn%'${nav}) ORDER BY seq`;
  const rows: EventText[] = [];
  for (const row of db.prepare(sql).iterate(sessionId)) {
    const decoded = decodeRow(row, database, sessionId);
    if ('text' in decoded) rows.push(decoded);
  }
  return rows;
}
