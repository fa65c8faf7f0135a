/** decodeWire: a wire tree (described in wireCodec.ts) back to the values it carries, trusting nothing. */
import type { MessageRefDecoder } from './messageRefTable';
import { hostProvidedFunction } from './hostProvidedFunctions';
import type { DecodeContext } from './wireContext';
import { isPlainRecord, MAX_DEPTH, WIRE_TAG, WireFormatError, type WireSide } from './wireFormat';
import { decodeLike } from './wireLike';

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

function expectSide(side: unknown, what: string): WireSide {
  if (side !== 'parent' && side !== 'child') throw new WireFormatError(`${what} must be "parent" or "child"`);
  return side;
}

/** A function or signal this side exported, sent back to it. */
function knownLocal<T>(value: T | undefined, what: 'function' | 'signal', id: number): T {
  if (!value) throw new WireFormatError(`${what} reference ${id} is unknown or no longer available`);
  return value;
}

function unknownRef(side: WireSide, id: unknown): WireFormatError {
  return new WireFormatError(
    `message reference ${side}#${String(id)} is unknown (never sent to this process, or sent to an earlier host)`,
  );
}

function isTagged(item: unknown, tag: 'refs' | 'prefix'): item is Record<string, unknown> {
  return (
    typeof item === 'object' &&
    item !== null &&
    !Array.isArray(item) &&
    (item as Record<string, unknown>)[WIRE_TAG] === tag
  );
}

function decodeNumber(rec: Record<string, unknown>): number {
  const text = expectString(rec.value, 'number node value');
  if (text === 'NaN') return NaN;
  if (text === 'Infinity') return Infinity;
  if (text === '-Infinity') return -Infinity;
  if (text === '-0') return -0;
  throw new WireFormatError(`number node with unsupported value "${text}"`);
}

function decodeBigint(rec: Record<string, unknown>): bigint {
  const text = expectString(rec.value, 'bigint node value');
  if (!/^-?\d+$/.test(text)) throw new WireFormatError('bigint node value must be an integer string');
  return BigInt(text);
}

/** One decodeWire call: the channel's contexts and whether the app tracks the copies it receives. */
class WireDecoder {
  private readonly refs: MessageRefDecoder | undefined;
  // only the app needs to know which objects came as copies (see messageRefTable.ts)
  private readonly tracksCopies: boolean;

  constructor(private readonly ctx: DecodeContext) {
    this.refs = ctx.messageRefs;
    this.tracksCopies = this.refs !== undefined && ctx.side === 'parent';
  }

  value(n: unknown, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new WireFormatError(`value nested deeper than ${MAX_DEPTH} levels`);
    if (n === null || typeof n === 'boolean' || typeof n === 'string') return n;
    if (typeof n === 'number') {
      if (!Number.isFinite(n)) throw new WireFormatError('non-finite number outside a number node');
      return n;
    }
    if (Array.isArray(n)) return this.arrayInPlace(n, depth);
    if (typeof n !== 'object') throw new WireFormatError(`unexpected ${typeof n} in wire value`);
    const rec = n as Record<string, unknown>;
    if (!Object.prototype.hasOwnProperty.call(rec, WIRE_TAG)) return this.recordInPlace(rec, depth);
    return this.tagged(rec, depth);
  }

  private arrayInPlace(n: unknown[], depth: number): unknown[] {
    for (let i = 0; i < n.length; i++) {
      const item: unknown = n[i];
      const value = this.value(item, depth + 1);
      if (value !== item) n[i] = value;
    }
    return n;
  }

  private recordInPlace(rec: Record<string, unknown>, depth: number): Record<string, unknown> {
    if (!isPlainRecord(rec)) throw new WireFormatError('wire objects must be plain data');
    for (const key of Object.keys(rec)) {
      // every key is an own data property: an own "__proto__" (JSON.parse makes one) shadows the prototype
      // accessor, so reading and writing it touch data, never the prototype
      const item = rec[key];
      const value = this.value(item, depth + 1);
      if (this.tracksCopies && (key === 'messages' || key === 'message')) this.markReceived(value, key === 'messages');
      if (value !== item) rec[key] = value;
    }
    return rec;
  }

  /** objects decoded in message slots: ones that came in full are copies the receiver never assigns ids to */
  private markReceived(value: unknown, isArray: boolean): void {
    for (const item of isArray ? (Array.isArray(value) ? value : []) : [value]) {
      if (typeof item === 'object' && item !== null && !Array.isArray(item)) this.refs!.received(item);
    }
  }

  private tagged(rec: Record<string, unknown>, depth: number): unknown {
    const tag = rec[WIRE_TAG];
    switch (tag) {
      case 'undefined':
        return undefined;
      case 'number':
        return decodeNumber(rec);
      case 'bigint':
        return decodeBigint(rec);
      case 'symbol':
        return Symbol(expectString(rec.description, 'symbol description'));
      case 'set':
        if (!Array.isArray(rec.values)) throw new WireFormatError('set node values must be an array');
        return new Set(rec.values.map((x) => this.value(x, depth + 1)));
      case 'map':
        return this.map(rec, depth);
      case 'date':
        return rec.value === null ? new Date(NaN) : new Date(expectString(rec.value, 'date value'));
      case 'regexp':
        return new RegExp(expectString(rec.source, 'regexp source'), expectString(rec.flags, 'regexp flags'));
      case 'bytes':
        return new Uint8Array(Buffer.from(expectString(rec.base64, 'bytes base64'), 'base64'));
      case 'error':
        return this.error(rec, depth);
      case 'object':
        return this.objectNode(rec, depth);
      case 'fn':
        return this.fn(rec);
      case 'provided':
        return this.provided(rec);
      case 'signal':
        return this.signal(rec, depth);
      case 'json':
        if (this.ctx.side !== 'child') throw new WireFormatError('json nodes are accepted only from the app');
        if (!Object.prototype.hasOwnProperty.call(rec, 'value')) throw new WireFormatError('json node without a value');
        return rec.value;
      case 'ref':
        return this.resolveRef(rec.side, rec.id);
      case 'def':
        return this.definition(rec, depth);
      case 'array':
        return this.arrayNode(rec, depth);
      case 'like':
        return this.like(rec, depth);
      case 'likeArray':
      case 'at':
        throw new WireFormatError(`a ${tag} node may only appear inside a like node`);
      case 'refs':
        throw new WireFormatError('a reference range may only appear directly inside an array node');
      case 'prefix':
        throw new WireFormatError('a prefix may only be the first item of an array node');
      default:
        throw new WireFormatError(`unknown wire tag ${JSON.stringify(tag)}`);
    }
  }

  private map(rec: Record<string, unknown>, depth: number): Map<unknown, unknown> {
    if (!Array.isArray(rec.entries)) throw new WireFormatError('map node entries must be an array');
    return new Map(
      rec.entries.map((pair) => {
        if (!Array.isArray(pair) || pair.length !== 2)
          throw new WireFormatError('map entry must be a [key, value] pair');
        return [this.value(pair[0], depth + 1), this.value(pair[1], depth + 1)] as const;
      }),
    );
  }

  private error(rec: Record<string, unknown>, depth: number): Error {
    const error = new Error(expectString(rec.message, 'error message'));
    const name = expectString(rec.name, 'error name');
    // name as an own property: the runtime's abort detection reads error.name === 'AbortError'
    Object.defineProperty(error, 'name', { value: name, enumerable: false, writable: true, configurable: true });
    if (typeof rec.stack === 'string') error.stack = rec.stack;
    else if (rec.stack !== null && rec.stack !== undefined)
      throw new WireFormatError('error stack must be a string or null');
    if ('code' in rec) (error as { code?: unknown }).code = this.value(rec.code, depth + 1);
    if ('cause' in rec) (error as { cause?: unknown }).cause = this.value(rec.cause, depth + 1);
    const props = asRecord(rec.props ?? {}, 'error props');
    for (const key of Object.keys(props)) {
      if (key === '__proto__' || key === 'constructor') continue;
      (error as unknown as Record<string, unknown>)[key] = this.value(props[key], depth + 1);
    }
    return error;
  }

  /** an object that owned a `$cs` key, or a class instance, as its entries */
  private objectNode(rec: Record<string, unknown>, depth: number): Record<string, unknown> {
    if (!Array.isArray(rec.entries)) throw new WireFormatError('object node entries must be an array');
    const out: Record<string, unknown> = {};
    for (const pair of rec.entries) {
      if (!Array.isArray(pair) || pair.length !== 2)
        throw new WireFormatError('object entry must be a [key, value] pair');
      Object.defineProperty(out, expectString(pair[0], 'object key'), {
        value: this.value(pair[1], depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  private fn(rec: Record<string, unknown>): unknown {
    const id = expectId(rec.id, 'fn id');
    if (rec.side === this.ctx.side) return knownLocal(this.ctx.localFunction(id), 'function', id);
    expectSide(rec.side, 'fn side');
    return this.ctx.importFunction(id, typeof rec.name === 'string' ? rec.name : '');
  }

  /** a function the engine host has its own copy of (hostProvidedFunctions.ts) */
  private provided(rec: Record<string, unknown>): unknown {
    if (this.ctx.side !== 'child') throw new WireFormatError('provided nodes are accepted only from the app');
    const name = expectString(rec.name, 'provided function name');
    const fn = hostProvidedFunction(name);
    if (!fn) throw new WireFormatError(`the engine host provides no function named ${JSON.stringify(name)}`);
    return fn;
  }

  private signal(rec: Record<string, unknown>, depth: number): AbortSignal {
    const id = expectId(rec.id, 'signal id');
    if (rec.side === this.ctx.side) return knownLocal(this.ctx.localSignal(id), 'signal', id);
    expectSide(rec.side, 'signal side');
    if (typeof rec.aborted !== 'boolean') throw new WireFormatError('signal aborted must be a boolean');
    return this.ctx.importSignal(id, rec.aborted, rec.aborted ? this.value(rec.reason, depth + 1) : undefined);
  }

  private resolveRef(side: unknown, id: unknown): object {
    if (!this.refs) throw new WireFormatError('message references are not accepted here');
    const typedSide = expectSide(side, 'message reference side');
    const known = this.refs.resolve(typedSide, expectPositiveId(id, 'message reference id'));
    if (!known) throw unknownRef(typedSide, id);
    return known;
  }

  /** a copy of a message this side holds, as the parts it shares with it and its new values (wireLike.ts) */
  private like(rec: Record<string, unknown>, depth: number): object {
    if (this.ctx.side !== 'child') throw new WireFormatError('like nodes are accepted only from the app');
    if (!this.refs) throw new WireFormatError('like nodes are not accepted here');
    const base = asRecord(rec.base, 'like node base');
    return decodeLike(this, rec, this.resolveRef(base.side, base.id), depth);
  }

  private definition(rec: Record<string, unknown>, depth: number): object {
    if (!this.refs) throw new WireFormatError('message definitions are not accepted here');
    const id = expectPositiveId(rec.id, 'message definition id');
    asRecord(rec.value, 'message definition value');
    const value = this.value(rec.value, depth + 1);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new WireFormatError(`message definition ${id} must hold an object`);
    const problem = this.refs.define(id, value);
    if (problem) throw new WireFormatError(problem);
    return value;
  }

  /** a `messages` array whose items may be reference ranges, the first one a prefix of an array the app named */
  private arrayNode(rec: Record<string, unknown>, depth: number): unknown[] {
    if (!Array.isArray(rec.items)) throw new WireFormatError('array node items must be an array');
    const items = rec.items as unknown[];
    const hasPrefix = items.length > 0 && isTagged(items[0], 'prefix');
    const out: unknown[] = hasPrefix ? this.prefix(items[0] as Record<string, unknown>) : [];
    for (let i = hasPrefix ? 1 : 0; i < items.length; i++) {
      const item = items[i];
      if (isTagged(item, 'refs')) this.pushRange(out, item);
      else out.push(this.value(item, depth + 1));
    }
    if (rec.id !== undefined) {
      const problem = this.namedArrays().defineArray!(expectPositiveId(rec.id, 'array id'), out.slice());
      if (problem) throw new WireFormatError(problem);
    }
    return out;
  }

  private namedArrays(): MessageRefDecoder {
    if (!this.refs?.defineArray || !this.refs.resolveArray || this.ctx.side !== 'child')
      throw new WireFormatError('named arrays are accepted only from the app');
    return this.refs;
  }

  /** the first `length` elements of the app's array `array` (a copy: the engine may change what it gets) */
  private prefix(node: Record<string, unknown>): unknown[] {
    const id = expectPositiveId(node.array, 'prefix array id');
    const length = expectPositiveId(node.length, 'prefix length');
    const base = this.namedArrays().resolveArray!(id);
    if (!base) throw new WireFormatError(`array ${id} is unknown (not one of the last arrays the app sent)`);
    if (length > base.length)
      throw new WireFormatError(`prefix of ${length} elements of array ${id} of ${base.length}`);
    return base.slice(0, length);
  }

  private pushRange(out: unknown[], range: Record<string, unknown>): void {
    const from = expectPositiveId(range.from, 'reference range start');
    const count = expectPositiveId(range.count, 'reference range count');
    if (!Number.isSafeInteger(from + count)) throw new WireFormatError('reference range is out of bounds');
    // side and ids checked once for the range; then one lookup per id
    const side = range.side;
    out.push(this.resolveRef(side, from));
    const typedSide = side as WireSide;
    for (let id = from + 1; id < from + count; id++) {
      const known = this.refs!.resolve(typedSide, id);
      if (!known) throw unknownRef(typedSide, id);
      out.push(known);
    }
  }
}

/**
 * Decodes a tree produced by encodeWire. Throws WireFormatError for anything malformed (never trusts the sender).
 * Decodes in place: plain objects and arrays of `node` are reused (their tagged members replaced), so `node` must be
 * the caller's to consume, as a freshly parsed channel message is; copying it would double the work per payload.
 */
export function decodeWire(node: unknown, ctx: DecodeContext): unknown {
  return new WireDecoder(ctx).value(node, 0);
}
