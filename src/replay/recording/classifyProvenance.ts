/**
 * Provenance of assembled messages and of the transcript messages an engine left out (pure functions).
 *
 * Rules, in order, for each assembled message:
 * 1. Its key is the key the host knew it by (object identity: the engine returned the very object it was
 *    given), else the key of the reference transcript message with the same content (a deep copy, e.g. across
 *    IPC, is still `raw`), else its own content key `h:…`.
 * 2. `summary` — it is recognisably a summary (see summaryMarkers.ts), or the host knows it as one (the
 *    summary of a compaction entry in the lane transcript). It covers the reference messages it names, or every
 *    reference message before the entry the compaction kept from (`firstKeptEntryId`).
 * 3. `raw` — its key is a reference transcript message.
 * 4. `modified` — same identity, changed content: a `toolResult` whose `toolCallId` matches a reference tool
 *    result, or any other message whose role and timestamp match a reference message (for example a truncated
 *    tool result, or a user message the engine rewrote). `sourceKey` names the reference message.
 * 5. `synthetic` — anything else the engine injected.
 *
 * A reference message not present raw or modified is `summarized` when an assembled summary covers it, and
 * `dropped` otherwise.
 */
import type { AgentMessage } from '../../contract';
import type { IndexRange, Provenance } from '../../contract/recording';
import { readSummaryMarker, type SummaryMarker } from './summaryMarkers';
import { indicesToRanges } from './indexRanges';
import type { LazyKey } from './messageIdentity';

/** What the reference transcript (the recorded session, in order) looks like to the classifier. */
export interface ReferenceIndex {
  /** message key → position in the session's message order */
  position: ReadonlyMap<string, number>;
  /** content key (`h:…`) → reference message key */
  byHash: ReadonlyMap<string, string>;
  /** toolCallId → key of the reference toolResult */
  byToolCallId: ReadonlyMap<string, string>;
  /** `${role}@${timestamp}` → reference message key */
  byRoleTimestamp: ReadonlyMap<string, string>;
}

export interface ClassifyContext {
  reference: ReferenceIndex;
  /** the key the host knows this exact object by (messages it passed to the engine), if any */
  identityKey?: (message: AgentMessage) => string | undefined;
  /** content key of a message (`h:…`); called only when identity does not answer */
  hashKey: (message: AgentMessage) => string;
  /** maps an entry id an engine reported (recorded or lane-local) to a reference key */
  resolveEntryId?: (entryId: string) => string | undefined;
  /**
   * summaries the host itself knows by key (a lane's compaction entries: the compactionSummary message does not
   * carry firstKeptEntryId, its entry does)
   */
  knownSummary?: (key: string) => SummaryMarker | undefined;
}

export interface ClassifiedMessage {
  key: string;
  provenance: Provenance;
  /** for `modified`: the reference message it was derived from */
  sourceKey?: string;
  /** for `summary`: the reference positions it covers */
  covers?: IndexRange[];
  /** for `summary` without coverage information: it covers what precedes the raw messages after it */
  implicitCovers?: boolean;
}

/**
 * The key of a message by role and timestamp; undefined unless the role is a string and the timestamp a number or a
 * string (a transcript can hold anything there, and an object's own `toString` may throw or say nothing useful).
 */
export function roleTimestampKey(role: unknown, timestamp: unknown): string | undefined {
  if (typeof role !== 'string') return undefined;
  if (typeof timestamp === 'number' || typeof timestamp === 'string') return `${role}@${timestamp}`;
  return undefined;
}

interface ReferenceEntry {
  key: string;
  message: AgentMessage;
  /** its content key; a function is called only when a lookup by content first needs the keys */
  hashKey: LazyKey;
}

/** Build the lookup tables of a reference transcript from its messages and keys (same order). */
export function buildReferenceIndex(
  entries: readonly ReferenceEntry[],
  /** other forms of the same messages (e.g. as stored, before the host sanitized them) that resolve to their key */
  aliases: readonly ReferenceEntry[] = [],
): ReferenceIndex {
  const position = new Map<string, number>();
  const byToolCallId = new Map<string, string>();
  const byRoleTimestamp = new Map<string, string>();
  entries.forEach(({ key, message }, index) => {
    if (!position.has(key)) position.set(key, index);
    if (
      message.role === 'toolResult' &&
      typeof message.toolCallId === 'string' &&
      !byToolCallId.has(message.toolCallId)
    )
      byToolCallId.set(message.toolCallId, key);
    const rt = roleTimestampKey(message.role, (message as { timestamp?: unknown }).timestamp);
    if (rt !== undefined && !byRoleTimestamp.has(rt)) byRoleTimestamp.set(rt, key);
  });
  for (const { key, message } of aliases) {
    if (
      message.role === 'toolResult' &&
      typeof message.toolCallId === 'string' &&
      !byToolCallId.has(message.toolCallId)
    )
      byToolCallId.set(message.toolCallId, key);
  }
  // hashing every message is the largest cost before a replay's first turn: done when a lookup by content needs it
  let byHash: Map<string, string> | undefined;
  const buildByHash = (): Map<string, string> => {
    const map = new Map<string, string>();
    for (const { key, hashKey } of [...entries, ...aliases]) {
      const hash = typeof hashKey === 'string' ? hashKey : hashKey();
      if (!map.has(hash)) map.set(hash, key);
    }
    return map;
  };
  return {
    position,
    byToolCallId,
    byRoleTimestamp,
    get byHash() {
      return (byHash ??= buildByHash());
    },
  };
}

/** undefined: not a summary; null: a summary that does not say what it covers. */
function coversOf(message: AgentMessage, key: string, ctx: ClassifyContext): IndexRange[] | null | undefined {
  const marker = ctx.knownSummary?.(key) ?? readSummaryMarker(message);
  if (!marker) return undefined;
  const resolve = (id: string) => {
    const direct = ctx.reference.position.has(id) ? id : undefined;
    return direct ?? ctx.resolveEntryId?.(id);
  };
  if (marker.coversBeforeEntryId) {
    const key = resolve(marker.coversBeforeEntryId);
    const pos = key === undefined ? undefined : ctx.reference.position.get(key);
    return pos === undefined || pos === 0 ? [] : [[0, pos]];
  }
  if (marker.coversEntryIds) {
    const positions = new Set<number>();
    for (const id of marker.coversEntryIds) {
      const key = resolve(id);
      const pos = key === undefined ? undefined : ctx.reference.position.get(key);
      if (pos !== undefined) positions.add(pos);
    }
    return indicesToRanges([...positions].sort((a, b) => a - b));
  }
  return null;
}

/** Classify one assembled message. */
export function classifyMessage(message: AgentMessage, ctx: ClassifyContext): ClassifiedMessage {
  const { reference } = ctx;
  let key = ctx.identityKey?.(message);
  if (key === undefined) {
    const hash = ctx.hashKey(message);
    key = reference.byHash.get(hash) ?? hash;
  }

  const covers = coversOf(message, key, ctx);
  if (covers === null) return { key, provenance: 'summary', implicitCovers: true };
  if (covers) return { key, provenance: 'summary', covers };

  if (reference.position.has(key)) return { key, provenance: 'raw' };

  if (message.role === 'toolResult' && typeof message.toolCallId === 'string') {
    const source = reference.byToolCallId.get(message.toolCallId);
    if (source !== undefined) return { key, provenance: 'modified', sourceKey: source };
  }
  const sameTime = roleTimestampKey(message.role, (message as { timestamp?: unknown }).timestamp);
  if (sameTime !== undefined) {
    const source = reference.byRoleTimestamp.get(sameTime);
    if (source !== undefined) return { key, provenance: 'modified', sourceKey: source };
  }
  return { key, provenance: 'synthetic' };
}

export function classifyAssembled(messages: readonly AgentMessage[], ctx: ClassifyContext): ClassifiedMessage[] {
  return messages.map((message) => classifyMessage(message, ctx));
}

export interface OmittedMessages {
  dropped: IndexRange[];
  summarized: IndexRange[];
  droppedCount: number;
  summarizedCount: number;
  keptCount: number;
}

/**
 * Which of the first `historyCount` reference messages the assembled context left out, and whether a summary
 * in it covers them. A summary that does not say what it covers is taken to cover every reference message before
 * the first raw (or modified) message that follows it in the context — the prefix it stands in for — or all of
 * the history when no raw message follows. Linear in `historyCount` + the assembled size.
 */
export function classifyOmitted(
  historyCount: number,
  assembled: readonly ClassifiedMessage[],
  reference: ReferenceIndex,
): OmittedMessages {
  // Interval arithmetic over the assembled messages only: a turn costs the size of its context, not of the
  // history (test/unit/replay/classifyOmitted.property.test.ts checks it against the per-index definition).
  const positionOf = (item: ClassifiedMessage): number | undefined => {
    const source = item.provenance === 'raw' ? item.key : item.provenance === 'modified' ? item.sourceKey : undefined;
    return source === undefined ? undefined : reference.position.get(source);
  };
  // for implicit summaries: the position of the next raw/modified message after each index
  let implicitEnd = 0;
  let nextKept = historyCount;
  for (let i = assembled.length - 1; i >= 0; i--) {
    if (assembled[i].implicitCovers) implicitEnd = Math.max(implicitEnd, Math.min(nextKept, historyCount));
    nextKept = positionOf(assembled[i]) ?? nextKept;
  }
  const keptSet = new Set<number>();
  const coveredIntervals: IndexRange[] = implicitEnd > 0 ? [[0, implicitEnd]] : [];
  for (const item of assembled) {
    const pos = positionOf(item);
    if (pos !== undefined && pos < historyCount) keptSet.add(pos);
    for (const [from, to] of item.covers ?? []) {
      const start = Math.max(0, from);
      const end = Math.min(to, historyCount);
      if (start < end) coveredIntervals.push([start, end]);
    }
  }
  const kept = [...keptSet].sort((a, b) => a - b);
  coveredIntervals.sort((a, b) => a[0] - b[0]);
  const merged: IndexRange[] = [];
  for (const [from, to] of coveredIntervals) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }

  const dropped: IndexRange[] = [];
  const summarized: IndexRange[] = [];
  let droppedCount = 0;
  let summarizedCount = 0;
  let k = 0;
  /** `[from, to)` minus the kept positions in it, appended to `list` */
  const emit = (list: IndexRange[], from: number, to: number): number => {
    let count = 0;
    const push = (a: number, b: number) => {
      if (a >= b) return;
      list.push([a, b]);
      count += b - a;
    };
    for (; k < kept.length && kept[k] < to; k++) {
      push(from, kept[k]);
      from = kept[k] + 1;
    }
    push(from, to);
    return count;
  };
  let cursor = 0;
  for (const [from, to] of merged) {
    droppedCount += emit(dropped, cursor, from);
    summarizedCount += emit(summarized, from, to);
    cursor = to;
  }
  droppedCount += emit(dropped, cursor, historyCount);
  return { dropped, summarized, droppedCount, summarizedCount, keptCount: kept.length };
}
