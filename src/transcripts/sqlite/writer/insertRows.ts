/** Row inserts for the writer: one logical session (node, windows, events and their derived rows) at a time. */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../common/writeFileAtomic';
import type { SqliteDatabase, SqliteStatement, SqliteValue } from '../sqliteDriver';
import { compressZstd } from '../zstdCodec';
import type { SqliteArchiveSpec, SqliteSessionSpec, SqliteWindowSpec } from './agentDatabaseSpec';
import type { WritableAgentSchema } from './agentDdl';
import { identityPayload, prepareEventPayload } from './transcriptPayload';
import { projectWindow, type ProjectedWindow } from './transcriptProjection';

export interface WriteCounts {
  events: number;
  compressed: number;
}

type Statements = Record<
  | 'node'
  | 'window'
  | 'event'
  | 'identity'
  | 'active'
  | 'index'
  | 'watermark'
  | 'trajectory'
  | 'fts'
  | 'ftsRow'
  | 'cold'
  | 'archive',
  SqliteStatement | null
>;

function insert(db: SqliteDatabase, table: string, columns: string[]): SqliteStatement {
  return db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
}

export function prepareStatements(db: SqliteDatabase, version: WritableAgentSchema): Statements {
  const v23 = version === 23;
  return {
    node: insert(db, 'session_nodes', ['session_key', 'current_session_id', 'entry_json', 'entry_valid', 'updated_at', 'status', 'parent_session_key', 'spawned_by', 'fork_source_session_key', 'fork_source_session_id', 'fork_source_entry_id', 'label', 'display_name', 'archived_at']),
    window: insert(db, 'session_windows', ['session_id', 'session_key', 'previous_session_id', 'reason', 'session_scope', 'created_at', 'updated_at', 'transcript_updated_at', 'transcript_observed_at', 'session_entry_provenance', 'chat_type', 'model_provider', 'model', 'parent_session_key', 'spawned_by', 'display_name']),
    event: v23
      ? insert(db, 'transcript_events', ['session_id', 'seq', 'event_json', 'created_at', 'event_zstd', 'event_utf8_bytes', 'navigation_json'])
      : insert(db, 'transcript_events', ['session_id', 'seq', 'event_json', 'created_at']),
    identity: insert(db, 'transcript_event_identities', ['session_id', 'event_id', 'seq', 'event_type', 'parent_id', 'message_idempotency_key', 'created_at']),
    active: insert(db, 'session_transcript_active_events', ['session_id', 'active_position', 'event_seq', 'message_position', 'context_eligible']),
    index: insert(db, 'session_transcript_index_state', ['session_id', 'indexed_seq', 'leaf_event_id', 'needs_rebuild', 'active_event_count', 'active_message_count', 'updated_at']),
    watermark: insert(db, 'transcript_rewrite_watermarks', ['session_id', 'generation', 'updated_at']),
    trajectory: insert(db, 'trajectory_runtime_events', ['session_id', 'seq', 'run_id', 'event_json', 'created_at']),
    fts: insert(db, 'session_transcript_fts', ['rowid', 'text', 'session_id', 'message_id', 'role', 'timestamp']),
    ftsRow: v23 ? insert(db, 'session_transcript_fts_rows', ['id', 'session_id', 'message_id']) : null,
    cold: v23 ? insert(db, 'session_transcript_cold_archives', ['session_id', 'generation', 'archive_name', 'archive_sha256', 'event_count', 'raw_bytes', 'archive_bytes', 'last_seq', 'archived_at', 'storage']) : null,
    archive: insert(db, 'session_transcript_archives', ['session_id', 'generation', 'session_key', 'reason', 'encoding', 'archive_blob', 'archive_sha256', 'archive_name', 'created_at']),
  }; // prettier-ignore
}

/** A stable 32-hex generation id (OpenClaw draws a random one; a seed must give the same bytes). */
export function generationId(sessionId: string, salt = 'generation'): string {
  return createHash('sha256').update(`${salt}:${sessionId}`).digest('hex').slice(0, 32);
}

const KEY_MAIN = /(^|:)main$/i;

function sessionScope(spec: SqliteSessionSpec, window: SqliteWindowSpec): string {
  if (window.sessionScope) return window.sessionScope;
  const chatType = window.chatType ?? spec.entry.chatType;
  if (chatType === 'direct' && KEY_MAIN.test(spec.sessionKey.trim())) return 'shared-main';
  return chatType === 'group' || chatType === 'channel' ? chatType : 'conversation';
}

function insertEvents(
  s: Statements,
  sessionId: string,
  projected: ProjectedWindow,
  version: WritableAgentSchema,
): WriteCounts {
  let compressed = 0;
  for (const e of projected.events) {
    if (version === 19) {
      s.event!.run(sessionId, e.seq, e.eventJson, e.createdAt);
      continue;
    }
    const p = e.seq === 0 ? identityPayload(e.eventJson) : prepareEventPayload(e.eventJson, e.parsed);
    if (p.event_zstd) compressed += 1;
    s.event!.run(sessionId, e.seq, p.event_json, e.createdAt, p.event_zstd, p.event_utf8_bytes, p.navigation_json);
  }
  return { events: projected.events.length, compressed };
}

/** The events and derived rows of a generation, as the JSONL records of a cold archive file. */
function coldArchiveText(sessionId: string, generation: string, projected: ProjectedWindow): string {
  const records: unknown[] = [{ kind: 'header', version: 1, sessionId, generation }];
  for (const e of projected.events)
    records.push({ kind: 'event', row: { seq: e.seq, event_json: e.eventJson, created_at: e.createdAt } });
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

function insertCold(
  s: Statements,
  coldDir: string,
  sessionId: string,
  projected: ProjectedWindow,
  archivedAt: number,
): void {
  if (!s.cold) throw new Error('cold archives need agent schema 23');
  const generation = generationId(sessionId);
  const text = coldArchiveText(sessionId, generation, projected);
  const bytes = compressZstd(Buffer.from(text, 'utf8'));
  const sha = createHash('sha256').update(bytes).digest('hex');
  writeFileAtomic(join(coldDir, `${sha}.jsonl.zst`), bytes, { mode: 0o644 });
  const last = projected.events.length - 1;
  s.cold.run(
    sessionId,
    generation,
    `${sha}.jsonl.zst`,
    sha,
    projected.events.length,
    Buffer.byteLength(text),
    bytes.length,
    last,
    archivedAt,
    'file',
  );
}

function insertDerived(
  s: Statements,
  sessionId: string,
  p: ProjectedWindow,
  updatedAt: number,
  ftsRowId: { next: number },
): void {
  for (const i of p.identities)
    s.identity!.run(sessionId, i.eventId, i.seq, i.eventType, i.parentId, i.idempotencyKey, i.createdAt);
  for (const a of p.active) s.active!.run(sessionId, a.position, a.seq, a.messagePosition, a.contextEligible);
  const x = p.index;
  s.index!.run(sessionId, x.indexedSeq, x.leafEventId, 0, x.activeEventCount, x.activeMessageCount, updatedAt);
  for (const f of p.fts) {
    const id = ftsRowId.next++;
    s.fts!.run(id, f.text, sessionId, f.messageId, f.role, f.timestamp);
    s.ftsRow?.run(id, sessionId, f.messageId);
  }
}

/** Inserts one logical session; returns the events written. `coldDir` is where cold archives go. */
export function insertSession(
  s: Statements,
  spec: SqliteSessionSpec,
  version: WritableAgentSchema,
  coldDir: string,
  ftsRowId: { next: number },
): WriteCounts {
  const current = spec.windows[spec.windows.length - 1];
  if (!current) throw new Error(`session ${spec.sessionKey} has no windows`);
  const f = spec.forkSource;
  s.node!.run(spec.sessionKey, current.header.id, JSON.stringify(spec.entry), 1, spec.updatedAt, spec.status ?? null, spec.parentSessionKey ?? null, spec.spawnedBy ?? null, f?.sessionKey ?? null, f?.sessionId ?? null, f?.entryId ?? null, spec.label ?? null, spec.displayName ?? null, spec.archivedAt ?? null); // prettier-ignore
  const counts: WriteCounts = { events: 0, compressed: 0 };
  for (const w of spec.windows) {
    const id = w.header.id;
    s.window!.run(id, spec.sessionKey, w.previousSessionId ?? null, w.reason ?? null, sessionScope(spec, w), w.createdAt, w.updatedAt, w.updatedAt, w.updatedAt, 1, w.chatType ?? null, w.modelProvider ?? null, w.model ?? null, w.parentSessionKey ?? null, w.spawnedBy ?? null, w.displayName ?? null); // prettier-ignore
    const projected = projectWindow(w.header, w.entries);
    if (w.cold) insertCold(s, coldDir, id, projected, w.updatedAt);
    else {
      const written = insertEvents(s, id, projected, version);
      counts.events += written.events;
      counts.compressed += written.compressed;
      insertDerived(s, id, projected, w.updatedAt, ftsRowId);
    }
    s.watermark!.run(id, generationId(id), w.updatedAt);
    (w.trajectory ?? []).forEach((t, seq) => s.trajectory!.run(id, seq, t.runId, JSON.stringify(t.event), t.createdAt));
  }
  return counts;
}

export function insertArchive(s: Statements, a: SqliteArchiveSpec): void {
  const raw = Buffer.from(a.text, 'utf8');
  const blob = a.encoding === 'zstd' ? compressZstd(raw) : raw;
  const sha = createHash('sha256').update(raw).digest('hex');
  const name = a.archiveName ?? `${a.sessionId}.jsonl.${a.reason}.${a.createdAt}`;
  const values: SqliteValue[] = [
    a.sessionId,
    a.generation,
    a.sessionKey,
    a.reason,
    a.encoding,
    blob,
    sha,
    name,
    a.createdAt,
  ];
  s.archive!.run(...values);
}
