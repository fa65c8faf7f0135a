/**
 * The bounded, resumable transcript reads of OpenClaw 2026.9.6 over a JSONL transcript:
 * `readSessionTranscriptVisibleMessageDelta` (visible messages, oldest first) and `readSessionTranscriptRawDelta`
 * (every stored event in order). Both return `page`, `reset` or `missing` with OpenClaw's limits (1,000 items and
 * 1,000,000 bytes by default; at most 10,000 and 64 MiB), opaque base64url cursors, `hasMore`, `serializedBytes`
 * and `requiredBytes` when the next item alone does not fit. Appends keep a cursor valid; a different transcript
 * (another header, or the anchored line rewritten) resets it with `generation_mismatch`; a visible cursor whose
 * anchor left the visible branch or moved in it resets with `anchor_missing` / `anchor_moved`.
 */
import type { TranscriptFileSnapshot } from './transcriptFile';
import { projectMessageEntry, visibleMessageSlots, type SessionTranscriptMessageEntry } from './visibleMessages';

export const DEFAULT_MAX_ITEMS = 1_000;
export const DEFAULT_MAX_BYTES = 1_000_000;
export const MAX_ITEMS = 10_000;
export const MAX_BYTES = 64 * 1024 * 1024;
const CURSOR_VERSION = 1;

export interface TranscriptScope {
  agentId: string;
  sessionId: string;
}

export type ResetReason =
  'anchor_missing' | 'anchor_moved' | 'generation_mismatch' | 'invalid_cursor' | 'scope_mismatch';

export type VisibleMessageDeltaResult =
  | {
      kind: 'page';
      cursor: string;
      hasMore: boolean;
      requiredBytes?: number;
      serializedBytes: number;
      entries: SessionTranscriptMessageEntry[];
    }
  | { kind: 'reset'; cursor: string; reason: ResetReason }
  | { kind: 'missing' };

export type RawDeltaResult =
  | {
      kind: 'page';
      cursor: string;
      events: { event: unknown; seq: number }[];
      hasMore: boolean;
      requiredBytes?: number;
      serializedBytes: number;
    }
  | { kind: 'reset'; cursor: string; reason: Exclude<ResetReason, 'anchor_missing' | 'anchor_moved'> }
  | { kind: 'missing' };

interface CursorBase {
  agentId: string;
  generation: string;
  sessionId: string;
  version: number;
  /** hash of the anchored line (this implementation's check that the file was appended to, not replaced) */
  anchor?: string;
}
interface VisibleCursor extends CursorBase {
  lastEventSeq: number;
  lastMessagePosition: number;
}
interface RawCursor extends CursorBase {
  lastSeq: number;
}

/** OpenClaw's limit rule: absent → the default; otherwise an integer in [1, maximum], or a RangeError. */
export function normalizeLimit(value: unknown, fallback: number, maximum: number, name: string): number {
  const resolved = value ?? fallback;
  if (typeof resolved !== 'number' || !Number.isInteger(resolved) || resolved < 1 || resolved > maximum)
    throw new RangeError(`${name} must be an integer between 1 and ${String(maximum)}`);
  return resolved;
}

function encodeCursor(cursor: object): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

function decodeCursor(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'string' || value.length > 4096) return undefined;
  try {
    const bytes = Buffer.from(value, 'base64url');
    if (bytes.toString('base64url') !== value) return undefined;
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const c = parsed as Record<string, unknown>;
    const valid =
      c.version === CURSOR_VERSION &&
      typeof c.agentId === 'string' &&
      typeof c.sessionId === 'string' &&
      typeof c.generation === 'string' &&
      (c.anchor === undefined || typeof c.anchor === 'string');
    return valid ? c : undefined;
  } catch {
    return undefined;
  }
}

function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= -1;
}

function parseVisibleCursor(value: unknown): VisibleCursor | undefined {
  const c = decodeCursor(value);
  if (!c || !isSeq(c.lastEventSeq) || !isSeq(c.lastMessagePosition)) return undefined;
  if ((c.lastEventSeq === -1) !== (c.lastMessagePosition === -1)) return undefined;
  return c as unknown as VisibleCursor;
}

function parseRawCursor(value: unknown): RawCursor | undefined {
  const c = decodeCursor(value);
  return c && isSeq(c.lastSeq) ? (c as unknown as RawCursor) : undefined;
}

function scopeProblem(cursor: CursorBase, scope: TranscriptScope, generation: string): ResetReason | undefined {
  if (cursor.agentId !== scope.agentId || cursor.sessionId !== scope.sessionId) return 'scope_mismatch';
  if (cursor.generation !== generation) return 'generation_mismatch';
  return undefined;
}

/** One page of visible messages after `cursor` (from the start without one). */
export function readVisibleMessageDelta(
  snapshot: TranscriptFileSnapshot | undefined,
  scope: TranscriptScope,
  limits: { cursor?: unknown; maxMessages?: unknown; maxBytes?: unknown },
): VisibleMessageDeltaResult {
  const maxMessages = normalizeLimit(limits.maxMessages, DEFAULT_MAX_ITEMS, MAX_ITEMS, 'maxMessages');
  const maxBytes = normalizeLimit(limits.maxBytes, DEFAULT_MAX_BYTES, MAX_BYTES, 'maxBytes');
  if (!snapshot || !snapshot.generation) return { kind: 'missing' };
  const { events, generation } = snapshot;
  const initial: VisibleCursor = {
    agentId: scope.agentId,
    generation,
    sessionId: scope.sessionId,
    lastEventSeq: -1,
    lastMessagePosition: -1,
    version: CURSOR_VERSION,
  };
  const reset = (reason: ResetReason) => ({ kind: 'reset' as const, cursor: encodeCursor(initial), reason });
  const cursor = limits.cursor !== undefined ? parseVisibleCursor(limits.cursor) : initial;
  if (!cursor) return reset('invalid_cursor');
  const problem = scopeProblem(cursor, scope, generation);
  if (problem) return reset(problem);
  const slots = visibleMessageSlots(events);
  let start = 0;
  if (cursor.lastEventSeq >= 0) {
    const anchored = events[cursor.lastEventSeq];
    if (cursor.anchor !== undefined && anchored && anchored.lineHash !== cursor.anchor)
      return reset('generation_mismatch');
    const anchor = slots.find((slot) => slot.visible.index === cursor.lastEventSeq);
    if (!anchor) return reset('anchor_missing');
    if (anchor.position !== cursor.lastMessagePosition) return reset('anchor_moved');
    start = anchor.position + 1;
  }
  const candidates = slots.slice(start, start + maxMessages + 1);
  let serializedBytes = 0;
  let selected = 0;
  for (const slot of candidates) {
    if (selected >= maxMessages || serializedBytes + slot.bytes > maxBytes) break;
    serializedBytes += slot.bytes;
    selected += 1;
  }
  const last = candidates[selected - 1];
  const next = {
    ...cursor,
    lastEventSeq: last?.visible.index ?? cursor.lastEventSeq,
    lastMessagePosition: last?.position ?? cursor.lastMessagePosition,
    ...(last ? { anchor: last.lineHash } : {}),
  };
  const entries = candidates
    .slice(0, selected)
    .flatMap((slot) => projectMessageEntry(slot.visible.event, slot.previousId, slot.position + 1) ?? []);
  const requiredBytes = selected === 0 && candidates[0] ? candidates[0].bytes : undefined;
  return {
    kind: 'page',
    cursor: encodeCursor(next),
    hasMore: selected < candidates.length,
    ...(requiredBytes !== undefined ? { requiredBytes } : {}),
    serializedBytes,
    entries,
  };
}

/** One page of stored events after `cursor` (from the header without one); `seq` is the event's position. */
export function readRawDelta(
  snapshot: TranscriptFileSnapshot | undefined,
  scope: TranscriptScope,
  limits: { cursor?: unknown; maxEvents?: unknown; maxBytes?: unknown },
): RawDeltaResult {
  const maxEvents = normalizeLimit(limits.maxEvents, DEFAULT_MAX_ITEMS, MAX_ITEMS, 'maxEvents');
  const maxBytes = normalizeLimit(limits.maxBytes, DEFAULT_MAX_BYTES, MAX_BYTES, 'maxBytes');
  if (!snapshot || !snapshot.generation) return { kind: 'missing' };
  const { events, generation } = snapshot;
  const initial: RawCursor = {
    agentId: scope.agentId,
    generation,
    lastSeq: -1,
    sessionId: scope.sessionId,
    version: 1,
  };
  const reset = (reason: 'generation_mismatch' | 'invalid_cursor' | 'scope_mismatch') => ({
    kind: 'reset' as const,
    cursor: encodeCursor(initial),
    reason,
  });
  const cursor = limits.cursor !== undefined ? parseRawCursor(limits.cursor) : initial;
  if (!cursor) return reset('invalid_cursor');
  const problem = scopeProblem(cursor, scope, generation);
  if (problem === 'scope_mismatch' || problem === 'generation_mismatch') return reset(problem);
  if (cursor.lastSeq > events.length - 1) return reset('invalid_cursor');
  const anchored = cursor.lastSeq >= 0 ? events[cursor.lastSeq] : undefined;
  if (cursor.anchor !== undefined && anchored && anchored.lineHash !== cursor.anchor)
    return reset('generation_mismatch');
  let serializedBytes = 0;
  let lastSeq = cursor.lastSeq;
  let hasMore = false;
  let requiredBytes: number | undefined;
  for (let seq = cursor.lastSeq + 1; seq < events.length; seq++) {
    const bytes = events[seq]!.bytes;
    if (seq - cursor.lastSeq > maxEvents || serializedBytes + bytes > maxBytes) {
      hasMore = true;
      if (lastSeq === cursor.lastSeq) requiredBytes = bytes;
      break;
    }
    serializedBytes += bytes;
    lastSeq = seq;
  }
  const page = [];
  for (let seq = cursor.lastSeq + 1; seq <= lastSeq; seq++) page.push({ event: events[seq]!.event, seq });
  const anchor = lastSeq >= 0 ? events[lastSeq]!.lineHash : undefined;
  return {
    kind: 'page',
    cursor: encodeCursor({ ...cursor, lastSeq, ...(anchor ? { anchor } : {}) }),
    events: page,
    hasMore,
    ...(requiredBytes !== undefined ? { requiredBytes } : {}),
    serializedBytes,
  };
}
