/**
 * TurnRecords whose `assembled` and `asSent.messages` are lists of a lane's `ListPool` (runs over the items the
 * lane has seen) instead of arrays: the property is read like an array — it is built when asked for — so every
 * consumer keeps `record.assembled`, while a lane of N turns holds about what its session holds, not N copies of
 * its context. Assigning the property replaces it with the value given. The replay shares its lanes' lists as
 * turns are recorded, and `importRecording` decodes format-2 deltas straight into this form.
 */
import type { AssembledRef, TurnRecord, WireMessage, WireView } from '../contract/recording';
import { ListDeltaError, sameRef, sameWireMessage, type EncodedTurnRecord, type ListDelta } from './listDelta';
import { ListPool, type PooledList } from './listPool';

export type AssembledPool = ListPool<AssembledRef>;
export type SentPool = ListPool<WireMessage>;

export const newAssembledPool = (): AssembledPool => new ListPool({ key: (ref) => ref.key, same: sameRef });
export const newSentPool = (): SentPool =>
  new ListPool({ key: (m) => `${m.key ?? ''}\u0000${m.origin}`, same: sameWireMessage });

/** A pooled list with its pool. */
export interface SharedList<T extends object> {
  pool: ListPool<T>;
  list: PooledList;
}

/** The pooled list behind a record's `assembled` or a view's `messages`, by the object holding it. */
const pooledLists = new WeakMap<object, SharedList<object>>();

function definePooled<T extends object>(target: object, field: string, pool: ListPool<T>, list: PooledList): void {
  pooledLists.set(target, { pool, list } as unknown as SharedList<object>);
  Object.defineProperty(target, field, {
    enumerable: true,
    configurable: true,
    get: () => pool.read(list),
    set(value: unknown) {
      pooledLists.delete(this as object);
      Object.defineProperty(this, field, { value, writable: true, enumerable: true, configurable: true });
    },
  });
}

/** The pooled list behind `record.assembled` (undefined when it is a plain array). */
export function pooledAssembled(record: TurnRecord): SharedList<AssembledRef> | undefined {
  return pooledLists.get(record) as SharedList<AssembledRef> | undefined;
}

/** The pooled list behind `view.messages` (undefined when it is a plain array). */
export function pooledMessages(view: WireView): SharedList<WireMessage> | undefined {
  return pooledLists.get(view) as SharedList<WireMessage> | undefined;
}

/** Makes `record.assembled` a list of `pool` (nothing when it already is one). */
export function shareAssembled(record: TurnRecord, pool: AssembledPool): void {
  if (pooledLists.has(record)) return;
  definePooled(record, 'assembled', pool, pool.add(record.assembled));
}

/** Makes `view.messages` a list of `pool` (nothing when it already is one). */
export function shareSentMessages(view: WireView, pool: SentPool): void {
  if (pooledLists.has(view)) return;
  definePooled(view, 'messages', pool, pool.add(view.messages));
}

function isDelta(value: unknown): value is ListDelta<never> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'delta' in value;
}

const deltaError = (message: string) => new ListDeltaError(message);

/**
 * A list as a file holds it (whole, or a delta against the lane's previous turn's list `base`) as a list of
 * `pool`; undefined for anything else (left for the schema check to name).
 */
function pooledFrom<T extends object>(
  encoded: unknown,
  base: PooledList | undefined,
  pool: ListPool<T>,
  where: string,
): PooledList | undefined {
  if (Array.isArray(encoded)) return pool.add(encoded as T[]);
  if (!isDelta(encoded)) return undefined;
  if (!Array.isArray(encoded.delta)) throw deltaError(`${where} is neither a list nor {"delta": [...]}`);
  if (!base) throw deltaError(`${where} is a delta, but its lane has no previous turn to apply it to`);
  return pool.addDelta(encoded.delta as T[], base, where, deltaError);
}

/**
 * A lane's turns as a recording file holds them (format 1 or 2), decoded in order into records whose lists are
 * pooled: `decodeLaneTurns`' result, at the cost of the file rather than of every turn's full lists. Throws
 * `ListDeltaError` naming the place of a delta that does not apply.
 */
export function decodeSharedLaneTurns(encoded: readonly EncodedTurnRecord[], where: string): TurnRecord[] {
  const assembledPool = newAssembledPool();
  const sentPool = newSentPool();
  let previous: { assembled?: PooledList; sent?: PooledList } = {};
  return encoded.map((input, i) => {
    if (!input || typeof input !== 'object') return input as TurnRecord;
    const at = `${where}[${i}]`;
    const record = { ...input } as TurnRecord;
    const assembled = pooledFrom(input.assembled, previous.assembled, assembledPool, `${at}.assembled`);
    if (assembled) definePooled(record, 'assembled', assembledPool, assembled);
    let sent: PooledList | undefined;
    if (input.asSent && typeof input.asSent === 'object') {
      const view = { ...input.asSent } as WireView;
      record.asSent = view;
      sent = pooledFrom(input.asSent.messages, previous.sent, sentPool, `${at}.asSent.messages`);
      if (sent) definePooled(view, 'messages', sentPool, sent);
    }
    previous = { ...(assembled ? { assembled } : {}), ...(sent ? { sent } : {}) };
    return record;
  });
}
