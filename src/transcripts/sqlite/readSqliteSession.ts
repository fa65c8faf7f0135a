/**
 * A logical SQLite session as one LoadedSession: each generation's rows go through the same parser as a JSONL file
 * (one row = one line, `seq` as the line number, the same problems), then the generations are joined in order with
 * their boundaries in `storage.windows`. Entries a later generation repeats verbatim (a fork copies its branch)
 * are kept once; an id reused with other content is a `duplicate_id` problem. The leaf is the last generation's.
 */
import type { SessionEntry } from '../../contract';
import { parseSessionText } from '../readSessionFile';
import { SessionParser, type LoadedSession, type SessionLoadMode, type SessionWindowRange } from '../sessionParser';
import { SessionFileError, type SessionProblem } from '../sessionProblems';
import { SqliteSessionError, type AgentSchemaInfo } from './agentSchema';
import type { AgentSessionIndex, SqliteArchive, SqliteLogicalSession, SqliteWindow } from './agentSessions';
import type { SqliteDatabase } from './sqliteDriver';
import { iterateEventRows, readColdArchiveEvents, type EventFailure, type EventText } from './transcriptRows';
import { decompressZstd } from './zstdCodec';

export interface SqliteReadContext {
  database: string;
  agentId: string;
  schema: AgentSchemaInfo;
  readStrategy: 'immutable' | 'private-copy';
}

/** What to load: a session key (all its generations), a generation id (the generations up to it), or an archive. */
export type SqliteSessionTarget = { sessionKey: string } | { sessionId: string } | { archiveName: string };

interface ParsedWindow {
  window: SqliteWindow;
  session: LoadedSession;
}

function parseWindow(
  db: SqliteDatabase,
  ctx: SqliteReadContext,
  window: SqliteWindow,
  mode: SessionLoadMode,
): ParsedWindow {
  const path = `${ctx.database}#${window.sessionId}`;
  const parser = new SessionParser(path, mode, {
    source: 'sqlite',
    fallbackId: window.sessionId,
    sessionId: window.sessionId,
  });
  const rows: Iterable<EventText | EventFailure> =
    window.storage === 'cold' && window.cold
      ? readColdArchiveEvents(db, ctx.database, window.cold)
      : iterateEventRows(db, ctx.schema, ctx.database, window.sessionId);
  let count = 0;
  for (const row of rows) {
    count += 1;
    if ('reason' in row) parser.reportExternal(row.seq, 'corrupt_row', `${row.reason} (the row cannot be read)`);
    else parser.pushLine(row.text, row.seq);
  }
  return { window, session: { ...parser.finish(), lineCount: count } };
}

function sameEntry(a: SessionEntry, b: SessionEntry): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function joinWindows(
  ctx: SqliteReadContext,
  sessionKey: string | null,
  parsed: ParsedWindow[],
  mode: SessionLoadMode,
): LoadedSession {
  const entries: SessionEntry[] = [];
  const entryLines: number[] = [];
  const problems: SessionProblem[] = [];
  const windows: SessionWindowRange[] = [];
  const indexOfId = new Map<string, number>();
  let lineCount = 0;
  for (const { window, session } of parsed) {
    const firstEntryIndex = entries.length;
    let sharedEntries = 0;
    problems.push(...session.problems);
    session.entries.forEach((entry, i) => {
      const earlier = indexOfId.get(entry.id);
      if (earlier === undefined) {
        indexOfId.set(entry.id, entries.length);
        entries.push(entry);
        entryLines.push(session.entryLines[i]!);
      } else if (sameEntry(entries[earlier]!, entry)) {
        sharedEntries += 1;
      } else {
        const problem: SessionProblem = {
          line: session.entryLines[i]!,
          code: 'duplicate_id',
          message: `reuses entry id "${entry.id}" of an earlier generation with other content; the later entry was dropped`,
          severity: 'error',
          entryId: entry.id,
          sessionId: window.sessionId,
        };
        if (mode === 'strict') throw SessionFileError.fromProblem(session.path, problem, 'sqlite');
        problems.push(problem);
      }
    });
    lineCount += session.lineCount;
    windows.push({
      sessionId: window.sessionId,
      previousSessionId: window.previousSessionId,
      reason: window.reason,
      createdAt: window.createdAt,
      header: session.header,
      sourceVersion: session.sourceVersion,
      firstEntryIndex,
      entryCount: entries.length - firstEntryIndex,
      sharedEntries,
      storage: window.storage === 'cold' ? 'cold' : 'rows',
    });
  }
  const last = parsed[parsed.length - 1]!;
  return {
    path: last.session.path,
    header: last.session.header,
    entries,
    entryLines,
    leafId: last.session.leafId,
    appendParentId: last.session.appendParentId,
    problems,
    sourceVersion: last.session.sourceVersion,
    headerSynthesized: last.session.headerSynthesized,
    lineCount,
    storage: {
      kind: 'sqlite',
      database: ctx.database,
      agentId: ctx.agentId,
      sessionKey,
      sessionId: last.window.sessionId,
      schemaVersion: ctx.schema.userVersion,
      readStrategy: ctx.readStrategy,
      windows,
    },
  };
}

function loadArchive(
  db: SqliteDatabase,
  ctx: SqliteReadContext,
  archive: SqliteArchive,
  mode: SessionLoadMode,
): LoadedSession {
  const row = db
    .prepare('SELECT archive_blob FROM session_transcript_archives WHERE session_id = ? AND generation = ?')
    .get(archive.sessionId, archive.generation);
  const blob = Buffer.from((row?.archive_blob as Uint8Array | null) ?? []);
  const where = `${ctx.database}: archive ${archive.archiveName}`;
  let text: string;
  try {
    text = (archive.encoding === 'zstd' ? decompressZstd(blob, where) : blob).toString('utf8');
  } catch (error) {
    throw new SqliteSessionError(ctx.database, 'corrupt_row', (error as Error).message, { cause: error });
  }
  const loaded = parseSessionText(text, `${ctx.database}#${archive.archiveName}`, mode);
  return {
    ...loaded,
    storage: {
      kind: 'sqlite',
      database: ctx.database,
      agentId: ctx.agentId,
      sessionKey: archive.sessionKey,
      sessionId: archive.sessionId,
      schemaVersion: ctx.schema.userVersion,
      readStrategy: ctx.readStrategy,
      windows: [],
      archive: { name: archive.archiveName, reason: archive.reason, generation: archive.generation },
    },
  };
}

function describeKeys(index: AgentSessionIndex): string {
  const keys = index.sessions.map((s) => s.sessionKey);
  return keys.length === 0
    ? 'it has no sessions'
    : `its sessions: ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}`;
}

function resolveTarget(
  ctx: SqliteReadContext,
  index: AgentSessionIndex,
  target: SqliteSessionTarget,
): { session: SqliteLogicalSession; windows: SqliteWindow[] } {
  if ('sessionKey' in target) {
    const session = index.sessions.find((s) => s.sessionKey === target.sessionKey);
    if (session) return { session, windows: session.windows };
    throw new SqliteSessionError(
      ctx.database,
      'not_found',
      `${ctx.database} has no session key ${target.sessionKey} (${describeKeys(index)})`,
    );
  }
  if ('sessionId' in target) {
    const owner =
      index.sessions.find(
        (s) => s.node?.currentSessionId === target.sessionId && s.windows.some((w) => w.sessionId === target.sessionId),
      ) ?? index.sessions.find((s) => s.windows.some((w) => w.sessionId === target.sessionId));
    if (owner) {
      const at = owner.windows.findIndex((w) => w.sessionId === target.sessionId);
      return { session: owner, windows: owner.windows.slice(0, at + 1) };
    }
  }
  const wanted =
    'sessionId' in target
      ? `session id ${target.sessionId}`
      : `archive ${(target as { archiveName: string }).archiveName}`;
  throw new SqliteSessionError(ctx.database, 'not_found', `${ctx.database} has no ${wanted} (${describeKeys(index)})`);
}

/** Loads a logical session (or a generation prefix, or an archive) from an open agent database. */
export function readSqliteSession(
  db: SqliteDatabase,
  ctx: SqliteReadContext,
  index: AgentSessionIndex,
  target: SqliteSessionTarget,
  mode: SessionLoadMode,
): LoadedSession {
  if ('archiveName' in target) {
    const archive = index.archives.find((a) => a.archiveName === target.archiveName);
    if (archive) return loadArchive(db, ctx, archive, mode);
  }
  const { session, windows } = resolveTarget(ctx, index, target);
  const present = windows.filter((w) => w.storage !== 'empty');
  if (present.length === 0) {
    throw new SqliteSessionError(
      ctx.database,
      'not_found',
      `${ctx.database}: session ${session.sessionKey} has no transcript events (OpenClaw keeps many keys without a transcript)`,
    );
  }
  const parsed = present.map((w) => parseWindow(db, ctx, w, mode));
  return joinWindows(ctx, session.node || session.windows.length ? session.sessionKey : null, parsed, mode);
}
