/**
 * `like` nodes: a message the app sends for the first time that is a shallow copy of one the engine host already
 * holds (OpenClaw's sanitize steps spread a message to rewrite a tool-call id or drop `details`, sharing everything
 * else with the original) crosses as the keys it shares with that base plus its new values, instead of in full.
 *
 *   {"$cs":"like","base":{"side":"parent","id":7},"entries":["role",["toolCallId","call1"],"content",…]}
 *
 * An entry that is a string is a key whose value is the base's own (the engine host takes the object it holds, so
 * the copy shares it as it does in the app); `[key, node]` is a new value, where `node` may itself be a `like` node
 * without a base (relative to the base's value at that key) or a `likeArray` node, whose items are `{"$cs":"at",
 * "i":j}` (the base array's element j), a `like` node with `"at":j` (relative to that element), or any other node.
 * Entries keep the copy's key order. Only the app sends these (its bases are its own messages), two levels deep at
 * most; the engine host rejects any that does not fit its base, and the app accepts none.
 */
import { isPlainRecord, WIRE_TAG, WireFormatError, type Json, type Slot } from './wireFormat';

/** What a like encoding asks of the encoder: the ordinary encoding of a value, and cycle tracking. */
export interface LikeEncodeHost {
  value(v: unknown, path: string, depth: number, slot: Slot): Json;
  enter(obj: object, path: string): void;
  leave(obj: object): void;
}

/** What a like decoding asks of the decoder: the ordinary decoding of a node. */
export interface LikeDecodeHost {
  value(node: unknown, depth: number): unknown;
}

/** how many levels below the message a like node may describe (the message, its content array, a block) */
const MAX_LIKE_LEVELS = 2;

type Rec = Record<string, unknown>;

function isLikeable(v: unknown): v is Rec {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    isPlainRecord(v) &&
    !Object.prototype.hasOwnProperty.call(v, WIRE_TAG)
  );
}

function isPlainArray(v: unknown): v is unknown[] {
  return Array.isArray(v) && Object.getPrototypeOf(v) === Array.prototype;
}

function slotOf(key: string, child: unknown): Slot {
  return key === 'messages' && Array.isArray(child) ? 'messages' : key === 'message' ? 'message' : 'none';
}

/** Whether `v` shares a part with `base` within `levels` levels (identity only; nothing is encoded). */
function shares(v: unknown, base: unknown, levels: number): boolean {
  if (isLikeable(v) && isLikeable(base)) {
    for (const key of Object.keys(v)) {
      if (!Object.prototype.hasOwnProperty.call(base, key)) continue;
      if (Object.is(v[key], base[key])) return true;
      if (levels > 0 && slotOf(key, v[key]) === 'none' && shares(v[key], base[key], levels - 1)) return true;
    }
    return false;
  }
  if (isPlainArray(v) && isPlainArray(base)) {
    const n = Math.min(v.length, base.length);
    for (let i = 0; i < n; i++) {
      if (Object.is(v[i], base[i])) return true;
      if (levels > 0 && shares(v[i], base[i], levels - 1)) return true;
    }
  }
  return false;
}

/**
 * `v` as a `like` node relative to `base`, a message the engine host holds as `ref`; undefined when `v` shares
 * nothing with it (then it is sent in full).
 */
export function encodeLike(
  host: LikeEncodeHost,
  v: unknown,
  base: object,
  ref: { side: string; id: number },
  path: string,
  depth: number,
): Json | undefined {
  if (!isLikeable(v) || !isLikeable(base) || !shares(v, base, MAX_LIKE_LEVELS)) return undefined;
  const entries = likeEntries(host, v, base, path, depth, 0);
  return { [WIRE_TAG]: 'like', base: { side: ref.side, id: ref.id }, entries };
}

function likeEntries(host: LikeEncodeHost, v: Rec, base: Rec, path: string, depth: number, level: number): Json[] {
  host.enter(v, path);
  try {
    const entries: Json[] = [];
    for (const key of Object.keys(v)) {
      const child = v[key];
      const own = Object.prototype.hasOwnProperty.call(base, key);
      if (own && Object.is(child, base[key])) {
        entries.push(key);
        continue;
      }
      const slot = slotOf(key, child);
      const nested =
        own && slot === 'none' && level < MAX_LIKE_LEVELS && shares(child, base[key], MAX_LIKE_LEVELS - level - 1);
      entries.push([
        key,
        nested
          ? likeNested(host, child, base[key], `${path}.${key}`, depth + 1, level + 1)
          : host.value(child, `${path}.${key}`, depth + 1, slot),
      ]);
    }
    return entries;
  } finally {
    host.leave(v);
  }
}

/** a value that shares parts with the base's value at the same place (`shares` said so) */
function likeNested(host: LikeEncodeHost, v: unknown, base: unknown, path: string, depth: number, level: number): Json {
  if (isLikeable(v)) return { [WIRE_TAG]: 'like', entries: likeEntries(host, v, base as Rec, path, depth, level) };
  const items: Json[] = [];
  const array = v as unknown[];
  const baseArray = base as unknown[];
  host.enter(array, path);
  try {
    for (let i = 0; i < array.length; i++) {
      const item = array[i];
      const at = `${path}[${i}]`;
      if (i < baseArray.length && Object.is(item, baseArray[i])) items.push({ [WIRE_TAG]: 'at', i });
      else if (level < MAX_LIKE_LEVELS && isLikeable(item) && shares(item, baseArray[i], 0))
        items.push({
          [WIRE_TAG]: 'like',
          at: i,
          entries: likeEntries(host, item, baseArray[i] as Rec, at, depth + 1, level + 1),
        });
      else items.push(host.value(item, at, depth + 1, 'none'));
    }
  } finally {
    host.leave(array);
  }
  return { [WIRE_TAG]: 'likeArray', items };
}

function tagOf(node: unknown): unknown {
  return typeof node === 'object' && node !== null && !Array.isArray(node)
    ? (node as Record<string, unknown>)[WIRE_TAG]
    : undefined;
}

function setOwn(out: Rec, key: string, value: unknown): void {
  // an own "__proto__" key is data, as JSON.parse makes it, never the prototype
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** Decodes a `like` node's entries against `base` (the object the engine host holds). */
export function decodeLike(host: LikeDecodeHost, rec: Record<string, unknown>, base: unknown, depth: number): Rec {
  if (!isLikeable(base)) throw new WireFormatError('a like node must be based on a plain object');
  if (!Array.isArray(rec.entries)) throw new WireFormatError('like node entries must be an array');
  const out: Rec = {};
  for (const entry of rec.entries as unknown[]) {
    if (typeof entry === 'string') {
      if (!Object.prototype.hasOwnProperty.call(base, entry))
        throw new WireFormatError(`like entry "${entry}" names a key its base does not have`);
      setOwn(out, entry, base[entry]);
      continue;
    }
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string')
      throw new WireFormatError('like entry must be a key or a [key, value] pair');
    const key = entry[0];
    const own = Object.prototype.hasOwnProperty.call(base, key) ? base[key] : undefined;
    setOwn(out, key, decodeLikeValue(host, entry[1], own, key, depth + 1));
  }
  return out;
}

function decodeLikeValue(host: LikeDecodeHost, node: unknown, base: unknown, where: string, depth: number): unknown {
  const tag = tagOf(node);
  const rec = node as Record<string, unknown>;
  if (tag === 'like') {
    if ('base' in rec || 'at' in rec) throw new WireFormatError(`a nested like node at "${where}" names its own base`);
    if (!isLikeable(base)) throw new WireFormatError(`like node at "${where}": its base there is not a plain object`);
    return decodeLike(host, rec, base, depth);
  }
  if (tag === 'likeArray') {
    if (!isPlainArray(base)) throw new WireFormatError(`likeArray node at "${where}": its base there is not an array`);
    if (!Array.isArray(rec.items)) throw new WireFormatError('likeArray node items must be an array');
    return (rec.items as unknown[]).map((item) => decodeLikeItem(host, item, base, where, depth + 1));
  }
  return host.value(node, depth);
}

function decodeLikeItem(host: LikeDecodeHost, item: unknown, base: unknown[], where: string, depth: number): unknown {
  const tag = tagOf(item);
  if (tag !== 'at' && tag !== 'like') return host.value(item, depth);
  const rec = item as Record<string, unknown>;
  const at = tag === 'at' ? rec.i : rec.at;
  if (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0 || at >= base.length)
    throw new WireFormatError(`likeArray item at "${where}" refers to element ${String(at)} of ${base.length}`);
  if (tag === 'at') return base[at];
  if ('base' in rec) throw new WireFormatError(`a nested like node at "${where}" names its own base`);
  if (!isLikeable(base[at]))
    throw new WireFormatError(`like node at "${where}[${at}]": its base is not a plain object`);
  return decodeLike(host, rec, base[at], depth);
}
