/**
 * Message reference cache for one engine-host channel (one table per side, living as long as the host).
 *
 * The replay passes the WHOLE history to the engine on every call; without a cache every call re-encodes,
 * re-sends and re-decodes every message (O(n²) over a replay). With it, a message object this side has sent
 * before travels as a reference (`{"$cs":"ref"}`, runs of consecutive ids as one `{"$cs":"refs"}` range), and
 * the receiving side decodes it to the SAME object each time — as in-process OpenClaw, where an engine gets the
 * same message objects turn after turn. Objects that came from the other side travel back as references to the
 * other side's ids, so `assemble` returning the messages it received hands the app its ORIGINAL objects.
 *
 * Rules (see wireCodec.ts for where they apply):
 * - Only message slots are cached: plain objects that are elements of an array under a `messages` key, or the
 *   value of a `message` key. Everything else is copied as before.
 * - Only the PARENT assigns ids (the app's messages are long-lived: the lane transcript keeps them). Objects an
 *   engine creates are sent in full every time and are never given ids — on either side — because an engine
 *   that returns fresh copies every call would otherwise make both processes retain every copy forever.
 * - Ids and their objects are retained until `reset()` (the host closes or exits); a host is per lane per plugin.
 * - Mutation is not propagated: an object mutated after it was sent is not re-sent (the other side keeps the
 *   state it had when first sent). The replay never mutates messages it has passed to an engine.
 * - Encoding and decoding are transactional: ids defined by a payload become known only once the whole payload
 *   was encoded (and handed to the transport) or decoded successfully.
 */
import type { WireSide } from './wireCodec';

export interface MessageRef {
  side: WireSide;
  id: number;
}

/** What the encoder may ask while encoding one payload. */
export interface MessageRefEncoder {
  /** the reference for an object the other side already has, if any */
  refOf(value: object): MessageRef | undefined;
  /** a new id for `value` when this side assigns ids (pending until commit), else undefined (send in full) */
  define(value: object): number | undefined;
  /**
   * The references of the longest leading run of `array` that is element-for-element identical to a
   * `messages` array sent recently (a grown history): found by pointer comparison instead of a cache lookup
   * per message. Undefined when nothing matches.
   */
  knownPrefix?(array: readonly unknown[]): { refs: readonly MessageRef[]; length: number } | undefined;
  /** remembers a sent `messages` array; `refs[i]` is element i's reference once committed (undefined: copied) */
  sentArray?(array: readonly unknown[], refs: readonly (MessageRef | undefined)[]): void;
}

/** What the decoder may ask while decoding one payload. */
export interface MessageRefDecoder {
  /** the object for a reference; undefined when unknown */
  resolve(side: WireSide, id: number): object | undefined;
  /** records an object the sender defined with `id` (pending until commit); returns a problem or null */
  define(id: number, value: object): string | null;
  /** marks an object decoded in full in a message slot (never given an id when sent back) */
  received(value: object): void;
}

export interface MessageRefEncodeSession extends MessageRefEncoder {
  commit(): void;
}
export interface MessageRefDecodeSession extends MessageRefDecoder {
  commit(): void;
}

const RECENT_ARRAYS = 2;

export class MessageRefTable {
  readonly side: WireSide;
  private readonly other: WireSide;
  private nextId = 1;
  /** objects this side defined (parent only), by id and by identity */
  private ownObjects = new Map<number, object>();
  private ownIds = new WeakMap<object, number>();
  /** objects the other side defined (child only) */
  private remoteObjects = new Map<number, object>();
  private remoteIds = new WeakMap<object, number>();
  /** engine-created objects decoded in full (parent only): never given ids */
  private receivedCopies = new WeakSet<object>();
  /** the most recent `messages` arrays sent, as far as their elements are references (see knownPrefix) */
  private recentArrays: { items: readonly unknown[]; refs: readonly MessageRef[] }[] = [];

  constructor(side: WireSide) {
    this.side = side;
    this.other = side === 'parent' ? 'child' : 'parent';
  }

  /** how many objects this side currently retains for references */
  get size(): number {
    return this.ownObjects.size + this.remoteObjects.size;
  }

  /** Forgets every id (the host closed or exited; a new host starts with an empty table on both sides). */
  reset(): void {
    this.ownObjects = new Map();
    this.ownIds = new WeakMap();
    this.remoteObjects = new Map();
    this.remoteIds = new WeakMap();
    this.receivedCopies = new WeakSet();
    this.recentArrays = [];
  }

  beginEncode(): MessageRefEncodeSession {
    const pending = new Map<object, number>();
    const arrays: { items: readonly unknown[]; refs: readonly MessageRef[] }[] = [];
    const assigns = this.side === 'parent';
    return {
      refOf: (value) => {
        const own = this.ownIds.get(value);
        if (own !== undefined) return { side: this.side, id: own };
        const remote = this.remoteIds.get(value);
        if (remote !== undefined) return { side: this.other, id: remote };
        return undefined;
      },
      define: (value) => {
        // an object defined earlier in this same payload is copied again (its id is not known to the peer yet)
        if (!assigns || this.receivedCopies.has(value) || pending.has(value)) return undefined;
        const id = this.nextId++;
        pending.set(value, id);
        return id;
      },
      knownPrefix: (array) => {
        let best: { refs: readonly MessageRef[]; length: number } | undefined;
        for (const sent of this.recentArrays) {
          const max = Math.min(array.length, sent.refs.length);
          let i = 0;
          while (i < max && array[i] === sent.items[i]) i++;
          if (i > 0 && (!best || i > best.length)) best = { refs: sent.refs, length: i };
        }
        return best;
      },
      sentArray: (array, refs) => {
        let length = 0;
        while (length < refs.length && refs[length] !== undefined) length++;
        if (length > 0) arrays.push({ items: array.slice(0, length), refs: refs.slice(0, length) as MessageRef[] });
      },
      commit: () => {
        for (const [value, id] of pending) {
          this.ownObjects.set(id, value);
          this.ownIds.set(value, id);
        }
        pending.clear();
        // keep two: the replay alternates assemble(history) and afterTurn(assembled + new) arrays
        for (const sent of arrays) this.recentArrays = [sent, ...this.recentArrays].slice(0, RECENT_ARRAYS);
        arrays.length = 0;
      },
    };
  }

  beginDecode(): MessageRefDecodeSession {
    const pending = new Map<number, object>();
    const copies: object[] = [];
    return {
      resolve: (side, id) => (side === this.side ? this.ownObjects.get(id) : this.remoteObjects.get(id)),
      define: (id, value) => {
        if (this.side !== 'child') return `the ${this.other} may not define message ids (only the app assigns them)`;
        if (this.remoteObjects.has(id) || pending.has(id)) return `message id ${id} is already defined`;
        pending.set(id, value);
        return null;
      },
      received: (value) => {
        // only the parent assigns ids, so only it needs to know which objects are engine-made copies
        if (this.side === 'parent' && !this.ownIds.has(value)) copies.push(value);
      },
      commit: () => {
        for (const [id, value] of pending) {
          this.remoteObjects.set(id, value);
          this.remoteIds.set(value, id);
        }
        for (const value of copies) this.receivedCopies.add(value);
      },
    };
  }
}
