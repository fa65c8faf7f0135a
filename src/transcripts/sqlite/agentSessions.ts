/**
 * The sessions of one agent database, without reading their bodies: `session_nodes` (one row per logical session,
 * its current generation and links), `session_windows` (one row per transcript generation), event and message
 * counts per generation, the `seq` 0 header, cold archives, and reset/deleted archives.
 *
 * A logical session is a session key with its generations in order (`created_at`, `previous_session_id` links
 * respected), ending with the node's current generation. 2026.9.6 writes no `previous_session_id` for an idle or
 * daily rollover, so order, not links, is what ties them; a node whose current generation belongs to another key
 * (a cron key pointing at a chat's transcript) shares that generation. Windows whose key has no node are listed as
 * sessions of their own.
 */
import type { AgentSchemaInfo } from './agentSchema';
import type { SqliteDatabase, SqliteRow } from './sqliteDriver';
import type { ColdArchiveRow } from './transcriptRows';

export interface SqliteHeaderFields {
  id: string;
  timestamp: string;
  cwd: string;
  version?: number;
  parentSession?: string;
}

export interface SqliteWindow {
  sessionId: string;
  sessionKey: string;
  previousSessionId: string | null;
  /** initial, reset, rollover, fork, rewind, switch, recovery, compaction — or null (OpenClaw often leaves it) */
  reason: string | null;
  createdAt: number;
  updatedAt: number;
  /** rows including the header (for a cold generation: the archive's event count) */
  events: number;
  /** UTF-8 bytes of the events (0 for a cold generation) */
  bytes: number;
  messages: number | null;
  /** compaction entries (null when the schema has no identities table or the generation is cold) */
  compactions: number | null;
  storage: 'rows' | 'cold' | 'empty';
  header: SqliteHeaderFields | null;
  cold?: ColdArchiveRow;
  parentSessionKey: string | null;
  spawnedBy: string | null;
  model: string | null;
}

export interface SqliteNode {
  sessionKey: string;
  currentSessionId: string;
  /** the session entry (the old sessions.json value) */
  entry: Record<string, unknown> | null;
  status: string | null;
  parentSessionKey: string | null;
  spawnedBy: string | null;
  forkSource: { sessionKey: string | null; sessionId: string | null; entryId: string | null } | null;
  label: string | null;
  displayName: string | null;
  archivedAt: number | null;
  updatedAt: number;
}

export interface SqliteLogicalSession {
  sessionKey: string;
  node: SqliteNode | null;
  /** generations, oldest first; the last one is current */
  windows: SqliteWindow[];
  /** entries (rows minus headers) and messages over all generations */
  entries: number;
  messages: number | null;
  compactions: number | null;
}

export interface SqliteArchive {
  sessionId: string;
  sessionKey: string;
  generation: string;
  reason: 'reset' | 'deleted' | string;
  encoding: 'identity' | 'zstd' | string;
  archiveName: string;
  sha256: string;
  createdAt: number;
  bytes: number;
}

export interface AgentSessionIndex {
  sessions: SqliteLogicalSession[];
  archives: SqliteArchive[];
}

const str = (v: SqliteRow[string] | undefined) => (v === null || v === undefined ? null : String(v));
const num = (v: SqliteRow[string] | undefined) => (v === null || v === undefined ? null : Number(v));

/** `SELECT` list naming each wanted column, `NULL AS` the ones this schema lacks. */
function selectList(db: SqliteDatabase, table: string, wanted: readonly string[]): string {
  const have = new Set(
    db
      .prepare(`SELECT name FROM pragma_table_info('${table}')`)
      .all()
      .map((r) => String(r.name)),
  );
  return wanted.map((c) => (have.has(c) ? c : `NULL AS ${c}`)).join(', ');
}

function parseObject(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function readNodes(db: SqliteDatabase): SqliteNode[] {
  const cols = selectList(db, 'session_nodes', [
    'session_key', 'current_session_id', 'entry_json', 'status', 'parent_session_key', 'spawned_by',
    'fork_source_session_key', 'fork_source_session_id', 'fork_source_entry_id', 'label', 'display_name',
    'archived_at', 'updated_at',
  ]); // prettier-ignore
  return db
    .prepare(`SELECT ${cols} FROM session_nodes ORDER BY session_key`)
    .all()
    .map((r) => {
      const fork = r.fork_source_session_key ?? r.fork_source_session_id ?? r.fork_source_entry_id;
      return {
        sessionKey: String(r.session_key),
        currentSessionId: String(r.current_session_id),
        entry: parseObject(str(r.entry_json)),
        status: str(r.status),
        parentSessionKey: str(r.parent_session_key),
        spawnedBy: str(r.spawned_by),
        forkSource:
          fork === null || fork === undefined
            ? null
            : {
                sessionKey: str(r.fork_source_session_key),
                sessionId: str(r.fork_source_session_id),
                entryId: str(r.fork_source_entry_id),
              },
        label: str(r.label),
        displayName: str(r.display_name),
        archivedAt: num(r.archived_at),
        updatedAt: Number(r.updated_at ?? 0),
      };
    });
}

function readHeaders(db: SqliteDatabase): Map<string, SqliteHeaderFields> {
  const headers = new Map<string, SqliteHeaderFields>();
  for (const row of db.prepare('SELECT session_id, event_json FROM transcript_events WHERE seq = 0').iterate()) {
    const h = parseObject(str(row.event_json));
    if (!h || h.type !== 'session' || typeof h.id !== 'string') continue;
    headers.set(String(row.session_id), {
      id: h.id,
      timestamp: String(h.timestamp ?? ''),
      cwd: String(h.cwd ?? ''),
      ...(typeof h.version === 'number' ? { version: h.version } : {}),
      ...(typeof h.parentSession === 'string' ? { parentSession: h.parentSession } : {}),
    });
  }
  return headers;
}

interface WindowCounts {
  events: number;
  bytes: number;
  messages: number | null;
  compactions: number | null;
}

function readCounts(db: SqliteDatabase, schema: AgentSchemaInfo): Map<string, WindowCounts> {
  const counts = new Map<string, WindowCounts>();
  const bytes = schema.compressedEvents
    ? 'coalesce(event_utf8_bytes, length(CAST(event_json AS BLOB)))'
    : 'length(CAST(event_json AS BLOB))';
  const sql = `SELECT session_id, count(*) AS n, sum(${bytes}) AS bytes FROM transcript_events GROUP BY session_id`;
  for (const row of db.prepare(sql).iterate()) {
    const zero = schema.identities ? 0 : null;
    const c = { events: Number(row.n), bytes: Number(row.bytes ?? 0), messages: zero, compactions: zero };
    counts.set(String(row.session_id), c);
  }
  if (schema.identities) {
    const sql =
      "SELECT session_id, event_type, count(*) AS n FROM transcript_event_identities WHERE event_type IN ('message', 'compaction') GROUP BY session_id, event_type";
    for (const row of db.prepare(sql).iterate()) {
      const c = counts.get(String(row.session_id));
      if (c && row.event_type === 'message') c.messages = Number(row.n);
      if (c && row.event_type === 'compaction') c.compactions = Number(row.n);
    }
  }
  return counts;
}

function readColdArchives(db: SqliteDatabase, schema: AgentSchemaInfo): Map<string, ColdArchiveRow> {
  const cold = new Map<string, ColdArchiveRow>();
  if (!schema.coldArchives) return cold;
  const sql =
    'SELECT session_id, generation, archive_name, archive_sha256, event_count, archive_bytes, storage FROM session_transcript_cold_archives';
  for (const r of db.prepare(sql).iterate()) {
    cold.set(String(r.session_id), {
      sessionId: String(r.session_id),
      generation: String(r.generation),
      archiveName: String(r.archive_name),
      sha256: String(r.archive_sha256),
      eventCount: Number(r.event_count),
      archiveBytes: Number(r.archive_bytes),
      storage: r.storage === 'sqlite' ? 'sqlite' : 'file',
    });
  }
  return cold;
}

function readWindows(db: SqliteDatabase, schema: AgentSchemaInfo): SqliteWindow[] {
  const headers = readHeaders(db);
  const counts = readCounts(db, schema);
  const cold = readColdArchives(db, schema);
  const cols = selectList(db, 'session_windows', [
    'session_id', 'session_key', 'previous_session_id', 'reason', 'created_at', 'updated_at', 'parent_session_key',
    'spawned_by', 'model',
  ]); // prettier-ignore
  return db
    .prepare(`SELECT ${cols} FROM session_windows ORDER BY created_at, session_id`)
    .all()
    .map((r) => {
      const sessionId = String(r.session_id);
      const count = counts.get(sessionId);
      const coldRow = cold.get(sessionId);
      const storage = count ? 'rows' : coldRow ? 'cold' : 'empty';
      return {
        sessionId,
        sessionKey: String(r.session_key),
        previousSessionId: str(r.previous_session_id),
        reason: str(r.reason),
        createdAt: Number(r.created_at ?? 0),
        updatedAt: Number(r.updated_at ?? 0),
        events: count?.events ?? coldRow?.eventCount ?? 0,
        bytes: count?.bytes ?? 0,
        messages: count ? count.messages : null,
        compactions: count ? count.compactions : null,
        storage,
        header: headers.get(sessionId) ?? null,
        ...(coldRow ? { cold: coldRow } : {}),
        parentSessionKey: str(r.parent_session_key),
        spawnedBy: str(r.spawned_by),
        model: str(r.model),
      } satisfies SqliteWindow;
    });
}

function readArchives(db: SqliteDatabase, schema: AgentSchemaInfo): SqliteArchive[] {
  if (!schema.archives) return [];
  const sql =
    'SELECT session_id, generation, session_key, reason, encoding, archive_name, archive_sha256, created_at, length(archive_blob) AS bytes FROM session_transcript_archives ORDER BY created_at, archive_name';
  return db
    .prepare(sql)
    .all()
    .map((r) => ({
      sessionId: String(r.session_id),
      sessionKey: String(r.session_key),
      generation: String(r.generation),
      reason: String(r.reason),
      encoding: String(r.encoding),
      archiveName: String(r.archive_name),
      sha256: String(r.archive_sha256),
      createdAt: Number(r.created_at),
      bytes: Number(r.bytes),
    }));
}

/** Orders a key's generations: by creation, a window after the one it names as previous, the current one last. */
export function orderWindows(windows: SqliteWindow[], currentSessionId: string | null): SqliteWindow[] {
  const ordered = [...windows].sort((a, b) => a.createdAt - b.createdAt || a.sessionId.localeCompare(b.sessionId));
  // Move a window after the one it names as previous; at most n moves each (a link cycle stops there).
  let moves = ordered.length * ordered.length;
  for (let i = 0; i < ordered.length && moves > 0; i++) {
    const previous = ordered[i]!.previousSessionId;
    const at = previous ? ordered.findIndex((w) => w.sessionId === previous) : -1;
    if (at <= i) continue;
    const [moved] = ordered.splice(i, 1);
    ordered.splice(at, 0, moved!);
    i--;
    moves--;
  }
  const current = ordered.findIndex((w) => w.sessionId === currentSessionId);
  if (current >= 0 && current !== ordered.length - 1) ordered.push(...ordered.splice(current, 1));
  return ordered;
}

function logicalSession(sessionKey: string, node: SqliteNode | null, windows: SqliteWindow[]): SqliteLogicalSession {
  const ordered = orderWindows(windows, node?.currentSessionId ?? null);
  let entries = 0;
  let messages: number | null = 0;
  let compactions: number | null = 0;
  for (const w of ordered) {
    entries += Math.max(0, w.events - (w.header || w.storage === 'cold' ? 1 : 0));
    messages = messages === null || w.messages === null ? null : messages + w.messages;
    compactions = compactions === null || w.compactions === null ? null : compactions + w.compactions;
  }
  return { sessionKey, node, windows: ordered, entries, messages, compactions };
}

/** Lists the logical sessions and archives of an agent database (schema already checked readable). */
export function readAgentSessionIndex(db: SqliteDatabase, schema: AgentSchemaInfo): AgentSessionIndex {
  const windows = readWindows(db, schema);
  const byId = new Map(windows.map((w) => [w.sessionId, w]));
  const byKey = new Map<string, SqliteWindow[]>();
  for (const w of windows) byKey.set(w.sessionKey, [...(byKey.get(w.sessionKey) ?? []), w]);
  const sessions: SqliteLogicalSession[] = [];
  const nodes = schema.tables.has('session_nodes') ? readNodes(db) : [];
  for (const node of nodes) {
    const own = byKey.get(node.sessionKey) ?? [];
    const current = byId.get(node.currentSessionId);
    const shared = current && current.sessionKey !== node.sessionKey ? [current] : [];
    sessions.push(logicalSession(node.sessionKey, node, [...own, ...shared]));
    byKey.delete(node.sessionKey);
  }
  for (const [key, own] of byKey) sessions.push(logicalSession(key, null, own));
  return { sessions, archives: readArchives(db, schema) };
}
