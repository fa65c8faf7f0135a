/**
 * One lane's turn as the rows it contributes to an alignment: every transcript message before the turn with what
 * the lane did with it (sent as recorded, modified, summarized, dropped), plus the assembled messages that are not a
 * transcript message (summaries keyed by the span they stand for, synthetic messages by what produced them, a second
 * copy of a message). Built once per (lane, turn); alignment, "lanes differ" and turn deltas all read it.
 */
import type { CompareColumn } from './compareInput';
import { messageText } from './messageText';
import type { AssembledRef, IndexRange, Recording, SessionInfo, TurnRecord } from './viewTypes';

/**
 * What a lane did with an aligned message: `sent` as the transcript has it, `modified` (same message, changed
 * content), `summary` (a summary it sent), `synthetic` (injected), `summarized` (left out, covered by a summary),
 * `dropped` (left out), `absent` (the lane has no such message at this turn).
 */
export type CellStatus = 'sent' | 'modified' | 'summary' | 'synthetic' | 'summarized' | 'dropped' | 'absent';

/** Status codes in the per-transcript-message arrays (0 = absent). */
export const STATUS_CODES: readonly CellStatus[] = [
  'absent',
  'sent',
  'modified',
  'summary',
  'synthetic',
  'summarized',
  'dropped',
];
const SENT = 1;
const MODIFIED = 2;
const SUMMARY = 3;
const SUMMARIZED = 5;
const DROPPED = 6;

/** sent, modified, summary and synthetic messages are in the context; the rest were left out or never there. */
export function inContext(status: CellStatus): boolean {
  return status === 'sent' || status === 'modified' || status === 'summary' || status === 'synthetic';
}

export type ExtraKind = 'summary' | 'synthetic' | 'message';

/** An assembled message that is not (the first copy of) a transcript message. */
export interface ExtraItem {
  id: string;
  kind: ExtraKind;
  status: CellStatus;
  position: number;
  ref: AssembledRef;
  /** where the row sorts: after transcript message `major` (minor 2), or before it (minor 0, summaries of a span) */
  major: number;
  minor: 0 | 2;
  /** summaries: the transcript ranges covered (stated, or implied by the neighbours); empty when unknown */
  span: IndexRange[];
}

export interface LaneTurnState {
  record: TurnRecord | null;
  recording: Recording;
  /** transcript messages 0..extent-1 may have a status in this lane */
  extent: number;
  /** status code per transcript index (see STATUS_CODES); indexes past its length are absent (0) */
  status: Uint8Array;
  /** position in the assembled list per transcript index, -1 when not assembled (as past its length) */
  position: Int32Array;
  extras: Map<string, ExtraItem>;
  /** the row id of each assembled message, in assembled order */
  order: string[];
}

const transcriptIndexes = new WeakMap<readonly string[], Map<string, number>>();

/** key → index in a session's messageKeys, built once per session. */
export function transcriptIndexOf(session: SessionInfo): Map<string, number> {
  let index = transcriptIndexes.get(session.messageKeys);
  if (!index) {
    index = new Map();
    session.messageKeys.forEach((key, i) => index!.set(key, i));
    transcriptIndexes.set(session.messageKeys, index);
  }
  return index;
}

const signatures = new WeakMap<object, Map<string, string>>();

/** What a message says (role and readable text): equal for copies of one message across lanes and recordings. */
export function contentSignature(recording: Recording, key: string): string {
  let cache = signatures.get(recording.messages);
  if (!cache) signatures.set(recording.messages, (cache = new Map()));
  let sig = cache.get(key);
  if (sig === undefined) {
    const stored = recording.messages[key];
    sig = stored ? `${stored.role}\u0000${messageText(stored.message)}` : `?\u0000${key}`;
    cache.set(key, sig);
  }
  return sig;
}

/** `[from, to)` ranges sorted and merged. */
export function normalizeRanges(ranges: readonly IndexRange[]): IndexRange[] {
  const sorted = ranges.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const out: IndexRange[] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

function intersectRanges(ranges: readonly IndexRange[], from: number, to: number): IndexRange[] {
  const out: IndexRange[] = [];
  for (const [a, b] of ranges) {
    const lo = Math.max(a, from);
    const hi = Math.min(b, to);
    if (hi > lo) out.push([lo, hi]);
  }
  return out;
}

export function rangesContain(ranges: readonly IndexRange[], index: number): boolean {
  return ranges.some(([a, b]) => index >= a && index < b);
}

function rangesKey(ranges: readonly IndexRange[]): string {
  return ranges.map(([a, b]) => `${a}-${b}`).join(',');
}

/** The span a summary states it covers: its stored ranges for this session, else its covered keys. */
function statedSpan(recording: Recording, ref: AssembledRef, session: SessionInfo): IndexRange[] {
  const covers = recording.messages[ref.key]?.covers;
  if (covers && covers.sessionId === session.sessionId && covers.ranges.length > 0)
    return normalizeRanges(covers.ranges);
  if (!ref.coversKeys || ref.coversKeys.length === 0) return [];
  const index = transcriptIndexOf(session);
  const ranges: IndexRange[] = [];
  for (const key of ref.coversKeys) {
    const i = index.get(key);
    if (i !== undefined) ranges.push([i, i + 1]);
  }
  return normalizeRanges(ranges);
}

function syntheticId(recording: Recording, ref: AssembledRef): string {
  const message = recording.messages[ref.key]?.message as { role?: unknown; customType?: unknown } | undefined;
  const role = typeof message?.role === 'string' ? message.role : 'message';
  return `synthetic:${role}${typeof message?.customType === 'string' ? `:${message.customType}` : ''}`;
}

interface Pending {
  position: number;
  ref: AssembledRef;
  kind: ExtraKind;
  status: CellStatus;
  /** the id before a repeat suffix; null for summaries of a span and synthetic messages (named later) */
  baseId: string | null;
  /** a second copy of a transcript message (the transcript row holds the first) */
  repeat: boolean;
  /** the transcript index of the nearest transcript message before it in the assembled list, -1 at the start */
  after: number;
}

interface Placed {
  pending: Pending[];
  /** transcript index per assembled position, -1 for the others */
  transcriptAt: Int32Array;
}

function emptyState(recording: Recording, record: TurnRecord | null, size: number): LaneTurnState {
  return {
    record,
    recording,
    extent: 0,
    status: new Uint8Array(size),
    position: new Int32Array(size).fill(-1),
    extras: new Map(),
    order: [],
  };
}

/** Statuses of the transcript messages before the turn from the omitted ranges (what is not summarized is dropped). */
function fillLeftOut(state: LaneTurnState, record: TurnRecord, size: number): void {
  const history = Math.min(record.historyCount, size);
  state.status.fill(DROPPED, 0, history);
  for (const [from, to] of record.omitted.summarized) state.status.fill(SUMMARIZED, from, Math.min(to, history));
  state.extent = history;
}

function statusOf(ref: AssembledRef): CellStatus {
  return ref.provenance === 'raw' ? 'sent' : ref.provenance;
}

/** First pass: transcript messages take their row; everything else waits for its id. */
function placeAssembled(state: LaneTurnState, record: TurnRecord, session: SessionInfo): Placed {
  const index = transcriptIndexOf(session);
  const pending: Pending[] = [];
  const transcriptAt = new Int32Array(record.assembled.length).fill(-1);
  let after = -1;
  record.assembled.forEach((ref, position) => {
    const status = statusOf(ref);
    const sourceKey = ref.provenance === 'modified' ? (ref.sourceKey ?? ref.key) : ref.key;
    const at = ref.provenance === 'synthetic' ? undefined : index.get(sourceKey);
    if (at !== undefined && state.position[at] === -1) {
      state.status[at] = status === 'sent' ? SENT : status === 'modified' ? MODIFIED : SUMMARY;
      state.position[at] = position;
      state.extent = Math.max(state.extent, at + 1);
      state.order[position] = session.messageKeys[at]!;
      transcriptAt[position] = at;
      after = at;
      return;
    }
    const kind: ExtraKind =
      at !== undefined || ref.provenance === 'raw' || ref.provenance === 'modified'
        ? 'message'
        : ref.provenance === 'summary'
          ? 'summary'
          : 'synthetic';
    const baseId = at !== undefined ? sourceKey : kind === 'message' ? `message:${sourceKey}` : null;
    pending.push({ position, ref, kind, status, baseId, repeat: at !== undefined, after });
  });
  return { pending, transcriptAt };
}

function nextTranscriptAfter(placed: Placed, position: number, fallback: number): number {
  for (let p = position + 1; p < placed.transcriptAt.length; p++) {
    if (placed.transcriptAt[p]! >= 0) return placed.transcriptAt[p]!;
  }
  return fallback;
}

/** The span of a summary: stated, else the summarized messages between its transcript neighbours. */
function summarySpan(
  state: LaneTurnState,
  record: TurnRecord,
  placed: Placed,
  item: Pending,
  session: SessionInfo,
): IndexRange[] {
  const stated = statedSpan(state.recording, item.ref, session);
  if (stated.length > 0) return stated;
  const to = nextTranscriptAfter(placed, item.position, record.historyCount);
  return intersectRanges(normalizeRanges(record.omitted.summarized), item.after + 1, to);
}

/** Second pass: ids for summaries, synthetic messages and second copies (`#2`, `#3` … for repeats). */
function nameExtras(state: LaneTurnState, record: TurnRecord, placed: Placed, session: SessionInfo): void {
  const seen = new Map<string, number>();
  let unknownSummaries = 0;
  for (const item of placed.pending) {
    let span: IndexRange[] = [];
    let base = item.baseId;
    if (base === null && item.kind === 'summary') {
      span = summarySpan(state, record, placed, item, session);
      base = span.length > 0 ? `summary:${rangesKey(span)}` : `summary:?${unknownSummaries++}`;
    } else if (base === null) base = syntheticId(state.recording, item.ref);
    const count = (seen.get(base) ?? (item.repeat ? 1 : 0)) + 1;
    seen.set(base, count);
    const id = count === 1 ? base : `${base}#${count}`;
    const before = span.length > 0;
    state.extras.set(id, {
      id,
      kind: item.kind,
      status: item.status,
      position: item.position,
      ref: item.ref,
      major: before ? span[0]![0] : item.after,
      minor: before ? 0 : 2,
      span,
    });
    state.order[item.position] = id;
  }
}

/**
 * How many transcript messages a turn's state covers: its history and every transcript message it assembled, not
 * the whole session's: sized to the session, the states of a 2,000-turn timeline with two lanes allocated and filled
 * about 80 MB, quadratic in the turns, on every rebuild (issue 34). Readers treat indexes past the arrays as absent.
 */
function stateSize(record: TurnRecord, session: SessionInfo): number {
  const index = transcriptIndexOf(session);
  let size = record.historyCount;
  for (const ref of record.assembled) {
    const at = index.get(ref.provenance === 'modified' ? (ref.sourceKey ?? ref.key) : ref.key);
    if (at !== undefined && at >= size) size = at + 1;
  }
  return Math.min(size, session.messageKeys.length);
}

/** The rows one column contributes at `turn` (an empty state when the lane has no such turn). */
export function laneTurnState(column: CompareColumn, turn: number, session: SessionInfo): LaneTurnState {
  const record = column.recording.turns[column.lane.id]?.[turn] ?? null;
  const size = record ? stateSize(record, session) : 0;
  const state = emptyState(column.recording, record, size);
  if (!record) return state;
  fillLeftOut(state, record, size);
  nameExtras(state, record, placeAssembled(state, record, session), session);
  return state;
}

/** The status of row `id` (a transcript key when `index` is given) in a lane. */
export function statusAt(state: LaneTurnState, id: string, index: number | null): CellStatus {
  if (index !== null && index < state.status.length && state.position[index] !== -1) {
    return STATUS_CODES[state.status[index]!]!;
  }
  const extra = state.extras.get(id);
  if (extra) return extra.status;
  return index !== null && index < state.status.length ? STATUS_CODES[state.status[index]!]! : 'absent';
}

/** The position in the assembled list of row `id`, or null when the lane did not send it. */
export function positionAt(state: LaneTurnState, id: string, index: number | null): number | null {
  if (index !== null && index < state.position.length && state.position[index] !== -1) return state.position[index]!;
  return state.extras.get(id)?.position ?? null;
}

/** The assembled ref behind row `id`, when the lane sent it. */
export function refAt(state: LaneTurnState, id: string, index: number | null): AssembledRef | null {
  if (!state.record) return null;
  if (index !== null && index < state.position.length && state.position[index] !== -1) {
    return state.record.assembled[state.position[index]!]!;
  }
  return state.extras.get(id)?.ref ?? null;
}

/**
 * What the model sees of a row in this lane: the transcript message for `sent` (and for summaries that are
 * transcript entries), the content of the lane's own copy otherwise; '' when the lane did not send it.
 */
export function sentSignature(state: LaneTurnState, id: string, index: number | null): string {
  const ref = refAt(state, id, index);
  return ref ? refSignature(state.recording, ref) : '';
}

/** What the model sees of one assembled message (see sentSignature). */
export function refSignature(recording: Recording, ref: AssembledRef): string {
  return ref.provenance === 'raw' ? `k\u0000${ref.key}` : contentSignature(recording, ref.key);
}
