/**
 * Visible message entries, as `readVisibleSessionTranscriptMessageEntries` and the visible-message delta return
 * them: the `message` events of the visible branch that have an id and a message with a role.
 */
import { isRecord } from '../../../common/guards';
import type { TranscriptEventRecord } from './transcriptFile';
import { selectVisibleEvents, type VisibleEvent } from './visibleBranch';

/** OpenClaw's `SessionTranscriptMessageEntry`. */
export interface SessionTranscriptMessageEntry {
  /** the transcript entry id of the message */
  entryId: string;
  /** the entry before it on the visible branch (normalized), null at the root */
  parentId: string | null;
  /** read order, not a cursor: the event's position in the transcript plus one (or, in a delta page, its visible message position plus one) */
  seq: number;
  message: Record<string, unknown> & { role: string };
  role: string;
  /** the entry's timestamp, when it has one */
  createdAt?: string;
  /** the message's idempotency key, when it has one */
  idempotencyKey?: string;
}

function nonBlank(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value : undefined;
}

/** The entry for one visible event, or undefined when it is not a message entry. */
export function projectMessageEntry(
  event: unknown,
  parentId: string | null,
  seq: number,
): SessionTranscriptMessageEntry | undefined {
  if (!isRecord(event) || event.type !== 'message') return undefined;
  const entryId = nonBlank(event.id);
  const message = event.message;
  if (!entryId || !isRecord(message) || nonBlank(message.role) === undefined) return undefined;
  const role = message.role as string;
  const createdAt = nonBlank(event.timestamp);
  const idempotencyKey = nonBlank(message.idempotencyKey);
  return {
    entryId,
    parentId,
    seq,
    message: message as SessionTranscriptMessageEntry['message'],
    role,
    ...(createdAt ? { createdAt } : {}),
    ...(idempotencyKey ? { idempotencyKey } : {}),
  };
}

/** Every visible message entry, root first (`seq` = transcript position + 1). */
export function visibleMessageEntries(events: readonly TranscriptEventRecord[]): SessionTranscriptMessageEntry[] {
  const out: SessionTranscriptMessageEntry[] = [];
  for (const visible of selectVisibleEvents(events.map((record) => record.event))) {
    const entry = projectMessageEntry(visible.event, visible.parentId, visible.seq);
    if (entry) out.push(entry);
  }
  return out;
}

/** A message of the visible branch with its message position (0-based) and what a delta page needs. */
export interface VisibleMessageSlot {
  visible: VisibleEvent;
  position: number;
  /** the id of the entry before it on the visible branch (a delta entry's `parentId`) */
  previousId: string | null;
  bytes: number;
  lineHash: string;
}

/**
 * The message positions of the visible branch: every `message` event with an id gets the next position (what
 * OpenClaw's active-message projection numbers), in branch order.
 */
export function visibleMessageSlots(events: readonly TranscriptEventRecord[]): VisibleMessageSlot[] {
  const slots: VisibleMessageSlot[] = [];
  let previousId: string | null = null;
  for (const visible of selectVisibleEvents(events.map((record) => record.event))) {
    if (visible.event.type === 'session') continue;
    const id = nonBlank(visible.event.id) ?? null;
    if (visible.event.type === 'message' && id !== null) {
      const record = events[visible.index]!;
      slots.push({ visible, position: slots.length, previousId, bytes: record.bytes, lineHash: record.lineHash });
    }
    previousId = id;
  }
  return slots;
}
