/**
 * Problems found while loading a transcript. Every problem names the physical line (1-based; 0 = the file as
 * a whole) and has a stable `code`:
 *
 * | code | severity | meaning |
 * |---|---|---|
 * | `missing_header` | error | the file is empty or has only blank lines |
 * | `invalid_header` | error | the first non-blank line is not a valid `{"type":"session",...}` header |
 * | `unsupported_version` | error | the header's `version` is not 1, 2, 3 or 4 |
 * | `invalid_entry` | error | a line is not JSON, or lacks a valid type / id / parentId / timestamp / leaf target / appendMode / body |
 * | `misplaced_header` | error | a `type:"session"` line after the first non-blank line |
 * | `duplicate_id` | error | an entry reuses an id (the later line is dropped) |
 * | `orphan_parent` | error | `parentId` names no entry in the file |
 * | `parent_cycle` | error | following `parentId` loops back to the entry |
 * | `dangling_leaf` | error | a `leaf` entry's `targetId` / `appendParentId` names no earlier entry (the entry is dropped) |
 * | `unknown_entry_type` | warning | an entry type OpenClaw does not define (kept; it never enters context) |
 * | `bom` | warning | a UTF-8 byte-order mark before the header (stripped) |
 * | `crlf` | warning | CRLF line endings (the trailing `\r` of each line is ignored; reported once) |
 * | `orphan_tool_result` | warning | a `toolResult` whose call no earlier assistant message made (kept; OpenClaw's repair drops it from context) |
 * | `corrupt_row` | error | a SQLite row that cannot be decoded (a bad zstd frame, a size that does not match; the row is dropped) |
 *
 * For a SQLite session `line` is the event's `seq` (0 = the generation's header) and `sessionId` names the
 * generation (session window) the row belongs to.
 */
export type SessionProblemCode =
  | 'missing_header'
  | 'invalid_header'
  | 'unsupported_version'
  | 'invalid_entry'
  | 'misplaced_header'
  | 'duplicate_id'
  | 'orphan_parent'
  | 'parent_cycle'
  | 'dangling_leaf'
  | 'unknown_entry_type'
  | 'bom'
  | 'crlf'
  | 'orphan_tool_result'
  | 'corrupt_row';

export interface SessionProblem {
  /** physical line number, 1-based (blank lines count); 0 for the file as a whole */
  line: number;
  code: SessionProblemCode;
  message: string;
  /** errors fail strict loading; warnings never do */
  severity: 'error' | 'warning';
  /** the entry concerned, when the line parsed far enough to have one */
  entryId?: string;
  /** SQLite sessions: the generation (session window) of the row */
  sessionId?: string;
}

/** Where a transcript came from, for error wording: a JSONL file (lines) or SQLite rows (seq). */
export type SessionSourceKind = 'jsonl' | 'sqlite';

/** Thrown by strict loading (first error) and, in both modes, when the file cannot be read at all. */
/** `read_error`: the file cannot be read; `unsupported_encoding`: it is UTF-16 text, not UTF-8 (both modes throw). */
export type SessionFileErrorCode = SessionProblemCode | 'read_error' | 'unsupported_encoding';

export class SessionFileError extends Error {
  readonly path: string;
  readonly code: SessionFileErrorCode;
  readonly line: number;
  readonly problem?: SessionProblem;
  readonly source: SessionSourceKind;

  constructor(
    path: string,
    code: SessionFileErrorCode,
    line: number,
    reason: string,
    problem?: SessionProblem,
    source: SessionSourceKind = 'jsonl',
  ) {
    super(formatSessionFileError(path, line, reason, source));
    this.name = 'SessionFileError';
    this.path = path;
    this.code = code;
    this.line = line;
    this.problem = problem;
    this.source = source;
  }

  static fromProblem(path: string, problem: SessionProblem, source: SessionSourceKind = 'jsonl'): SessionFileError {
    return new SessionFileError(path, problem.code, problem.line, problem.message, problem, source);
  }
}

/**
 * `Invalid JSONL session file <path>: line <n>: <reason>` (without the line part for file-level problems), or for
 * SQLite rows `Invalid SQLite session <database>#<session id>: seq <n>: <reason>`.
 */
export function formatSessionFileError(
  path: string,
  line: number,
  reason: string,
  source: SessionSourceKind = 'jsonl',
): string {
  if (source === 'sqlite') return `Invalid SQLite session ${path}: seq ${line}: ${reason}`;
  return line > 0
    ? `Invalid JSONL session file ${path}: line ${line}: ${reason}`
    : `Invalid JSONL session file ${path}: ${reason}`;
}

/** Shorten text quoted in a message (a 5 MB bad line must not become a 5 MB error). */
export function excerpt(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}
