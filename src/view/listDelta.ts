/**
 * A turn's lists written against the same lane's previous turn (recording file format 2 and `replay.stream` pages):
 * consecutive turns mostly repeat what the previous one assembled, so a list is stored as runs — `[from, to)`
 * ranges of the previous turn's list and the items that are new — instead of in full. Decoding gives the previous
 * list's item objects back (shared, not copied), so decoded turns cost a reference per item. Pure: the runtime's
 * import/export and the renderer (dropped files, stream pages) use the same functions.
 */
import type { AssembledRef, TurnRecord, WireMessage, WireView } from '../contract/recording';

/** `[from, to)` of the previous list, or one item. Items are objects, so a run is never mistaken for one. */
export type ListRun<T> = [number, number] | T;

/** A list as runs over the same lane's previous turn's list. */
export interface ListDelta<T> {
  delta: ListRun<T>[];
}

export type EncodedList<T> = T[] | ListDelta<T>;

export type EncodedWireView = Omit<WireView, 'messages'> & { messages: EncodedList<WireMessage> };

/** A TurnRecord whose `assembled` and `asSent.messages` may be deltas. */
export type EncodedTurnRecord = Omit<TurnRecord, 'assembled' | 'asSent'> & {
  assembled: EncodedList<AssembledRef>;
  asSent?: EncodedWireView;
};

type Same<T> = (a: T, b: T) => boolean;

/** A rest of the previous list this short is scanned instead of indexed. */
const SCAN_MAX = 16;

/**
 * Runs that rebuild `items` from `base`: matched forwards (a run continues while the next items repeat the base's
 * next ones; a miss looks the item up by `identity` among the base positions after the current one). Encoding never
 * needs to be optimal, only exact.
 */
export function encodeList<T>(
  items: readonly T[],
  base: readonly T[],
  identity: (item: T) => string,
  same: Same<T>,
): ListRun<T>[] {
  const runs: ListRun<T>[] = [];
  let positions: Map<string, number[]> | undefined;
  let run: [number, number] | undefined;
  // where the last run ended: lookups only search after it, so an appended tail never builds the position map
  let next = 0;
  for (const item of items) {
    if (run && next < base.length && same(base[next]!, item)) {
      run[1] = ++next;
      continue;
    }
    let found = -1;
    if (next < base.length) {
      if (same(base[next]!, item)) found = next;
      else if (base.length - next <= SCAN_MAX) {
        // a short rest (the previous turn's prompt, now assembled) is scanned: no position map for a tail
        for (let p = next + 1; p < base.length && found < 0; p++) if (same(base[p]!, item)) found = p;
      } else {
        positions ??= positionsOf(base, identity);
        found = positions.get(identity(item))?.find((p) => p >= next && same(base[p]!, item)) ?? -1;
      }
    }
    if (found >= 0) {
      next = found + 1;
      run = [found, next];
      runs.push(run);
    } else {
      run = undefined;
      runs.push(item);
    }
  }
  return runs;
}

function positionsOf<T>(base: readonly T[], identity: (item: T) => string): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  base.forEach((item, p) => {
    const id = identity(item);
    const list = positions.get(id);
    if (list) list.push(p);
    else positions.set(id, [p]);
  });
  return positions;
}

/** The list `runs` describe over `base` (base items are reused as they are). */
export function decodeList<T>(encoded: EncodedList<T>, base: readonly T[] | undefined, where: string): T[] {
  if (Array.isArray(encoded)) return encoded;
  if (!encoded || typeof encoded !== 'object' || !Array.isArray(encoded.delta)) {
    throw new ListDeltaError(`${where} is neither a list nor {"delta": [...]}`);
  }
  if (!base) throw new ListDeltaError(`${where} is a delta, but its lane has no previous turn to apply it to`);
  const items: T[] = [];
  for (const [i, run] of encoded.delta.entries()) {
    if (!Array.isArray(run)) {
      items.push(run);
      continue;
    }
    const [from, to] = run as unknown[];
    if (!Number.isInteger(from) || !Number.isInteger(to) || (from as number) < 0 || (to as number) < (from as number)) {
      throw new ListDeltaError(`${where}.delta[${i}] is not a range [from, to) with 0 ≤ from ≤ to`);
    }
    if ((to as number) > base.length) {
      throw new ListDeltaError(
        `${where}.delta[${i}] reaches item ${String(to)}, but the lane's previous turn has ${base.length}`,
      );
    }
    for (let p = from as number; p < (to as number); p++) items.push(base[p]!);
  }
  return items;
}

export class ListDeltaError extends Error {
  readonly code = 'list_delta_invalid';
  constructor(message: string) {
    super(message);
    this.name = 'ListDeltaError';
  }
}

const refIdentity = (ref: AssembledRef) => ref.key;
const wireIdentity = (message: WireMessage) => `${message.key ?? ''}\u0000${message.origin}`;

function sameStrings(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((s, i) => s === b[i]);
}

export function sameRef(a: AssembledRef, b: AssembledRef): boolean {
  return (
    a === b ||
    (a.key === b.key &&
      a.provenance === b.provenance &&
      a.estTokens === b.estTokens &&
      a.tiktokenTokens === b.tiktokenTokens &&
      a.sourceKey === b.sourceKey &&
      sameStrings(a.coversKeys, b.coversKeys) &&
      Object.keys(a).length === Object.keys(b).length)
  );
}

export function sameWireMessage(a: WireMessage, b: WireMessage): boolean {
  return (
    a === b ||
    (a.key === b.key &&
      a.role === b.role &&
      a.origin === b.origin &&
      a.prefix === b.prefix &&
      a.recordedPrefix === b.recordedPrefix &&
      a.suffix === b.suffix &&
      a.text === b.text &&
      Object.keys(a).length === Object.keys(b).length)
  );
}

/** Encodes a list against the previous one, keeping it whole when runs would not be shorter. */
function encodeAgainst<T>(items: T[], base: T[] | undefined, identity: (item: T) => string, same: Same<T>) {
  if (!base || base.length === 0 || items.length === 0) return items;
  const runs = encodeList(items, base, identity, same);
  return runs.length < items.length ? { delta: runs } : items;
}

/** `record` as written after `previous` (the same lane's previous turn; undefined for its first). */
export function encodeTurnRecord(record: TurnRecord, previous: TurnRecord | undefined): EncodedTurnRecord {
  const assembled = encodeAgainst(record.assembled, previous?.assembled, refIdentity, sameRef);
  const sent = record.asSent;
  const asSent = sent
    ? { ...sent, messages: encodeAgainst(sent.messages, previous?.asSent?.messages, wireIdentity, sameWireMessage) }
    : undefined;
  if (assembled === record.assembled && asSent?.messages === sent?.messages) return record;
  return { ...record, assembled, ...(asSent ? { asSent } : {}) };
}

/** The TurnRecord back from what `encodeTurnRecord` wrote; `where` names it in errors (`$.turns.legacy[3]`). */
export function decodeTurnRecord(
  encoded: EncodedTurnRecord,
  previous: TurnRecord | undefined,
  where: string,
): TurnRecord {
  // anything that is not a delta is left as it is, for the schema check to name
  if (!encoded || typeof encoded !== 'object') return encoded as TurnRecord;
  const assembledIn = encoded.assembled;
  const sentIn = encoded.asSent;
  const sentDelta = isDelta(sentIn?.messages);
  if (!isDelta(assembledIn) && !sentDelta) return encoded as TurnRecord;
  const record = { ...encoded } as TurnRecord;
  if (isDelta(assembledIn)) record.assembled = decodeList(assembledIn, previous?.assembled, `${where}.assembled`);
  if (sentIn && sentDelta) {
    const base = previous?.asSent?.messages;
    record.asSent = { ...sentIn, messages: decodeList(sentIn.messages, base, `${where}.asSent.messages`) };
  }
  return record;
}

function isDelta(value: unknown): value is ListDelta<unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'delta' in value;
}

/** Decodes a lane's turns in order (each against the one before it). */
export function decodeLaneTurns(encoded: readonly EncodedTurnRecord[], where: string): TurnRecord[] {
  const turns: TurnRecord[] = [];
  encoded.forEach((record, i) => turns.push(decodeTurnRecord(record, turns[i - 1], `${where}[${i}]`)));
  return turns;
}

/** Encodes a lane's turns in order. */
export function encodeLaneTurns(records: readonly TurnRecord[]): EncodedTurnRecord[] {
  return records.map((record, i) => encodeTurnRecord(record, records[i - 1]));
}
