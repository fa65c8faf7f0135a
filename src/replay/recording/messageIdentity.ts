/**
 * Message identity: the key that aligns one message across lanes and turns.
 *
 * - A message that came from a transcript entry is keyed by the entry id (ids are opaque strings).
 * - Any other message (an engine's summary, a modified copy, a message that crossed the engine-host IPC) is keyed
 *   by its content: `h:` + the first 16 hex digits of sha1(canonical JSON). Canonical JSON sorts object keys and
 *   follows JSON.stringify for everything else (undefined properties are dropped, non-finite numbers become null),
 *   so a deep copy of a message hashes like the original. 64 bits keep keys short in recordings of 1,000 turns;
 *   a collision needs ~4 billion distinct messages.
 */
import { createHash } from 'node:crypto';

export const HASH_KEY_PREFIX = 'h:';
const HASH_KEY_HEX_DIGITS = 16;

/** A value still to write, or text to emit as it is (brackets, commas, keys). */
type CanonicalFrame = { value: unknown } | string;

const isSkipped = (item: unknown) => item === undefined || typeof item === 'function' || typeof item === 'symbol';

/** The frames of an array or object, in the order they are written (the caller pushes them reversed). */
function childFrames(value: object): CanonicalFrame[] {
  if (Array.isArray(value)) {
    const frames: CanonicalFrame[] = ['['];
    for (let i = 0; i < value.length; i++) {
      if (i > 0) frames.push(',');
      const item: unknown = value[i];
      frames.push({ value: isSkipped(item) ? null : item });
    }
    frames.push(']');
    return frames;
  }
  const record = value as Record<string, unknown>;
  const frames: CanonicalFrame[] = ['{'];
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (isSkipped(item)) continue;
    frames.push(`${frames.length > 1 ? ',' : ''}${JSON.stringify(key)}:`, { value: item });
  }
  frames.push('}');
  return frames;
}

/**
 * JSON with object keys sorted at every level; otherwise identical to JSON.stringify. Written with an explicit
 * stack, so a value nested 100,000 levels deep cannot overflow the call stack.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: CanonicalFrame[] = [{ value }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (typeof frame === 'string') {
      out.push(frame);
      continue;
    }
    const current = frame.value;
    if (current === null || typeof current !== 'object') {
      if (typeof current === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
      const json = JSON.stringify(current);
      out.push(json === undefined ? 'null' : json);
      continue;
    }
    const withToJson = current as { toJSON?: () => unknown };
    if (typeof withToJson.toJSON === 'function') {
      stack.push({ value: withToJson.toJSON() });
      continue;
    }
    const frames = childFrames(current);
    for (let i = frames.length - 1; i >= 0; i--) stack.push(frames[i]!);
  }
  return out.join('');
}

/** Full sha1 (hex) of the canonical JSON of `value`. */
export function canonicalContentHash(value: unknown): string {
  return createHash('sha1').update(canonicalJson(value)).digest('hex');
}

/** `h:<16 hex digits>` — the content key of a message without an entry id. */
export function hashKeyOf(value: unknown): string {
  return HASH_KEY_PREFIX + canonicalContentHash(value).slice(0, HASH_KEY_HEX_DIGITS);
}

/** The identity key: the entry id when there is one, else the content key. */
export function messageKeyOf(message: unknown, entryId?: string | null): string {
  return typeof entryId === 'string' && entryId.length > 0 ? entryId : hashKeyOf(message);
}

export function isHashKey(key: string): boolean {
  return key.startsWith(HASH_KEY_PREFIX);
}

const SAME_PLAIN_JSON_MAX_DEPTH = 256;

/**
 * True only when `a` and `b` are the same plain JSON value (strings, numbers, booleans,
 * null, arrays, plain objects whose properties are all defined). Anything else — `toJSON`, undefined/function
 * properties — answers false, so equality here always implies equal canonical JSON (false negatives only cost a
 * hash).
 */
function samePlainJson(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b)
    return typeof a !== 'function' && typeof a !== 'symbol' && typeof a !== 'undefined' && typeof a !== 'bigint';
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (
    typeof (a as { toJSON?: unknown }).toJSON === 'function' ||
    typeof (b as { toJSON?: unknown }).toJSON === 'function'
  )
    return false;
  // deeper than any real message: answer "not known equal" instead of recursing further (costs only a hash)
  if (depth > SAME_PLAIN_JSON_MAX_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!samePlainJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  const recA = a as Record<string, unknown>;
  const recB = b as Record<string, unknown>;
  for (const key of keysA) {
    if (!Object.prototype.hasOwnProperty.call(recB, key) || !samePlainJson(recA[key], recB[key], depth + 1))
      return false;
  }
  return true;
}

/**
 * A content key, or how to compute it: the reference transcript's keys are hashed only when something asks for
 * them (a lookup by content), not before the first turn. Computed at most once.
 */
export type LazyKey = string | (() => string);

/** A lazy key's value, computed once: `lazyKey(() => …)` memoizes the thunk. */
export function lazyKey(compute: () => string): () => string {
  let key: string | undefined;
  return () => (key ??= compute());
}

const keyValue = (key: LazyKey): string => (typeof key === 'string' ? key : key());

/** How many differently-hashed contents are kept per role/timestamp for twin lookups. */
const TWINS_PER_SLOT = 4;

export interface HashKeyCache {
  /** `hashKeyOf(message)`, computed at most once per object and reused for deep-equal copies */
  keyOf(message: unknown): string;
  /** Register an object whose `hashKeyOf` is known or computable (e.g. the reference transcript's messages). */
  remember(message: object, key: LazyKey): void;
}

/** A role or timestamp as part of a twin slot: objects share one slot by kind (their own `toString` may throw). */
function slotPart(value: unknown): string {
  return value !== null && (typeof value === 'object' || typeof value === 'function')
    ? `(${typeof value})`
    : String(value);
}

/**
 * Content keys for a replay: each object is hashed once (WeakMap), and a fresh copy of a message seen before
 * (a message that crossed the engine-host IPC again) gets the key of the earlier copy it is deep-equal to — found
 * by role and timestamp — instead of being serialized and hashed again. Same keys as `hashKeyOf`.
 */
export function createHashKeyCache(): HashKeyCache {
  const byObject = new WeakMap<object, LazyKey>();
  const twins = new Map<string, { value: object; key: LazyKey }[]>();
  const slotOf = (message: object): string => {
    const record = message as { role?: unknown; timestamp?: unknown };
    return `${slotPart(record.role)}\u0000${slotPart(record.timestamp)}`;
  };
  const addTwin = (slot: string, value: object, key: LazyKey): void => {
    let list = twins.get(slot);
    if (!list) twins.set(slot, (list = []));
    list.unshift({ value, key });
    if (list.length > TWINS_PER_SLOT) list.pop();
  };
  return {
    keyOf(message: unknown): string {
      if (message === null || typeof message !== 'object') return hashKeyOf(message);
      const known = byObject.get(message);
      if (typeof known === 'string') return known;
      if (known !== undefined) {
        const key = known();
        byObject.set(message, key);
        return key;
      }
      const slot = slotOf(message);
      for (const candidate of twins.get(slot) ?? []) {
        if (samePlainJson(message, candidate.value)) {
          const key = (candidate.key = keyValue(candidate.key));
          byObject.set(message, key);
          return key;
        }
      }
      const key = hashKeyOf(message);
      byObject.set(message, key);
      addTwin(slot, message, key);
      return key;
    },
    remember(message: object, key: LazyKey): void {
      if (byObject.has(message)) return;
      // one computation shared by the object's entry and its twin entry
      const once = typeof key === 'string' ? key : lazyKey(key);
      byObject.set(message, once);
      addTwin(slotOf(message), message, once);
    },
  };
}
