/** encodeWire: any value to the JSON-safe tree of the wire format (described in wireCodec.ts). */
import type { MessageRef, MessageRefEncoder, RefRun } from './messageRefTable';
import { hostProvidedName } from './hostProvidedFunctions';
import type { EncodeContext } from './wireContext';
import { isPlainRecord, MAX_DEPTH, WIRE_TAG, WireFormatError, type Json, type Slot } from './wireFormat';
import { encodeLike, type LikeEncodeHost } from './wireLike';

const ERROR_BUILTIN_KEYS = new Set(['name', 'message', 'stack', 'cause', 'code']);

/** Plain containers of at least this many values travel as `json` nodes (smaller ones are not worth the wrapper). */
const MIN_JSON_NODE_VALUES = 8;

/** A message slot's encoding: the node, and the reference it used or the id it defined (if any). */
interface SlotEncoding {
  node: Json;
  ref?: MessageRef;
  defined?: MessageRef;
}

function refNode(ref: MessageRef): Json {
  return { [WIRE_TAG]: 'ref', side: ref.side, id: ref.id };
}

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
  if (Array.isArray(v)) return plainJsonArrayValues(v, depthLeft, withMessageSlots);
  if (!isPlainRecord(v)) return -1;
  let total = 1;
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

function plainJsonArrayValues(v: unknown[], depthLeft: number, withMessageSlots: boolean): number {
  if (Object.getPrototypeOf(v) !== Array.prototype) return -1;
  let total = 1;
  for (let i = 0; i < v.length; i++) {
    const n = plainJsonValues(v[i], depthLeft - 1, withMessageSlots);
    if (n < 0) return -1;
    total += n;
  }
  return total;
}

function encodeNumber(v: number): Json {
  if (Number.isFinite(v) && !Object.is(v, -0)) return v;
  return { [WIRE_TAG]: 'number', value: Object.is(v, -0) ? '-0' : String(v) };
}

function encodeBytes(view: ArrayBufferView): Json {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  return { [WIRE_TAG]: 'bytes', base64: Buffer.from(bytes).toString('base64') };
}

/** The items of a `messages` array on the wire: runs of ≥ 2 consecutive references become one `refs` range. */
class RefRunWriter {
  readonly items: Json[] = [];
  /** whether any range was written (the array then travels as an `array` node) */
  ranged = false;
  /** the run of references being written */
  private run: RefRun | null = null;

  push(node: Json): void {
    this.flush();
    this.items.push(node);
  }

  /** the elements of the peer's copy of array `id` up to `length` (only ever the first item) */
  pushPrefix(id: number, length: number): void {
    this.items.push({ [WIRE_TAG]: 'prefix', array: id, length });
    this.ranged = true;
  }

  pushRun(next: RefRun): void {
    const run = this.run;
    if (run && run.side === next.side && run.from + run.count === next.from) run.count += next.count;
    else {
      this.flush();
      this.run = { ...next };
    }
  }

  flush(): void {
    const run = this.run;
    if (!run) return;
    if (run.count >= 2) {
      this.items.push({ [WIRE_TAG]: 'refs', side: run.side, from: run.from, count: run.count });
      this.ranged = true;
    } else {
      this.items.push(refNode({ side: run.side, id: run.from }));
    }
    this.run = null;
  }
}

/** The leading elements of a `messages` array the peer knows once the payload is committed (refs and definitions). */
class SentPrefix {
  runs: RefRun[] = [];
  length = 0;
  private leading = true;

  /** starts from a remembered prefix's runs (shared: copied, and its last run too, since it may grow) */
  adopt(runs: readonly RefRun[], length: number): void {
    this.runs = runs.slice();
    const last = this.runs[this.runs.length - 1];
    if (last) this.runs[this.runs.length - 1] = { ...last };
    this.length = length;
  }

  /** the next element's reference, or undefined for one sent as a copy (which ends the prefix) */
  remember(next: RefRun | undefined): void {
    if (!this.leading) return;
    if (!next) {
      this.leading = false;
      return;
    }
    const last = this.runs[this.runs.length - 1];
    if (last && last.side === next.side && last.from + last.count === next.from) last.count += next.count;
    else this.runs.push({ ...next });
    this.length += next.count;
  }
}

/** One encodeWire call: the path of objects being walked (cycle detection) and the channel's contexts. */
class WireEncoder {
  private readonly seen = new Set<object>();
  private readonly cache: MessageRefEncoder | undefined;
  // Only the app's own data: a plugin's object could hold a getter that answers differently when serialized.
  private readonly sendsPlainAsIs: boolean;

  constructor(private readonly ctx: EncodeContext) {
    this.cache = ctx.messageRefs;
    this.sendsPlainAsIs = ctx.side === 'parent';
  }

  private readonly likeHost: LikeEncodeHost = {
    value: (v, path, depth, slot) => this.value(v, path, depth, slot),
    enter: (obj, path) => {
      if (this.seen.has(obj)) throw new WireFormatError(`circular structure at ${path}`);
      this.seen.add(obj);
    },
    leave: (obj) => this.seen.delete(obj),
  };

  value(v: unknown, path: string, depth: number, slot: Slot = 'none'): Json {
    if (slot === 'message') {
      const done = this.messageSlot(v, path, depth);
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
        return encodeNumber(v);
      case 'bigint':
        return { [WIRE_TAG]: 'bigint', value: v.toString() };
      case 'symbol':
        return { [WIRE_TAG]: 'symbol', description: v.description ?? '' };
      case 'function':
        return this.fn(v as (...args: unknown[]) => unknown);
      case 'object':
        break;
    }
    if (v === null) return null;
    return this.object(v as object, path, depth, slot);
  }

  private fn(v: (...args: unknown[]) => unknown): Json {
    const provided = this.ctx.side === 'parent' ? hostProvidedName(v) : undefined;
    if (provided) return { [WIRE_TAG]: 'provided', name: provided };
    const ref = this.ctx.remoteRef?.(v);
    if (ref?.kind === 'fn') return { [WIRE_TAG]: 'fn', id: ref.id, side: ref.side, name: v.name };
    return { [WIRE_TAG]: 'fn', id: this.ctx.exportFunction(v), side: this.ctx.side, name: v.name };
  }

  private object(obj: object, path: string, depth: number, slot: Slot): Json {
    if (this.sendsPlainAsIs && slot === 'none') {
      // plain JSON encodes to itself: the object, not a copy (the channel serializes it before anyone can change it)
      const values = plainJsonValues(obj, MAX_DEPTH - depth, this.cache !== undefined);
      if (values >= 0)
        return values >= MIN_JSON_NODE_VALUES ? { [WIRE_TAG]: 'json', value: obj as Json } : (obj as Json);
    }
    if (this.seen.has(obj)) throw new WireFormatError(`circular structure at ${path}`);
    this.seen.add(obj);
    try {
      return this.container(obj, path, depth, slot);
    } finally {
      this.seen.delete(obj);
    }
  }

  private container(obj: object, path: string, depth: number, slot: Slot): Json {
    if (Array.isArray(obj)) {
      return slot === 'messages' && this.cache ? this.messagesArray(obj, path, depth) : this.array(obj, path, depth);
    }
    if (obj instanceof Set) {
      return { [WIRE_TAG]: 'set', values: [...obj].map((x, i) => this.value(x, `${path}<set ${i}>`, depth + 1)) };
    }
    if (obj instanceof Map) return this.map(obj, path, depth);
    if (obj instanceof Date)
      return { [WIRE_TAG]: 'date', value: Number.isNaN(obj.getTime()) ? null : obj.toISOString() };
    if (obj instanceof RegExp) return { [WIRE_TAG]: 'regexp', source: obj.source, flags: obj.flags };
    if (typeof AbortSignal !== 'undefined' && obj instanceof AbortSignal) return this.signal(obj, path, depth);
    if (obj instanceof Error) return this.error(obj, path, depth);
    if (ArrayBuffer.isView(obj)) return encodeBytes(obj);
    return this.record(obj, path, depth);
  }

  private array(arr: unknown[], path: string, depth: number): Json {
    const out: Json[] = [];
    for (let i = 0; i < arr.length; i++) out.push(this.value(arr[i], `${path}[${i}]`, depth + 1));
    return out;
  }

  private map(map: Map<unknown, unknown>, path: string, depth: number): Json {
    return {
      [WIRE_TAG]: 'map',
      entries: [...map].map(([k, x], i) => [
        this.value(k, `${path}<map key ${i}>`, depth + 1),
        this.value(x, `${path}<map ${i}>`, depth + 1),
      ]),
    };
  }

  private signal(signal: AbortSignal, path: string, depth: number): Json {
    const ref = this.ctx.remoteRef?.(signal);
    if (ref?.kind === 'signal')
      return { [WIRE_TAG]: 'signal', id: ref.id, side: ref.side, aborted: signal.aborted, reason: null };
    return {
      [WIRE_TAG]: 'signal',
      id: this.ctx.exportSignal(signal),
      side: this.ctx.side,
      aborted: signal.aborted,
      reason: signal.aborted ? this.value(signal.reason, `${path}.reason`, depth + 1) : null,
    };
  }

  private error(error: Error, path: string, depth: number): Json {
    const own = error as unknown as Record<string, unknown>;
    const props: Record<string, Json> = {};
    for (const key of Object.keys(error)) {
      if (!ERROR_BUILTIN_KEYS.has(key)) props[key] = this.value(own[key], `${path}.${key}`, depth + 1);
    }
    // AggregateError keeps `errors` as a non-enumerable own property
    if (!('errors' in props) && Array.isArray(own.errors)) {
      props.errors = this.value(own.errors, `${path}.errors`, depth + 1);
    }
    const node: Record<string, Json> = {
      [WIRE_TAG]: 'error',
      name: String(error.name),
      message: String(error.message),
      stack: typeof error.stack === 'string' ? error.stack : null,
      props,
    };
    const code = own.code;
    if (code !== undefined) node.code = this.value(code, `${path}.code`, depth + 1);
    if ('cause' in error) node.cause = this.value(error.cause, `${path}.cause`, depth + 1);
    return node;
  }

  /** An object's own enumerable data; `message`/`messages` members are message slots. */
  private record(obj: object, path: string, depth: number): Json {
    const entries: Record<string, Json> = {};
    let hasTagKey = false;
    for (const key of Object.keys(obj)) {
      if (key === WIRE_TAG) hasTagKey = true;
      const child = (obj as Record<string, unknown>)[key];
      const childSlot: Slot =
        key === 'messages' && Array.isArray(child) ? 'messages' : key === 'message' ? 'message' : 'none';
      entries[key] = this.value(child, `${path}.${key}`, depth + 1, childSlot);
    }
    if (hasTagKey || !isPlainRecord(obj)) {
      // class instances travel as their own enumerable data (what structured clone does too)
      return { [WIRE_TAG]: 'object', entries: Object.entries(entries) as unknown as Json };
    }
    return entries;
  }

  /**
   * a plain object in a message slot: a reference when the peer has it (or, from the engine host, one it holds
   * that equals it), else (maybe) a definition
   */
  private messageSlot(v: unknown, path: string, depth: number): SlotEncoding | undefined {
    const cache = this.cache;
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
    const ref = cache.refOf(v) ?? cache.twinOf?.(v);
    if (ref) return { node: refNode(ref), ref };
    // a copy of a message the peer holds crosses as what it does not share with it (see wireLike.ts)
    const base = cache.baseOf?.(v);
    const node =
      (base && encodeLike(this.likeHost, v, base.value, base.ref, path, depth)) ?? this.value(v, path, depth, 'none');
    const id = cache.define(v);
    if (id === undefined) return { node };
    cache.sentAs?.(id, node);
    return { node: { [WIRE_TAG]: 'def', id, value: node }, defined: { side: this.ctx.side, id } };
  }

  /**
   * A `messages` array: a remembered identical prefix (pointer comparison), then each element as a message slot;
   * runs of ≥ 2 consecutive references become one range and the array an `array` node.
   */
  private messagesArray(arr: readonly unknown[], path: string, depth: number): Json {
    const cache = this.cache!;
    const writer = new RefRunWriter();
    const sent = new SentPrefix();
    // a remembered identical prefix costs its runs, not one lookup per message
    const known = cache.knownPrefix?.(arr);
    if (known) {
      // a prefix of several runs costs one item as a prefix of the peer's copy of that array
      if (known.array !== undefined && known.runs.length > 1) writer.pushPrefix(known.array, known.length);
      else for (const r of known.runs) writer.pushRun(r);
      sent.adopt(known.runs, known.length);
    }
    for (let i = known?.length ?? 0; i < arr.length; i++) {
      const done = this.messageSlot(arr[i], `${path}[${i}]`, depth + 1);
      if (done?.ref) writer.pushRun({ side: done.ref.side, from: done.ref.id, count: 1 });
      else writer.push(done ? done.node : this.value(arr[i], `${path}[${i}]`, depth + 1));
      const ref = done?.ref ?? done?.defined;
      sent.remember(ref ? { side: ref.side, from: ref.id, count: 1 } : undefined);
    }
    writer.flush();
    const id = cache.sentArray?.(arr, sent.runs, sent.length, writer.ranged);
    if (!writer.ranged) return writer.items;
    return id !== undefined
      ? { [WIRE_TAG]: 'array', id, items: writer.items }
      : { [WIRE_TAG]: 'array', items: writer.items };
  }
}

export function encodeWire(value: unknown, ctx: EncodeContext): Json {
  return new WireEncoder(ctx).value(value, '$', 0);
}
