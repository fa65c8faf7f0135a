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
