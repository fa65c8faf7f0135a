/**
 * A session transcript file (OpenClaw JSONL: one event per line, the `session` header first) as the events
 * OpenClaw's transcript store holds for a session: every non-blank line parsed, in file order, so that event `i`
 * is the row OpenClaw stores at `seq` i (the header is seq 0). Each event keeps its stored size (the line's UTF-8
 * bytes plus the newline, what OpenClaw counts as a row's serialized bytes) and a hash of its line, so cursors can
 * tell an appended file from a replaced one.
 *
 * Files are cached per path: a file that only grew is read from where the last read stopped (how lane transcripts
 * change: appends), anything else is read again in full.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export interface TranscriptEventRecord {
  event: unknown;
  /** UTF-8 bytes of the stored line plus one (the newline) */
  bytes: number;
  /** sha-256 of the line, hex, first 16 characters */
  lineHash: string;
}

export interface TranscriptFileSnapshot {
  file: string;
  events: TranscriptEventRecord[];
  /** the header line's hash: stays the same while the file is appended to */
  generation: string;
}

/** A line of a transcript file that is not JSON: names the file and the line. */
export class TranscriptFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
    this.name = 'TranscriptFileError';
  }
}

interface CachedFile {
  size: number;
  mtimeMs: number;
  ino: number;
  /** bytes of the file up to and including the last newline read */
  consumed: number;
  /** 1-based number of the last line consumed */
  lines: number;
  /** the last bytes before `consumed`, to check an append did not rewrite what came before */
  tail: Buffer;
  events: TranscriptEventRecord[];
}

const TAIL_CHECK_BYTES = 256;
const cache = new Map<string, CachedFile>();

function hashLine(line: string): string {
  return createHash('sha256').update(line).digest('hex').slice(0, 16);
}

function readRange(fd: number, start: number, end: number): Buffer {
  const buffer = Buffer.alloc(end - start);
  let at = 0;
  while (at < buffer.length) {
    const n = readSync(fd, buffer, at, buffer.length - at, start + at);
    if (n === 0) break;
    at += n;
  }
  return at === buffer.length ? buffer : buffer.subarray(0, at);
}

/** Parses the complete lines of `chunk` (which starts at a line start); returns how many bytes they span. */
function parseLines(file: string, chunk: Buffer, firstLine: number, out: TranscriptEventRecord[]): [number, number] {
  let start = 0;
  let line = firstLine;
  for (;;) {
    const newline = chunk.indexOf(0x0a, start);
    if (newline < 0) break;
    line += 1;
    const raw = chunk.toString('utf8', start, newline);
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() !== '') {
      let event: unknown;
      try {
        event = JSON.parse(line === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      } catch (error) {
        throw new TranscriptFileError(file, line, `not a JSON line (${(error as Error).message})`);
      }
      out.push({ event, bytes: Buffer.byteLength(text, 'utf8') + 1, lineHash: hashLine(text) });
    }
    start = newline + 1;
  }
  return [start, line];
}

/** A final line without its newline (a file not written by an appender) is an event too. */
function parseLastLine(file: string, rest: Buffer, line: number, out: TranscriptEventRecord[]): void {
  if (rest.length === 0) return;
  parseLines(file, Buffer.concat([rest, Buffer.from('\n')]), line, out);
}

function readWhole(file: string, fd: number, size: number): CachedFile {
  const stat = fstatSync(fd);
  const chunk = readRange(fd, 0, size);
  const events: TranscriptEventRecord[] = [];
  const [consumed, lines] = parseLines(file, chunk, 0, events);
  return {
    size,
    mtimeMs: stat.mtimeMs,
    ino: stat.ino,
    consumed,
    lines,
    tail: chunk.subarray(Math.max(0, consumed - TAIL_CHECK_BYTES), consumed),
    events,
  };
}

function extend(file: string, fd: number, cached: CachedFile, size: number): CachedFile | undefined {
  const before = readRange(fd, cached.consumed - cached.tail.length, cached.consumed);
  if (!before.equals(cached.tail)) return undefined;
  const chunk = readRange(fd, cached.consumed, size);
  const events = cached.events.slice();
  const [used, lines] = parseLines(file, chunk, cached.lines, events);
  const consumed = cached.consumed + used;
  const stat = fstatSync(fd);
  return {
    size,
    mtimeMs: stat.mtimeMs,
    ino: stat.ino,
    consumed,
    lines,
    tail: readRange(fd, Math.max(0, consumed - TAIL_CHECK_BYTES), consumed),
    events,
  };
}

function completeEvents(file: string, fd: number, entry: CachedFile): TranscriptEventRecord[] {
  if (entry.consumed === entry.size) return entry.events;
  const events = entry.events.slice();
  parseLastLine(file, readRange(fd, entry.consumed, entry.size), entry.lines, events);
  return events;
}

/**
 * The events of a transcript file, or undefined when there is no such file (OpenClaw reads a session it has no
 * rows for as empty). Throws a TranscriptFileError for a line that is not JSON.
 */
export function readTranscriptFile(file: string): TranscriptFileSnapshot | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      return undefined;
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const cached = cache.get(file);
    let entry: CachedFile | undefined;
    if (cached && cached.ino === stat.ino && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs)
      entry = cached;
    else if (cached && cached.ino === stat.ino && stat.size > cached.consumed && cached.consumed > 0)
      entry = extend(file, fd, cached, stat.size);
    entry ??= readWhole(file, fd, stat.size);
    cache.set(file, entry);
    const events = completeEvents(file, fd, entry);
    return { file, events, generation: events[0]?.lineHash ?? '' };
  } finally {
    closeSync(fd);
  }
}
