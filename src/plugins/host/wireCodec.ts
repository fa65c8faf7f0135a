/**
 * Encodes arbitrary values into JSON-safe trees for the engine-host channel, and back.
 *
 * Ordinary JSON loses what engine calls depend on: `availableTools` is a Set, results carry `undefined`
 * fields, errors carry `name`/`code`/`cause`/`issues` (the runtime's strict-validator retry reads them),
 * `prepareSubagentSpawn` returns a `rollback` function and `runtimeContext.llm.complete` is a callback.
 * Tagged nodes (`{"$cs": <tag>, ...}`) carry these; a plain object that happens to own a `$cs` key is
 * escaped as an `object` node so decoding is unambiguous. Functions and AbortSignals are not copied:
 * they become references resolved by the side that exported them (see RpcPeer).
 *
 * Message slots (plain objects inside an array under a `messages` key, or under a `message` key) go through the
 * message reference cache when the context has one (see messageRefTable.ts): `{"$cs":"def","id":n,"value":{..}}`
 * sends an object in full and names it, `{"$cs":"ref","side":s,"id":n}` refers to one sent before, and a
 * `messages` array holding runs of consecutive references is sent as `{"$cs":"array","items":[..]}` whose items
 * may be `{"$cs":"refs","side":s,"from":n,"count":k}` ranges.
 *
 * The app sends a subtree that is plain JSON already (nothing tagged inside, so JSON carries it exactly) as the
 * object itself rather than a copy, and marks the larger ones (`{"$cs":"json","value":..}`) so the engine host
 * takes them as parsed instead of walking them. Only the engine host accepts these nodes: the app walks all a
 * host sends.
 */
import type { MessageRefDecoder, MessageRefEncoder, MessageRef, RefRun } from './messageRefTable';

export const WIRE_TAG = '$cs';
const MAX_DEPTH = 256;

export type WireSide = 'parent' | 'child';

export interface EncodeContext {
  /** registers a function so the other side can call it; returns its id */
  exportFunction(fn: (...args: unknown[]) => unknown): number;
  /** registers an AbortSignal so the other side sees it abort; returns its id */
  exportSignal(signal: AbortSignal): number;
  /** which side is encoding */
  side: WireSide;
  /** resolves a function/signal that came from the other side back to its reference (when re-sent) */
  remoteRef?(value: unknown): { kind: 'fn' | 'signal'; id: number; side: WireSide } | undefined;
  /** the message reference cache for this payload; without it message slots are copied like any object */
  messageRefs?: MessageRefEncoder;
}

export interface DecodeContext {
  side: WireSide;
  importFunction(id: number, name: string): (...args: unknown[]) => Promise<unknown>;
  importSignal(id: number, aborted: boolean, reason: unknown): AbortSignal;
  /** a function/signal this side exported earlier, sent back */
  localFunction(id: number): ((...args: unknown[]) => unknown) | undefined;
  localSignal(id: number): AbortSignal | undefined;
  /** the message reference cache for this payload; without it ref/def nodes are rejected */
  messageRefs?: MessageRefDecoder;
}

export class WireFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireFormatError';
  }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isPlainRecord(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype;
}

const ERROR_BUILTIN_KEYS = new Set(['name', 'message', 'stack', 'cause', 'code']);

type Slot = 'none' | 'message' | 'messages';

function refNode(ref: MessageRef): Json {
  return { [WIRE_TAG]: 'ref', side: ref.side, id: ref.id };
}

/** Plain containers of at least this many values travel as `json` nodes (smaller ones are not worth the wrapper). */
const MIN_JSON_NODE_VALUES = 8;

/**
 * How many values the plain-JSON tree `v` holds, or -1 when JSON would not carry it exactly (undefined,
 * non-finite numbers or -0, anything but plain objects and arrays, a `$cs` key, a message slot when message
 * references are in use) or it nests deeper than `depthLeft`.
 */
function plainJsonValues(v: unknown, depthLeft: number, withMessageSlots: boolean): number {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return 1;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0) ? 1 : -1;
    case 'object':
      break;
    default:
      return -1;
  }
  if (v === null) return 1;
  if (depthLeft <= 0) return -1;
  let total = 1;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return -1;
    for (let i = 0; i < v.length; i++) {
      const n = plainJsonValues(v[i], depthLeft - 1, withMessageSlots);
      if (n < 0) return -1;
      total += n;
    }
    return total;
  }
  if (!isPlainRecord(v)) return -1;
  for (const key of Object.keys(v)) {
    if (key === WIRE_TAG) return -1;
    const child = (v as Record<string, unknown>)[key];
    if (withMessageSlots && (key === 'message' || (key === 'messages' && Array.isArray(child)))) return -1;
    const n = plainJsonValues(child, depthLeft - 1, withMessageSlots);
    if (n < 0) return -1;
    total += n;
  }
  return total;
}

export function encodeWire(value: unknown, ctx: EncodeContext): Json {
  const seen = new Set<object>();
  const cache = ctx.messageRefs;
  // Only the app's own data: a plugin's object could hold a getter that answers differently when serialized.
  const sendsPlainAsIs = ctx.side === 'parent';
  /** a plain object in a message slot: a reference when the peer has it, else (maybe) a definition */
  const messageSlot = (
    v: unknown,
    path: string,
    depth: number,
  ): { node: Json; ref?: MessageRef; defined?: MessageRef } | undefined => {
    if (
      !cache ||
      typeof v !== 'object' ||
      v === null ||
      Array.isArray(v) ||
      !isPlainRecord(v) ||
      Object.prototype.hasOwnProperty.call(v, WIRE_TAG)
    ) {
      return undefined;
    }
    const ref = cache.refOf(v);
    if (ref) return { node: refNode(ref), ref };
    const node = walk(v, path, depth, 'none');
    const id = cache.define(v);
    return id === undefined
      ? { node }
      : { node: { [WIRE_TAG]: 'def', id, value: node }, defined: { side: ctx.side, id } };
  };
  /**
   * A `messages` array: a remembered identical prefix (pointer comparison), then each element as a message slot;
   * runs of ≥ 2 consecutive references become one range and the array an `array` node.
   */
  const messagesArray = (arr: readonly unknown[], path: string, depth: number): Json => {
    const items: Json[] = [];
    let ranged = false;
    /** the run of references being written to the wire */
    let run: RefRun | null = null;
    const flush = () => {
      if (!run) return;
      if (run.count >= 2) {
        items.push({ [WIRE_TAG]: 'refs', side: run.side, from: run.from, count: run.count });
        ranged = true;
      } else {
        items.push(refNode({ side: run.side, id: run.from }));
      }
      run = null;
    };
    const pushRun = (next: RefRun) => {
      if (run && run.side === next.side && run.from + run.count === next.from) run.count += next.count;
      else {
        flush();
        run = { ...next };
      }
    };
    /** the leading elements known to the peer once this payload is committed (references and definitions) */
    const sent: RefRun[] = [];
    let sentLength = 0;
    let leading = true;
    const remember = (next: RefRun | undefined) => {
      if (!leading) return;
      if (!next) {
        leading = false;
        return;
      }
      const last = sent[sent.length - 1];
      if (last && last.side === next.side && last.from + last.count === next.from) last.count += next.count;
      else sent.push({ ...next });
      sentLength += next.count;
    };
    // a remembered identical prefix costs its runs, not one lookup per message
    const known = cache!.knownPrefix?.(arr);
    for (const r of known?.runs ?? []) {
      pushRun(r);
      remember(r);
    }
    for (let i = known?.length ?? 0; i < arr.length; i++) {
      const done = messageSlot(arr[i], `${path}[${i}]`, depth + 1);
      if (done?.ref) pushRun({ side: done.ref.side, from: done.ref.id, count: 1 });
      else {
        flush();
        items.push(done ? done.node : walk(arr[i], `${path}[${i}]`, depth + 1));
      }
      const ref = done?.ref ?? done?.defined;
      remember(ref ? { side: ref.side, from: ref.id, count: 1 } : undefined);
    }
    flush();
    cache!.sentArray?.(arr, sent, sentLength);
    return ranged ? { [WIRE_TAG]: 'array', items } : items;
  };
  const walk = (v: unknown, path: string, depth: number, slot: Slot = 'none'): Json => {
    if (slot === 'message') {
      const done = messageSlot(v, path, depth);
      if (done) return done.node;
    }
    if (depth > MAX_DEPTH) throw new WireFormatError(`value nested deeper than ${MAX_DEPTH} levels at ${path}`);
    switch (typeof v) {
      case 'undefined':
        return { [WIRE_TAG]: 'undefined' };
      case 'boolean':
      case 'string':
        return v;
      case 'number':
        if (Number.isFinite(v) && !Object.is(v, -0)) return v;
        return { [WIRE_TAG]: 'number', value: Object.is(v, -0) ? '-0' : String(v) };
      case 'bigint':
        return { [WIRE_TAG]: 'bigint', value: v.toString() };
      case 'symbol':
        return { [WIRE_TAG]: 'symbol', description: v.description ?? '' };
      case 'function': {
        const ref = ctx.remoteRef?.(v);
        if (ref?.kind === 'fn') return { [WIRE_TAG]: 'fn', id: ref.id, side: ref.side, name: v.name };
        return {
          [WIRE_TAG]: 'fn',
          id: ctx.exportFunction(v as (...args: unknown[]) => unknown),
          side: ctx.side,
          name: v.name,
        };
      }
      case 'object':
        break;
    }
    if (v === null) return null;
    const obj = v as object;
    if (sendsPlainAsIs && slot === 'none') {
      // plain JSON encodes to itself: the object, not a copy (the channel serializes it before anyone can change it)
      const values = plainJsonValues(obj, MAX_DEPTH - depth, cache !== undefined);
      if (values >= 0)
        return values >= MIN_JSON_NODE_VALUES ? { [WIRE_TAG]: 'json', value: obj as Json } : (obj as Json);
    }
    if (seen.has(obj)) throw new WireFormatError(`circular structure at ${path}`);
    seen.add(obj);
    try {
      if (Array.isArray(obj)) {
        if (slot === 'messages' && cache) return messagesArray(obj, path, depth);
        const out: Json[] = [];
        for (let i = 0; i < obj.length; i++) out.push(walk(obj[i], `${path}[${i}]`, depth + 1));
        return out;
      }
      if (obj instanceof Set) {
        return { [WIRE_TAG]: 'set', values: [...obj].map((x, i) => walk(x, `${path}<set ${i}>`, depth + 1)) };
      }
      if (obj instanceof Map) {
        return {
          [WIRE_TAG]: 'map',
          entries: [...obj].map(([k, x], i) => [
            walk(k, `${path}<map key ${i}>`, depth + 1),
            walk(x, `${path}<map ${i}>`, depth + 1),
          ]),
        };
      }
      if (obj instanceof Date)
        return { [WIRE_TAG]: 'date', value: Number.isNaN(obj.getTime()) ? null : obj.toISOString() };
      if (obj instanceof RegExp) return { [WIRE_TAG]: 'regexp', source: obj.source, flags: obj.flags };
      if (typeof AbortSignal !== 'undefined' && obj instanceof AbortSignal) {
        const ref = ctx.remoteRef?.(obj);
        if (ref?.kind === 'signal')
          return { [WIRE_TAG]: 'signal', id: ref.id, side: ref.side, aborted: obj.aborted, reason: null };
        return {
          [WIRE_TAG]: 'signal',
          id: ctx.exportSignal(obj),
          side: ctx.side,
          aborted: obj.aborted,
          reason: obj.aborted ? walk(obj.reason, `${path}.reason`, depth + 1) : null,
        };
      }
      if (obj instanceof Error) {
        const props: Record<string, Json> = {};
        for (const key of Object.keys(obj)) {
          if (!ERROR_BUILTIN_KEYS.has(key))
            props[key] = walk((obj as unknown as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
        }
        // AggregateError keeps `errors` as a non-enumerable own property
        if (!('errors' in props) && Array.isArray((obj as { errors?: unknown }).errors)) {
          props.errors = walk((obj as unknown as { errors: unknown[] }).errors, `${path}.errors`, depth + 1);
        }
        const node: Record<string, Json> = {
          [WIRE_TAG]: 'error',
          name: String(obj.name),
          message: String(obj.message),
          stack: typeof obj.stack === 'string' ? obj.stack : null,
          props,
        };
        const code = (obj as { code?: unknown }).code;
        if (code !== undefined) node.code = walk(code, `${path}.code`, depth + 1);
        if ('cause' in obj) node.cause = walk((obj as { cause?: unknown }).cause, `${path}.cause`, depth + 1);
        return node;
      }
      if (ArrayBuffer.isView(obj)) {
        const bytes = new Uint8Array(obj.buffer, obj.byteOffset, obj.byteLength);
        return { [WIRE_TAG]: 'bytes', base64: Buffer.from(bytes).toString('base64') };
      }
      const entries: Record<string, Json> = {};
      let hasTagKey = false;
      for (const key of Object.keys(obj)) {
        if (key === WIRE_TAG) hasTagKey = true;
        const child = (obj as Record<string, unknown>)[key];
        const childSlot: Slot =
          key === 'messages' && Array.isArray(child) ? 'messages' : key === 'message' ? 'message' : 'none';
        entries[key] = walk(child, `${path}.${key}`, depth + 1, childSlot);
      }
      if (hasTagKey || !isPlainRecord(obj)) {
        // class instances travel as their own enumerable data (what structured clone does too)
        return { [WIRE_TAG]: 'object', entries: Object.entries(entries) as unknown as Json };
      }
      return entries;
    } finally {
      seen.delete(obj);
    }
  };
  return walk(value, '$', 0);
}

function asRecord(node: unknown, what: string): Record<string, unknown> {
  if (typeof node !== 'object' || node === null || Array.isArray(node))
    throw new WireFormatError(`${what} must be an object`);
  return node as Record<string, unknown>;
}

function expectString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new WireFormatError(`${what} must be a string`);
  return value;
}

function expectId(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new WireFormatError(`${what} must be a non-negative integer`);
  return value;
}

function expectPositiveId(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw new WireFormatError(`${what} must be a positive integer`);
  return value;
}

function unknownRef(side: WireSide, id: unknown): WireFormatError {
  return new WireFormatError(
    `message reference ${side}#${String(id)} is unknown (never sent to this process, or sent to an earlier host)`,
  );
}

/**
 * Decodes a tree produced by encodeWire. Throws WireFormatError for anything malformed (never trusts the sender).
 * Decodes in place: plain objects and arrays of `node` are reused (their tagged members replaced), so `node` must be
 * the caller's to consume, as a freshly parsed channel message is; copying it would double the work per payload.
 */
export function decodeWire(node: unknown, ctx: DecodeContext): unknown {
  const refs = ctx.messageRefs;
  // only the app needs to know which objects came as copies (see messageRefTable.ts)
  const tracksCopies = refs !== undefined && ctx.side === 'parent';
  const resolveRef = (side: unknown, id: unknown): object => {
    if (!refs) throw new WireFormatError('message references are not accepted here');
    if (side !== 'parent' && side !== 'child')
      throw new WireFormatError('message reference side must be "parent" or "child"');
    const known = refs.resolve(side, expectPositiveId(id, 'message reference id'));
    if (!known) throw unknownRef(side, id);
    return known;
  };
  /** objects decoded in message slots: ones that came in full are copies the receiver never assigns ids to */
  const markReceived = (value: unknown, isArray: boolean): void => {
    for (const item of isArray ? (Array.isArray(value) ? value : []) : [value]) {
      if (typeof item === 'object' && item !== null && !Array.isArray(item)) refs!.received(item);
    }
  };
  const walk = (n: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new WireFormatError(`value nested deeper than ${MAX_DEPTH} levels`);
    if (n === null || typeof n === 'boolean' || typeof n === 'string') return n;
    if (typeof n === 'number') {
      if (!Number.isFinite(n)) throw new WireFormatError('non-finite number outside a number node');
      return n;
    }
    if (Array.isArray(n)) {
      for (let i = 0; i < n.length; i++) {
        const item: unknown = n[i];
        const value = walk(item, depth + 1);
        if (value !== item) n[i] = value;
      }
      return n;
    }
    if (typeof n !== 'object') throw new WireFormatError(`unexpected ${typeof n} in wire value`);
    const rec = n as Record<string, unknown>;
    if (!Object.prototype.hasOwnProperty.call(rec, WIRE_TAG)) {
      if (!isPlainRecord(rec)) throw new WireFormatError('wire objects must be plain data');
      for (const key of Object.keys(rec)) {
        // every key is an own data property: an own "__proto__" (JSON.parse makes one) shadows the prototype
        // accessor, so reading and writing it touch data, never the prototype
        const item = rec[key];
        const value = walk(item, depth + 1);
        if (tracksCopies && (key === 'messages' || key === 'message')) markReceived(value, key === 'messages');
        if (value !== item) rec[key] = value;
      }
      return rec;
    }
    const tag = rec[WIRE_TAG];
    switch (tag) {
      case 'undefined':
        return undefined;
      case 'number': {
        const text = expectString(rec.value, 'number node value');
        if (text === 'NaN') return NaN;
        if (text === 'Infinity') return Infinity;
        if (text === '-Infinity') return -Infinity;
        if (text === '-0') return -0;
        throw new WireFormatError(`number node with unsupported value "${text}"`);
      }
      case 'bigint': {
        const text = expectString(rec.value, 'bigint node value');
        if (!/^-?\d+$/.test(text)) throw new WireFormatError('bigint node value must be an integer string');
        return BigInt(text);
      }
      case 'symbol':
        return Symbol(expectString(rec.description, 'symbol description'));
      case 'set': {
        if (!Array.isArray(rec.values)) throw new WireFormatError('set node values must be an array');
        return new Set(rec.values.map((x) => walk(x, depth + 1)));
      }
      case 'map': {
        if (!Array.isArray(rec.entries)) throw new WireFormatError('map node entries must be an array');
        return new Map(
          rec.entries.map((pair) => {
            if (!Array.isArray(pair) || pair.length !== 2)
              throw new WireFormatError('map entry must be a [key, value] pair');
            return [walk(pair[0], depth + 1), walk(pair[1], depth + 1)] as const;
          }),
        );
      }
      case 'date':
        return rec.value === null ? new Date(NaN) : new Date(expectString(rec.value, 'date value'));
      case 'regexp':
        return new RegExp(expectString(rec.source, 'regexp source'), expectString(rec.flags, 'regexp flags'));
      case 'bytes':
        return new Uint8Array(Buffer.from(expectString(rec.base64, 'bytes base64'), 'base64'));
      case 'error': {
        const error = new Error(expectString(rec.message, 'error message'));
        const name = expectString(rec.name, 'error name');
        // name as an own property: the runtime's abort detection reads error.name === 'AbortError'
        Object.defineProperty(error, 'name', { value: name, enumerable: false, writable: true, configurable: true });
        if (typeof rec.stack === 'string') error.stack = rec.stack;
        else if (rec.stack !== null && rec.stack !== undefined)
          throw new WireFormatError('error stack must be a string or null');
        if ('code' in rec) (error as { code?: unknown }).code = walk(rec.code, depth + 1);
        if ('cause' in rec) (error as { cause?: unknown }).cause = walk(rec.cause, depth + 1);
        const props = asRecord(rec.props ?? {}, 'error props');
        for (const key of Object.keys(props)) {
          if (key === '__proto__' || key === 'constructor') continue;
          (error as unknown as Record<string, unknown>)[key] = walk(props[key], depth + 1);
        }
        return error;
      }
      case 'object': {
        if (!Array.isArray(rec.entries)) throw new WireFormatError('object node entries must be an array');
        const out: Record<string, unknown> = {};
        for (const pair of rec.entries) {
          if (!Array.isArray(pair) || pair.length !== 2)
            throw new WireFormatError('object entry must be a [key, value] pair');
          Object.defineProperty(out, expectString(pair[0], 'object key'), {
            value: walk(pair[1], depth + 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return out;
      }
      case 'fn': {
        const id = expectId(rec.id, 'fn id');
        const side = rec.side;
        if (side === ctx.side) {
          const local = ctx.localFunction(id);
          if (!local) throw new WireFormatError(`function reference ${id} is unknown or no longer available`);
          return local;
        }
        if (side !== 'parent' && side !== 'child') throw new WireFormatError('fn side must be "parent" or "child"');
        return ctx.importFunction(id, typeof rec.name === 'string' ? rec.name : '');
      }
      case 'signal': {
        const id = expectId(rec.id, 'signal id');
        const side = rec.side;
        if (side === ctx.side) {
          const local = ctx.localSignal(id);
          if (!local) throw new WireFormatError(`signal reference ${id} is unknown or no longer available`);
          return local;
        }
        if (side !== 'parent' && side !== 'child') throw new WireFormatError('signal side must be "parent" or "child"');
        if (typeof rec.aborted !== 'boolean') throw new WireFormatError('signal aborted must be a boolean');
        return ctx.importSignal(id, rec.aborted, rec.aborted ? walk(rec.reason, depth + 1) : undefined);
      }
      case 'json':
        if (ctx.side !== 'child') throw new WireFormatError('json nodes are accepted only from the app');
        if (!Object.prototype.hasOwnProperty.call(rec, 'value')) throw new WireFormatError('json node without a value');
        return rec.value;
      case 'ref':
        return resolveRef(rec.side, rec.id);
      case 'def': {
        if (!refs) throw new WireFormatError('message definitions are not accepted here');
        const id = expectPositiveId(rec.id, 'message definition id');
        asRecord(rec.value, 'message definition value');
        const value = walk(rec.value, depth + 1);
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          throw new WireFormatError(`message definition ${id} must hold an object`);
        const problem = refs.define(id, value);
        if (problem) throw new WireFormatError(problem);
        return value;
      }
      case 'array': {
        if (!Array.isArray(rec.items)) throw new WireFormatError('array node items must be an array');
        const out: unknown[] = [];
        for (const item of rec.items) {
          if (
            typeof item === 'object' &&
            item !== null &&
            !Array.isArray(item) &&
            (item as Record<string, unknown>)[WIRE_TAG] === 'refs'
          ) {
            const range = item as Record<string, unknown>;
            const from = expectPositiveId(range.from, 'reference range start');
            const count = expectPositiveId(range.count, 'reference range count');
            if (!Number.isSafeInteger(from + count)) throw new WireFormatError('reference range is out of bounds');
            // side and ids checked once for the range; then one lookup per id
            const side = range.side;
            out.push(resolveRef(side, from));
            const typedSide = side as WireSide;
            for (let id = from + 1; id < from + count; id++) {
              const known = refs!.resolve(typedSide, id);
              if (!known) throw unknownRef(typedSide, id);
              out.push(known);
            }
          } else {
            out.push(walk(item, depth + 1));
          }
        }
        return out;
      }
      case 'refs':
        throw new WireFormatError('a reference range may only appear directly inside an array node');
      default:
        throw new WireFormatError(`unknown wire tag ${JSON.stringify(tag)}`);
    }
  };
  return walk(node, 0);
}

/** Encode/decode contexts for plain data (no functions or signals allowed); used for reports and tests. */
export const DATA_ONLY_ENCODE: EncodeContext = {
  side: 'child',
  exportFunction: () => {
    throw new WireFormatError('functions cannot be sent here');
  },
  exportSignal: () => {
    throw new WireFormatError('AbortSignals cannot be sent here');
  },
};
export const DATA_ONLY_DECODE: DecodeContext = {
  side: 'parent',
  importFunction: () => {
    throw new WireFormatError('functions cannot be received here');
  },
  importSignal: () => {
    throw new WireFormatError('AbortSignals cannot be received here');
  },
  localFunction: () => undefined,
  localSignal: () => undefined,
};
