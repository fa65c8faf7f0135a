/**
 * The derived rows OpenClaw keeps beside a generation's events: one identity per event (id, type, parent,
 * message idempotency key), the materialized active branch (root → leaf, header and leaf-control rows left out;
 * rows with a `message` get a message position; `excludeFromContext` messages are not context-eligible), the
 * index state (last seq, leaf, counts) and full-text rows for the user/assistant text on the active branch.
 */
import type { SessionEntry, SessionHeader } from '../../../contract';
import { isRecord } from '../../../common/guards';
import { SessionTreeIndex } from '../../sessionTree';
import { parseSessionTimestampMs } from '../../timestamps';

export interface ProjectedEvent {
  seq: number;
  eventJson: string;
  parsed: SessionHeader | SessionEntry;
  createdAt: number;
}

export interface ProjectedWindow {
  events: ProjectedEvent[];
  identities: {
    eventId: string;
    seq: number;
    eventType: string | null;
    parentId: string | null;
    idempotencyKey: string | null;
    createdAt: number;
  }[];
  active: { position: number; seq: number; messagePosition: number | null; contextEligible: number }[];
  index: { indexedSeq: number; leafEventId: string | null; activeEventCount: number; activeMessageCount: number };
  fts: { text: string; messageId: string; role: string; timestamp: number }[];
}

function messageText(message: unknown): string | undefined {
  if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant')) return undefined;
  if (typeof message.content === 'string') return message.content.trim() || undefined;
  if (typeof message.text === 'string') return message.text.trim() || undefined;
  if (!Array.isArray(message.content)) return undefined;
  const parts = message.content.flatMap((b: unknown) =>
    isRecord(b) &&
    (b.type === 'text' || b.type === 'input_text' || b.type === 'output_text') &&
    typeof b.text === 'string' &&
    b.text.trim()
      ? [b.text]
      : [],
  );
  return parts.length ? parts.join('\n') : undefined;
}

function ftsRow(event: ProjectedEvent): ProjectedWindow['fts'][number] | undefined {
  const e = event.parsed as Record<string, unknown>;
  if (e.type !== 'message' || typeof e.id !== 'string' || !e.id.trim()) return undefined;
  const text = messageText(e.message);
  if (!text) return undefined;
  const ts =
    typeof e.timestamp === 'number' ? e.timestamp : typeof e.timestamp === 'string' ? Date.parse(e.timestamp) : NaN;
  return {
    text,
    messageId: e.id.trim(),
    role: String((e.message as Record<string, unknown>).role),
    timestamp: Number.isFinite(ts) ? ts : event.createdAt,
  };
}

function identityOf(event: ProjectedEvent): ProjectedWindow['identities'][number] | undefined {
  const e = event.parsed as Record<string, unknown>;
  if (typeof e.id !== 'string' || !e.id) return undefined;
  const key = isRecord(e.message) && typeof e.message.idempotencyKey === 'string' ? e.message.idempotencyKey : null;
  return {
    eventId: e.id,
    seq: event.seq,
    eventType: typeof e.type === 'string' ? e.type : null,
    parentId: typeof e.parentId === 'string' ? e.parentId : null,
    idempotencyKey: key,
    createdAt: event.createdAt,
  };
}

/** Rows for one generation: `header` at seq 0, then `entries` at seq 1.. in order. */
export function projectWindow(header: SessionHeader, entries: readonly SessionEntry[]): ProjectedWindow {
  const headerTime = parseSessionTimestampMs(header.timestamp) ?? 0;
  const events: ProjectedEvent[] = [
    { seq: 0, eventJson: JSON.stringify(header), parsed: header, createdAt: headerTime },
  ];
  const tree = new SessionTreeIndex();
  const seqOf = new Map<string, number>();
  entries.forEach((entry, i) => {
    events.push({
      seq: i + 1,
      eventJson: JSON.stringify(entry),
      parsed: entry,
      createdAt: parseSessionTimestampMs(entry.timestamp) ?? headerTime,
    });
    seqOf.set(entry.id, i + 1);
    tree.add(entry);
  });
  const byId = new Map(events.map((e) => [(e.parsed as { id: string }).id, e]));
  const active: ProjectedWindow['active'] = [];
  const fts: ProjectedWindow['fts'] = [];
  let messages = 0;
  for (const entry of tree.pathTo(tree.leafId)) {
    const event = byId.get(entry.id)!;
    const hasMessage = entry.type === 'message';
    const excluded =
      hasMessage &&
      isRecord(entry.message) &&
      (entry.message as { excludeFromContext?: unknown }).excludeFromContext === true;
    active.push({
      position: active.length,
      seq: seqOf.get(entry.id)!,
      messagePosition: hasMessage ? messages++ : null,
      contextEligible: excluded ? 0 : 1,
    });
    const row = ftsRow(event);
    if (row) fts.push(row);
  }
  return {
    events,
    identities: events.flatMap((e) => identityOf(e) ?? []),
    active,
    index: {
      indexedSeq: events.length - 1,
      leafEventId: tree.appendParentId,
      activeEventCount: active.length,
      activeMessageCount: messages,
    },
    fts,
  };
}
