// Reads an OpenClaw session transcript (JSONL v3) and returns the messages on its active branch — incrementally.
//
// Entries form a tree through parentId; the active branch runs from the leaf (the last appended entry, unless a
// `leaf` entry moved it) back to the root. Files without ids (v1, or hand-written fixtures) are read in file
// order. Lines that are not JSON are skipped and counted, so one torn write does not lose the session.
//
// OpenClaw calls bootstrap() at the start of every run, so re-reading the whole file each time would make a session
// quadratic. A TranscriptCursor remembers how far the file was read and where the branch ended; the next read
// starts at that byte offset and returns only the messages the appended entries add to the active branch. When
// that is not a plain extension — the file was replaced or shrank (a compaction successor, a rotation), the
// branch moved to an older entry, or ids stopped being present — the whole file is read again, which gives the
// same answer a full read always gave.

import { createHash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';

import type { AgentMessage } from './types.ts';

/** Where an earlier read stopped. Plain JSON: persisted with the session state. */
export interface TranscriptCursor {
  file: string;
  dev: number;
  ino: number;
  /** Bytes consumed: everything before this offset is whole lines that were read. */
  offset: number;
  /** sha256 (hex, 16 chars) of the first `min(offset, HEAD_BYTES)` bytes, to recognise a rewritten file. */
  headHash: string;
  /** Leaf of the active branch after the read; null when there is none. */
  leafId: string | null;
  /** Entries (non-header lines) read so far. */
  entryCount: number;
  /** False once an entry without an id was seen: the file is then read in file order. */
  everyEntryHasId: boolean;
}

export interface TranscriptRead {
  /** Messages the read adds to the active branch, oldest first (all of them on a full read). */
  messages: AgentMessage[];
  skippedLines: number;
  cursor: TranscriptCursor;
  /** "full" when the whole file was read; "appended" when only bytes after the previous cursor were. */
  mode: 'full' | 'appended';
  /** Bytes read from the file for this call (excluding the head fingerprint). */
  bytesRead: number;
  /** Why an earlier cursor could not be continued (for logs). */
  restartReason?: string;
}

interface TranscriptEntry {
  id?: string;
  parentId: string | null;
  message?: AgentMessage;
}

const HEAD_BYTES = 4096;
const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

function isMessage(value: unknown): value is AgentMessage {
  return !!value && typeof value === 'object' && typeof (value as { role?: unknown }).role === 'string';
}

export function transcriptExists(file: string): boolean {
  return existsSync(file);
}

// The reads are synchronous: bootstrap runs every turn and usually reads a few KB appended since the last call,
// where the thread-pool round trips of fs/promises (open, stat, read, close) cost more CPU than the reading.
function readRange(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const bytesRead = readSync(fd, buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}

function headHash(fd: number, offset: number): string {
  const head = readRange(fd, 0, Math.min(offset, HEAD_BYTES));
  return createHash('sha256').update(head).digest('hex').slice(0, 16);
}

/** Why `cursor` cannot be continued on this file, or undefined when it can. */
function cursorMismatch(
  cursor: TranscriptCursor | undefined,
  file: string,
  fd: number,
  stat: { dev: number; ino: number; size: number },
): string | undefined {
  if (!cursor) return 'first read';
  if (cursor.file !== file) return `the session file changed from ${cursor.file}`;
  if (cursor.dev !== stat.dev || cursor.ino !== stat.ino) return 'the file was replaced';
  if (stat.size < cursor.offset) return `the file shrank from ${cursor.offset} to ${stat.size} bytes`;
  if (headHash(fd, cursor.offset) !== cursor.headHash) return 'the start of the file was rewritten';
  return undefined;
}

/** Line-by-line parse state: the entries of one read plus the branch bookkeeping carried in the cursor. */
class EntryCollector {
  readonly entries: TranscriptEntry[] = [];
  readonly byId = new Map<string, TranscriptEntry>();
  skippedLines = 0;
  leafId: string | null;
  everyEntryHasId: boolean;
  entryCount: number;

  constructor(start: { leafId: string | null; everyEntryHasId: boolean; entryCount: number }) {
    this.leafId = start.leafId;
    this.everyEntryHasId = start.everyEntryHasId;
    this.entryCount = start.entryCount;
  }

  /** Returns false for a line that is not JSON. */
  add(line: string): boolean {
    if (line.trim() === '') return true;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return false;
    }
    if (parsed.type === 'session') return true;
    const id = typeof parsed.id === 'string' && parsed.id !== '' ? parsed.id : undefined;
    if (id === undefined) this.everyEntryHasId = false;
    if (parsed.type === 'leaf') {
      this.leafId = typeof parsed.targetId === 'string' ? parsed.targetId : null;
      return true;
    }
    const entry: TranscriptEntry = {
      id,
      parentId: typeof parsed.parentId === 'string' ? parsed.parentId : null,
      message: parsed.type === 'message' && isMessage(parsed.message) ? parsed.message : undefined,
    };
    this.entries.push(entry);
    this.entryCount++;
    if (id !== undefined) this.byId.set(id, entry);
    this.leafId = id ?? null; // appending an entry makes it the leaf
    return true;
  }
}

/**
 * Reads whole lines from `offset` to the end of the file in chunks. A last line without its newline is parsed if
 * it is complete JSON (and consumed); a torn one is counted as skipped and left for the next read.
 * Returns the new offset.
 */
function readLinesFrom(
  fd: number,
  offset: number,
  size: number,
  collector: EntryCollector,
): { offset: number; bytesRead: number } {
  let position = offset;
  let consumed = offset;
  let carry: Buffer = Buffer.alloc(0);
  while (position < size) {
    const chunk = readRange(fd, position, Math.min(CHUNK_BYTES, size - position));
    if (chunk.length === 0) break;
    position += chunk.length;
    const buffer: Buffer = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const lastNewline = buffer.lastIndexOf(NEWLINE);
    if (lastNewline < 0) {
      carry = buffer;
      continue;
    }
    // 0x0a never occurs inside a multi-byte UTF-8 sequence, so whole lines decode on their own.
    for (const line of buffer.toString('utf8', 0, lastNewline).split(/\r\n|\r|\n/)) {
      if (!collector.add(line)) collector.skippedLines++;
    }
    consumed += lastNewline + 1;
    carry = buffer.subarray(lastNewline + 1);
  }
  if (carry.length > 0) {
    if (collector.add(carry.toString('utf8'))) consumed += carry.length;
    else collector.skippedLines++;
  }
  return { offset: consumed, bytesRead: position - offset };
}

function branchMessages(
  leafId: string | null,
  byId: Map<string, TranscriptEntry>,
): { messages: AgentMessage[]; exit: string | null } {
  const branch: AgentMessage[] = [];
  const visited = new Set<string>();
  let cursor = leafId !== null ? byId.get(leafId) : undefined;
  // `exit` is where the walk leaves `byId`: null at the root, else an id this map does not hold.
  let exit: string | null = cursor ? null : leafId;
  while (cursor && cursor.id !== undefined && !visited.has(cursor.id)) {
    visited.add(cursor.id);
    if (cursor.message) branch.push(cursor.message);
    const parent = cursor.parentId;
    cursor = parent !== null ? byId.get(parent) : undefined;
    if (!cursor) exit = parent;
  }
  return { messages: branch.reverse(), exit };
}

function fileOrderMessages(entries: TranscriptEntry[]): AgentMessage[] {
  return entries.flatMap((entry) => (entry.message ? [entry.message] : []));
}

const EMPTY_START = { leafId: null, everyEntryHasId: true, entryCount: 0 };

/**
 * The messages on the active branch that `cursor` has not returned yet, and the cursor for the next call.
 * Without a usable cursor it reads the whole file (every branch message). Returning an already imported message
 * again is harmless (the store dedupes by content hash); missing one is not, so anything unusual reads it all.
 */
export async function readTranscriptMessages(file: string, previous?: TranscriptCursor): Promise<TranscriptRead> {
  const fd = openSync(file, 'r');
  try {
    const stat = fstatSync(fd);
    const mismatch = cursorMismatch(previous, file, fd, stat);
    if (previous && mismatch === undefined) {
      const collector = new EntryCollector(previous);
      const read = readLinesFrom(fd, previous.offset, stat.size, collector);
      const appended = appendedBranch(previous, collector);
      if (appended.messages) {
        return {
          messages: appended.messages,
          skippedLines: collector.skippedLines,
          cursor: cursorAfter(file, fd, stat, read.offset, collector, previous.headHash, previous.offset),
          mode: 'appended',
          bytesRead: read.bytesRead,
        };
      }
      return fullRead(file, fd, stat, appended.reason);
    }
    return fullRead(file, fd, stat, previous ? mismatch : undefined);
  } finally {
    closeSync(fd);
  }
}

/** Messages the appended entries add to the branch, or why they are not a plain extension of it. */
function appendedBranch(
  previous: TranscriptCursor,
  collector: EntryCollector,
): { messages: AgentMessage[]; reason?: undefined } | { messages?: undefined; reason: string } {
  if (!collector.everyEntryHasId) {
    // Id-less files are read in file order; one id-less entry turns a file with ids into one.
    if (previous.everyEntryHasId && previous.entryCount > 0) return { reason: 'an entry without an id was appended' };
    return { messages: fileOrderMessages(collector.entries) };
  }
  if (collector.leafId === previous.leafId && collector.entries.length === 0) return { messages: [] };
  const { messages, exit } = branchMessages(collector.leafId, collector.byId);
  // The new part of the branch must hang off the previous leaf (or start at the root): then every older
  // message on it was returned before.
  if (exit === previous.leafId || exit === null) return { messages };
  return { reason: `the active branch moved to entry ${exit}` };
}

function fullRead(
  file: string,
  fd: number,
  stat: { dev: number; ino: number; size: number },
  restartReason: string | undefined,
): TranscriptRead {
  const collector = new EntryCollector(EMPTY_START);
  const read = readLinesFrom(fd, 0, stat.size, collector);
  const messages =
    !collector.everyEntryHasId || collector.entries.length === 0
      ? fileOrderMessages(collector.entries)
      : branchMessages(collector.leafId, collector.byId).messages;
  return {
    messages,
    skippedLines: collector.skippedLines,
    cursor: cursorAfter(file, fd, stat, read.offset, collector, undefined, 0),
    mode: 'full',
    bytesRead: read.bytesRead,
    ...(restartReason !== undefined ? { restartReason } : {}),
  };
}

function cursorAfter(
  file: string,
  fd: number,
  stat: { dev: number; ino: number },
  offset: number,
  collector: EntryCollector,
  previousHead: string | undefined,
  previousOffset: number,
): TranscriptCursor {
  // The fingerprint covers the first HEAD_BYTES; once the file is that long it no longer changes.
  const head = previousHead !== undefined && previousOffset >= HEAD_BYTES ? previousHead : headHash(fd, offset);
  return {
    file,
    dev: stat.dev,
    ino: stat.ino,
    offset,
    headHash: head,
    leafId: collector.leafId,
    entryCount: collector.entryCount,
    everyEntryHasId: collector.everyEntryHasId,
  };
}

/** Loose structural check of a persisted cursor. */
export function isTranscriptCursor(value: unknown): value is TranscriptCursor {
  if (!value || typeof value !== 'object') return false;
  const c = value as Partial<TranscriptCursor>;
  return (
    typeof c.file === 'string' &&
    typeof c.dev === 'number' &&
    typeof c.ino === 'number' &&
    typeof c.offset === 'number' &&
    typeof c.headHash === 'string' &&
    (c.leafId === null || typeof c.leafId === 'string') &&
    typeof c.entryCount === 'number' &&
    typeof c.everyEntryHasId === 'boolean'
  );
}
