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

function writeCanonical(value: unknown, out: string[]): void {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    const json = JSON.stringify(value);
    out.push(json === undefined ? 'null' : json);
    return;
  }
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') {
    writeCanonical(withToJson.toJSON(), out);
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      const item = value[i];
      writeCanonical(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item, out);
    }
    out.push(']');
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  out.push('{');
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    writeCanonical(item, out);
  }
  out.push('}');
}

/** JSON with object keys sorted at every level; otherwise identical to JSON.stringify. */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  writeCanonical(value, out);
  return out.join('');
}

/** Full sha1 (hex) of the canonical JSON of `value`. */
export function contentHash(value: unknown): string {
  return createHash('sha1').update(canonicalJson(value)).digest('hex');
}

/** `h:<16 hex digits>` — the content key of a message without an entry id. */
export function hashKeyOf(value: unknown): string {
  return HASH_KEY_PREFIX + contentHash(value).slice(0, HASH_KEY_HEX_DIGITS);
}

/** The identity key: the entry id when there is one, else the content key. */
export function messageKeyOf(message: unknown, entryId?: string | null): string {
  return typeof entryId === 'string' && entryId.length > 0 ? entryId : hashKeyOf(message);
}

export function isHashKey(key: string): boolean {
  return key.startsWith(HASH_KEY_PREFIX);
}

/**
 * True only when `a` and `b` are the same plain JSON value (strings, numbers, booleans,
 * null, arrays, plain objects whose properties are all defined). Anything else — `toJSON`, undefined/function
 * properties — answers false, so equality here always implies equal canonical JSON (false negatives only cost a
 * hash).
 */
function samePlainJson(a: unknown, b: unknown): boolean {
  if (a === b)
    return typeof a !== 'function' && typeof a !== 'symbol' && typeof a !== 'undefined' && typeof a !== 'bigint';
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (
    typeof (a as { toJSON?: unknown }).toJSON === 'function' ||
    typeof (b as { toJSON?: unknown }).toJSON === 'function'
  )
    return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!samePlainJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  const recA = a as Record<string, unknown>;
  const recB = b as Record<string, unknown>;
  for (const key of keysA) {
    if (!Object.prototype.hasOwnProperty.call(recB, key) || !samePlainJson(recA[key], recB[key])) return false;
  }
  return true;
}

/** How many differently-hashed contents are kept per role/timestamp for twin lookups. */
const TWINS_PER_SLOT = 4;

export interface HashKeyCache {
  /** `hashKeyOf(message)`, computed at most once per object and reused for deep-equal copies */
  keyOf(message: unknown): string;
  /** Register an object whose `hashKeyOf` is already known (e.g. the reference transcript's messages). */
  remember(message: object, key: string): void;
}

/**
 * Content keys for a replay: each object is hashed once (WeakMap), and a fresh copy of a message seen before
 * (a message that crossed the engine-host IPC again) gets the key of the earlier copy it is deep-equal to — found
 * by role and timestamp — instead of being serialized and hashed again. Same keys as `hashKeyOf`.
 */
export function createHashKeyCache(): HashKeyCache {
  const byObject = new WeakMap<object, string>();
  const twins = new Map<string, { value: object; key: string }[]>();
  const slotOf = (message: object): string => {
    const record = message as { role?: unknown; timestamp?: unknown };
    return `${String(record.role)}\u0000${String(record.timestamp)}`;
  };
  const addTwin = (slot: string, value: object, key: string): void => {
    let list = twins.get(slot);
    if (!list) twins.set(slot, (list = []));
    list.unshift({ value, key });
    if (list.length > TWINS_PER_SLOT) list.pop();
  };
  return {
    keyOf(message: unknown): string {
      if (message === null || typeof message !== 'object') return hashKeyOf(message);
      const known = byObject.get(message);
      if (known !== undefined) return known;
      const slot = slotOf(message);
      for (const candidate of twins.get(slot) ?? []) {
        if (samePlainJson(message, candidate.value)) {
          byObject.set(message, candidate.key);
          return candidate.key;
        }
      }
      const key = hashKeyOf(message);
      byObject.set(message, key);
      addTwin(slot, message, key);
      return key;
    },
    remember(message: object, key: string): void {
      if (byObject.has(message)) return;
      byObject.set(message, key);
      addTwin(slotOf(message), message, key);
    },
  };
}
