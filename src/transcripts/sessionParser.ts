/**
 * Turns transcript lines into a loaded session, one line at a time (so the caller can stream the file).
 * Strict mode throws a SessionFileError at the first error; tolerant mode drops bad lines, records every
 * problem, and always returns a session (with a synthesized header when the file has none).
 */
import type { SessionEntry, SessionHeader } from '../contract';
import { orphanToolResultProblems } from './toolPairing';
import { SessionMigrator } from './migrateSession';
import {
  SessionFileError,
  type SessionProblem,
  type SessionProblemCode,
  type SessionSourceKind,
} from './sessionProblems';
import { SessionTreeIndex } from './sessionTree';
import { checkEntry, checkHeader, KNOWN_ENTRY_TYPES, parseJsonLine } from './validateSessionLine';

export type SessionLoadMode = 'strict' | 'tolerant';

export interface LoadedSession {
  /** the transcript file; for a SQLite session `<database>#<current session id>` */
  path: string;
  header: SessionHeader;
  /** entries in file order (all branches), migrated to version 3 (version 4 entries are already in that form) */
  entries: SessionEntry[];
  /** physical line number of each entry (`entryLines[i]` for `entries[i]`); for a SQLite session its `seq` */
  entryLines: number[];
  /** the visible leaf after the last entry (moved by `leaf` entries) */
  leafId: string | null;
  /** raw parent the next appended entry would get */
  appendParentId: string | null;
  problems: SessionProblem[];
  /** the file's version before migration (1, 2, 3 or 4) */
  sourceVersion: number;
  /** true when tolerant loading found no valid header and made one up */
  headerSynthesized: boolean;
  /** physical lines read (including blank ones); for a SQLite session the rows read */
  lineCount: number;
  /** where the session was read from (set by `readSessionFile` and the SQLite reader) */
  storage?: SessionStorage;
}

/** Where a loaded session came from. */
export type SessionStorage = { kind: 'jsonl'; file: string } | SqliteSessionStorage;

/** A session read from an OpenClaw agent database, with its generations (windows) marked. */
export interface SqliteSessionStorage {
  kind: 'sqlite';
  database: string;
  agentId: string;
  /** the logical session's key (null for a reset/deleted archive without a live node) */
  sessionKey: string | null;
  /** the current (last loaded) generation */
  sessionId: string;
  schemaVersion: number;
  /** how the database was read without touching it */
  readStrategy: 'immutable' | 'private-copy';
  windows: SessionWindowRange[];
  /** set when the session is a reset/deleted archive (`session_transcript_archives`) */
  archive?: { name: string; reason: string; generation: string };
}

/** One generation of a logical session: its entries are `entries[firstEntryIndex .. firstEntryIndex + entryCount)`. */
export interface SessionWindowRange {
  sessionId: string;
  previousSessionId: string | null;
  reason: string | null;
  createdAt: number;
  header: SessionHeader;
  sourceVersion: number;
  firstEntryIndex: number;
  entryCount: number;
  /** entries this generation repeats verbatim from an earlier one (a fork copy); kept once, at their first place */
  sharedEntries: number;
  storage: 'rows' | 'cold';
}

export interface SessionParserOptions {
  /** wording of errors and problems (default `jsonl`: lines of a file; `sqlite`: seq of rows) */
  source?: SessionSourceKind;
  /** the id of a made-up header (default: the file name without `.jsonl`) */
  fallbackId?: string;
  /** tag every problem with this generation id (SQLite) */
  sessionId?: string;
}

export class SessionParser {
  private readonly path: string;
  private readonly strict: boolean;
  private header: SessionHeader | undefined;
  private headerSynthesized = false;
  private migrator: SessionMigrator | undefined;
  private readonly entries: SessionEntry[] = [];
  private readonly entryLines: number[] = [];
  private readonly lineOfId = new Map<string, number>();
  private readonly tree = new SessionTreeIndex();
  private readonly problems: SessionProblem[] = [];
  private recordIndex = 0;
  private lastLine = 0;
  private sawCrlf = false;
  private readonly options: SessionParserOptions;

  constructor(path: string, mode: SessionLoadMode, options: SessionParserOptions = {}) {
    this.path = path;
    this.strict = mode === 'strict';
    this.options = options;
  }

  /** Feeds one physical line (without its "\n"). `lineNumber` is 1-based. */
  pushLine(raw: string, lineNumber: number): void {
    this.lastLine = lineNumber;
    let text = raw;
    if (lineNumber === 1 && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      this.report(1, 'bom', 'the file starts with a UTF-8 byte-order mark; it was ignored', 'warning');
    }
    if (text.endsWith('\r')) {
      text = text.slice(0, -1);
      if (!this.sawCrlf) {
        this.sawCrlf = true;
        this.report(
          lineNumber,
          'crlf',
          'the file has CRLF line endings; trailing \\r characters were ignored',
          'warning',
        );
      }
    }
    if (text.trim() === '') return;
    if (this.header === undefined) {
      this.readHeaderLine(text, lineNumber);
      return;
    }
    this.readEntryLine(text, lineNumber);
  }

  private readHeaderLine(text: string, lineNumber: number): void {
    const json = parseJsonLine(text);
    const check = json.ok
      ? checkHeader(json.value)
      : ({
          ok: false,
          code: 'invalid_header',
          reason: `first line is not a valid session header (not valid JSON: ${json.reason})`,
        } as const);
    if (check.ok) {
      this.header = check.value as SessionHeader;
      this.migrator = new SessionMigrator(check.value);
      this.migrator.migrateHeader(check.value);
      this.recordIndex = 1;
      return;
    }
    this.report(lineNumber, check.code, check.reason);
    // Tolerant: carry on with a made-up header. A wrong version still reads the header's fields; anything
    // else that looks like an entry is read as the first entry.
    const value = json.ok ? (json.value as Record<string, unknown>) : undefined;
    this.header = this.synthesizeHeader(value);
    this.migrator = new SessionMigrator(this.header);
    this.recordIndex = 1;
    if (value && typeof value === 'object' && value.type !== 'session') this.readEntryLine(text, lineNumber);
  }

  private synthesizeHeader(value: Record<string, unknown> | undefined): SessionHeader {
    this.headerSynthesized = true;
    const base = this.options.fallbackId ?? (this.path.split(/[\\/]/).pop() ?? 'session').replace(/\.jsonl.*$/, '');
    const fromFile = value && value.type === 'session' ? value : undefined;
    return {
      type: 'session',
      version: 3,
      id: typeof fromFile?.id === 'string' && fromFile.id ? fromFile.id : base,
      timestamp: typeof fromFile?.timestamp === 'string' ? fromFile.timestamp : new Date(0).toISOString(),
      cwd: typeof fromFile?.cwd === 'string' ? fromFile.cwd : '',
    };
  }

  private readEntryLine(text: string, lineNumber: number): void {
    const json = parseJsonLine(text);
    if (!json.ok) {
      this.report(lineNumber, 'invalid_entry', `is not valid JSON (${json.reason})`);
      return;
    }
    const recordIndex = this.recordIndex++;
    const migrator = this.migrator!;
    const check = checkEntry(json.value, migrator.fromVersion >= 2);
    if (!check.ok) {
      this.report(lineNumber, check.code, check.reason, 'error', idOf(json.value));
      return;
    }
    migrator.migrateEntry(check.value, recordIndex);
    const entry = check.value as unknown as SessionEntry;

    const firstLine = this.lineOfId.get(entry.id);
    if (firstLine !== undefined) {
      this.report(
        lineNumber,
        'duplicate_id',
        `reuses entry id "${entry.id}" first used on line ${firstLine}; the later entry was dropped`,
        'error',
        entry.id,
      );
      return;
    }
    if (entry.type === 'leaf') {
      if (entry.targetId !== null && !this.tree.byId.has(entry.targetId)) {
        this.report(
          lineNumber,
          'dangling_leaf',
          `is a leaf entry whose targetId "${entry.targetId}" names no earlier entry; it was ignored`,
          'error',
          entry.id,
        );
        return;
      }
      const appendParent = entry.appendParentId;
      if (typeof appendParent === 'string' && !this.tree.byId.has(appendParent)) {
        this.report(
          lineNumber,
          'dangling_leaf',
          `is a leaf entry whose appendParentId "${appendParent}" names no earlier entry; it was ignored`,
          'error',
          entry.id,
        );
        return;
      }
    }
    if (!KNOWN_ENTRY_TYPES.has(entry.type)) {
      this.report(
        lineNumber,
        'unknown_entry_type',
        `has unknown entry type "${entry.type}"; it is kept but never enters context`,
        'warning',
        entry.id,
      );
    }
    this.entries.push(entry);
    this.entryLines.push(lineNumber);
    this.lineOfId.set(entry.id, lineNumber);
    this.tree.add(entry);
  }

  private report(
    line: number,
    code: SessionProblemCode,
    message: string,
    severity: 'error' | 'warning' = 'error',
    entryId?: string,
  ): void {
    const problem: SessionProblem = { line, code, message, severity };
    if (entryId !== undefined) problem.entryId = entryId;
    if (this.options.sessionId !== undefined) problem.sessionId = this.options.sessionId;
    if (this.strict && severity === 'error')
      throw SessionFileError.fromProblem(this.path, problem, this.options.source ?? 'jsonl');
    this.problems.push(problem);
  }

  /** Reports a problem found outside the parser (e.g. an undecodable SQLite row); throws in strict mode. */
  reportExternal(line: number, code: SessionProblemCode, message: string): void {
    this.report(line, code, message);
  }

  /** Ends the file: checks the tree and returns the session. */
  finish(): LoadedSession {
    if (this.header === undefined) {
      const sqlite = this.options.source === 'sqlite';
      this.report(
        0,
        'missing_header',
        sqlite
          ? 'missing session header (the generation has no seq 0 header row)'
          : this.lastLine === 0
            ? 'missing session header (the file is empty)'
            : 'missing session header (the file has only blank lines)',
      );
      this.header = this.synthesizeHeader(undefined);
      this.migrator = new SessionMigrator(this.header);
    }
    this.checkTree();
    this.problems.push(...orphanToolResultProblems(this.entries, this.entryLines));
    return {
      path: this.path,
      header: this.header,
      entries: this.entries,
      entryLines: this.entryLines,
      leafId: this.tree.leafId,
      appendParentId: this.tree.appendParentId,
      problems: this.problems,
      sourceVersion: this.migrator!.fromVersion,
      headerSynthesized: this.headerSynthesized,
      lineCount: this.lastLine,
    };
  }

  /** Orphan parents and parent cycles, reported in line order. O(n). */
  private checkTree(): void {
    const found: SessionProblem[] = [];
    const byId = this.tree.byId;
    // 0 = unvisited, 1 = on the current walk, 2 = done
    const state = new Map<string, 1 | 2>();
    for (let i = 0; i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      if (entry.parentId !== null && !byId.has(entry.parentId)) {
        found.push({
          line: this.entryLines[i]!,
          code: 'orphan_parent',
          message: `has parentId "${entry.parentId}", which names no entry in the file (the branch is cut there)`,
          severity: 'error',
          entryId: entry.id,
        });
      }
      if (state.has(entry.id)) continue;
      const walk: string[] = [];
      let current: SessionEntry | undefined = entry;
      while (current && !state.has(current.id)) {
        state.set(current.id, 1);
        walk.push(current.id);
        current = current.parentId !== null ? byId.get(current.parentId) : undefined;
      }
      if (current && state.get(current.id) === 1) {
        const cycle = walk.slice(walk.indexOf(current.id));
        found.push({
          line: this.lineOfId.get(current.id)!,
          code: 'parent_cycle',
          message: `entry "${current.id}" is its own ancestor (parent cycle: ${cycle.join(' -> ')} -> ${current.id})`,
          severity: 'error',
          entryId: current.id,
        });
      }
      for (const id of walk) state.set(id, 2);
    }
    found.sort((a, b) => a.line - b.line);
    for (const p of found) this.report(p.line, p.code, p.message, p.severity, p.entryId);
  }
}

function idOf(value: unknown): string | undefined {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof value === 'object' && typeof id === 'string' && id ? id : undefined;
}
