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
 * - Both sides name every message object they send in full. The app's messages are long-lived (the lane
 *   transcript keeps them) and retained on both sides until `reset()` (the host closes or exits; a host is per
 *   lane per plugin). Objects the app received from the engine travel back as references to the engine's ids
 *   (an `afterTurn` carrying what `assemble` returned), whether the engine keeps them or made fresh ones.
 * - Engine ids are released by the app: an engine id the app has neither sent nor received for
 *   `RELEASE_AFTER_PAYLOADS` payloads (a few turns) is dropped from the app's lookups and listed in a `release`
 *   message; the child forgets those ids and answers `released`. Until that answer the app still resolves them
 *   (the child may have referred to them before it saw the release), and it never names them itself. So the
 *   child retains what the engine still returns plus what it returned in the last few turns.
 * - Mutation is not propagated: an object mutated after it was sent is not re-sent (the other side keeps the
 *   state it had when first sent). The replay never mutates messages it has passed to an engine.
 * - Arrays the app sends as `array` nodes are named too (`id`); the engine host keeps the last few it decoded, so a
 *   history that repeats a fragmented prefix of one of them (ids in another order than the history, e.g. sanitized
 *   copies defined a turn after the raw messages) travels as one `prefix` item instead of one item per run. The
 *   engine host never names arrays, and the app accepts no `prefix` items.
 * - The engine host names a fresh object it returns that encodes exactly as one of its messages of the same role and
 *   timestamp was sent (wireTwin.ts) with that message's id, and resolves the id to the fresh object from then on.
 *   The app's shallow copies of its own messages travel as `like` nodes against the message they were made from.
 * - Encoding and decoding are transactional: ids defined by a payload become known only once the whole payload
 *   was encoded (and handed to the transport) or decoded successfully.
 */
import type { Json, WireSide } from './wireFormat';
import { TwinIndex } from './wireTwin';
import { leadingRuns, PartOwners, touchOtherIds, type RefRun } from './refRuns';

export type { RefRun } from './refRuns';

export interface MessageRef {
  side: WireSide;
  id: number;
}

/** What the encoder may ask while encoding one payload. */
export interface MessageRefEncoder {
  /** the reference for an object the other side already has, if any */
  refOf(value: object): MessageRef | undefined;
  /** a new id for `value` when this side names it now (pending until commit), else undefined (send in full) */
  define(value: object): number | undefined;
  /**
   * The references, as runs, of the longest leading part of `array` that is element-for-element identical to a
   * `messages` array sent recently (a grown history): found by pointer comparison instead of a cache lookup
   * per message, and costing its runs rather than its length. Undefined when nothing matches.
   */
  knownPrefix?(array: readonly unknown[]): KnownPrefix | undefined;
  /**
   * Remembers a sent `messages` array whose first `length` elements are the peer's once committed, as `runs`.
   * `named`: the array travels as an `array` node that can carry an id; the id is returned (pending until commit).
   */
  sentArray?(array: readonly unknown[], runs: readonly RefRun[], length: number, named: boolean): number | undefined;
  /**
   * App only: a message of its own the peer holds that `value` (sent for the first time) shares a part with — a
   * shallow copy made from it — so `value` can cross as a `like` node (wireLike.ts). Undefined when there is none.
   */
  baseOf?(value: object): { ref: MessageRef; value: object } | undefined;
  /**
   * Engine host only: the id of a message of its own the app holds (same role and timestamp) that `value`, not sent
   * before, encodes to exactly as that one was sent; `value` then takes that id (wireTwin.ts).
   */
  twinOf?(value: object): MessageRef | undefined;
  /** Engine host only: what the message it names `id` in this payload was sent as (kept for `twinOf`). */
  sentAs?(id: number, node: Json): void;
}

/** A remembered array's leading part that a new array repeats: its runs, and the array's id if the peer kept it. */
export interface KnownPrefix {
  /** shared with the remembered array: never changed */
  runs: readonly RefRun[];
  length: number;
  /** the sent array's id (the app's arrays only): the peer can take the prefix from its copy of that array */
  array?: number;
}

/** What the decoder may ask while decoding one payload. */
export interface MessageRefDecoder {
  /** the object for a reference; undefined when unknown */
  resolve(side: WireSide, id: number): object | undefined;
  /** records an object the sender defined with `id` (pending until commit); returns a problem or null */
  define(id: number, value: object): string | null;
  /** marks an object decoded in full in a message slot (never given an id by the app) */
  received(value: object): void;
  /** child: a `messages` array the app named `id` (pending until commit); returns a problem or null */
  defineArray?(id: number, items: readonly unknown[]): string | null;
  /** child: the elements of the app's array `id`, if it is one of the last few */
  resolveArray?(id: number): readonly unknown[] | undefined;
}

export interface MessageRefEncodeSession extends MessageRefEncoder {
  commit(): void;
}
export interface MessageRefDecodeSession extends MessageRefDecoder {
  commit(): void;
}

const RECENT_ARRAYS = 2;
/** how many named arrays the child keeps (at least the RECENT_ARRAYS the app may still refer to) */
const RECEIVED_ARRAYS = 4;
/** An engine id unused (neither sent nor received) for this many payloads is released. */
export const RELEASE_AFTER_PAYLOADS = 64;
/** How often (in payloads) the app looks for engine ids to release. */
const SWEEP_EVERY_PAYLOADS = 16;

interface SentArray {
  /** the id the peer knows the array by (sent as an `array` node by the app), if any */
  id?: number;
  /** the first `items.length` elements of the sent array (a copy) */
  items: readonly unknown[];
  /** their references, consecutive ids as runs */
  runs: readonly RefRun[];
}

interface RemoteEntry {
  value: object;
  /** payload clock of the last send or receipt (used on the parent only) */
  lastUsed: number;
}

export class MessageRefTable {
  readonly side: WireSide;
  private readonly other: WireSide;
  private nextId = 1;
  /** objects this side named, by id and by identity */
  private ownObjects = new Map<number, object>();
  private ownIds = new WeakMap<object, number>();
  /** objects the other side named */
  private remoteObjects = new Map<number, RemoteEntry>();
  private remoteIds = new WeakMap<object, number>();
  /** parent: engine ids listed in a `release` the child has not answered yet (still resolvable) */
  private releasing = new Map<number, object>();
  /** parent: engine objects that came without an id or whose id was released: never given app ids */
  private receivedCopies = new WeakSet<object>();
  /** the most recent `messages` arrays sent, as far as their elements are references (see knownPrefix) */
  private recentArrays: SentArray[] = [];
  private nextArrayId = 1;
  /** child: the app's named arrays, by id (the most recent RECEIVED_ARRAYS) */
  private receivedArrays = new Map<number, readonly unknown[]>();
  /** parent: which of its messages the peer holds each part belongs to (for `baseOf`) */
  private partOwners = new PartOwners();
  /** child: what each message it named was sent as, for `twinOf` (dropped with the id) */
  private twins = new TwinIndex();
  /** payloads committed (parent: drives releases) */
  private clock = 0;
  private pendingRelease: number[] = [];

  constructor(side: WireSide) {
    this.side = side;
    this.other = side === 'parent' ? 'child' : 'parent';
  }

  /** how many objects this side currently retains for references */
  get size(): number {
    return this.ownObjects.size + this.remoteObjects.size + this.releasing.size;
  }

  /** Forgets every id (the host closed or exited; a new host starts with an empty table on both sides). */
  reset(): void {
    this.ownObjects = new Map();
    this.ownIds = new WeakMap();
    this.remoteObjects = new Map();
    this.remoteIds = new WeakMap();
    this.releasing = new Map();
    this.receivedCopies = new WeakSet();
    this.partOwners = new PartOwners();
    this.twins = new TwinIndex();
    this.recentArrays = [];
    this.receivedArrays = new Map();
    this.pendingRelease = [];
  }

  private touch(id: number): void {
    if (this.side !== 'parent') return; // only the app releases ids
    const entry = this.remoteObjects.get(id);
    if (entry) entry.lastUsed = this.clock;
  }

  beginEncode(): MessageRefEncodeSession {
    const pending = new Map<object, number>();
    const touched: number[] = [];
    const arrays: SentArray[] = [];
    const snapshots: [number, Json][] = [];
    const twins: [object, number][] = [];
    return {
      refOf: (value) => {
        const own = this.ownIds.get(value);
        if (own !== undefined) return { side: this.side, id: own };
        const remote = this.remoteIds.get(value);
        if (remote !== undefined) {
          touched.push(remote);
          return { side: this.other, id: remote };
        }
        return undefined;
      },
      define: (value) => {
        // an object defined earlier in this same payload is copied again (its id is not known to the peer yet)
        if (pending.has(value) || this.receivedCopies.has(value)) return undefined;
        const id = this.nextId++;
        pending.set(value, id);
        return id;
      },
      knownPrefix: (array) => {
        let best: { sent: SentArray; length: number } | undefined;
        for (const sent of this.recentArrays) {
          const max = Math.min(array.length, sent.items.length);
          let i = 0;
          while (i < max && array[i] === sent.items[i]) i++;
          if (i > 0 && (!best || i > best.length)) best = { sent, length: i };
        }
        if (!best) return undefined;
        const { sent, length } = best;
        // the runs are shared when the whole remembered array is repeated (the usual grown history), else cut
        const runs = length === sent.items.length ? sent.runs : leadingRuns(sent.runs, length);
        if (this.side === 'parent') touchOtherIds(runs, length, this.other, touched);
        return { runs, length, ...(sent.id !== undefined ? { array: sent.id } : {}) };
      },
      sentArray: (array, runs, length, named) => {
        if (length === 0) return undefined;
        // only the app names arrays (the engine host keeps them; the app keeps no engine arrays)
        const id = named && this.side === 'parent' ? this.nextArrayId++ : undefined;
        arrays.push({ ...(id !== undefined ? { id } : {}), items: array.slice(0, length), runs });
        return id;
      },
      baseOf: (value) => {
        if (this.side !== 'parent') return undefined;
        const owner = this.partOwners.baseOf(value, (message) => this.ownIds.get(message));
        return owner && { ref: { side: this.side, id: owner.id }, value: owner.message };
      },
      twinOf: (value) => {
        const id = this.side === 'child' && !pending.has(value) ? this.twins.find(value) : undefined;
        if (id === undefined) return undefined;
        twins.push([value, id]);
        return { side: this.side, id };
      },
      sentAs: (id, node) => {
        if (this.side === 'child') snapshots.push([id, node]);
      },
      commit: () => {
        for (const [value, id] of pending) {
          this.ownObjects.set(id, value);
          this.ownIds.set(value, id);
          if (this.side === 'parent') this.partOwners.index(value);
        }
        for (const [id, node] of snapshots) this.twins.remember(this.ownObjects.get(id)!, id, node);
        // the latest object with an id is what it resolves to (what the engine returned last)
        for (const [value, id] of twins) {
          this.ownObjects.set(id, value);
          this.ownIds.set(value, id);
        }
        pending.clear();
        for (const id of touched) this.touch(id);
        // keep two: the replay alternates assemble(history) and afterTurn(assembled + new) arrays
        for (const sent of arrays) this.recentArrays = [sent, ...this.recentArrays].slice(0, RECENT_ARRAYS);
        arrays.length = 0;
        this.tick();
      },
    };
  }

  beginDecode(): MessageRefDecodeSession {
    const tracksUse = this.side === 'parent'; // only the app releases ids
    const pending = new Map<number, object>();
    const pendingArrays = new Map<number, readonly unknown[]>();
    const copies: object[] = [];
    const touched: number[] = [];
    return {
      resolve: (side, id) => {
        if (side === this.side) return this.ownObjects.get(id);
        const entry = this.remoteObjects.get(id);
        if (entry) {
          if (tracksUse) touched.push(id);
          return entry.value;
        }
        return this.releasing.get(id);
      },
      define: (id, value) => {
        if (this.remoteObjects.has(id) || this.releasing.has(id) || pending.has(id))
          return `message id ${id} is already defined`;
        pending.set(id, value);
        return null;
      },
      received: (value) => {
        // an engine object that came without an id (a copy): the app never names those
        if (this.side === 'parent' && !this.ownIds.has(value) && !this.remoteIds.has(value)) copies.push(value);
      },
      defineArray: (id, items) => {
        if (this.side !== 'child') return 'named arrays are accepted only from the app';
        if (this.receivedArrays.has(id) || pendingArrays.has(id)) return `array id ${id} is already defined`;
        pendingArrays.set(id, items);
        return null;
      },
      resolveArray: (id) => this.receivedArrays.get(id),
      commit: () => {
        for (const [id, value] of pending) {
          this.remoteObjects.set(id, { value, lastUsed: this.clock });
          this.remoteIds.set(value, id);
        }
        for (const [id, items] of pendingArrays) this.receivedArrays.set(id, items);
        if (this.receivedArrays.size > RECEIVED_ARRAYS) {
          const ids = [...this.receivedArrays.keys()].sort((a, b) => a - b);
          for (const id of ids.slice(0, ids.length - RECEIVED_ARRAYS)) this.receivedArrays.delete(id);
        }
        for (const value of copies) if (!this.remoteIds.has(value)) this.receivedCopies.add(value);
        for (const id of touched) this.touch(id);
        this.tick();
      },
    };
  }

  /** Parent: after every SWEEP_EVERY_PAYLOADS payloads, moves engine ids unused for too long to `releasing`. */
  private tick(): void {
    this.clock++;
    if (this.side !== 'parent' || this.clock % SWEEP_EVERY_PAYLOADS !== 0) return;
    const before = this.clock - RELEASE_AFTER_PAYLOADS;
    for (const [id, entry] of this.remoteObjects) {
      if (entry.lastUsed >= before) continue;
      this.remoteObjects.delete(id);
      this.remoteIds.delete(entry.value);
      this.receivedCopies.add(entry.value);
      this.releasing.set(id, entry.value);
      this.pendingRelease.push(id);
    }
    if (this.pendingRelease.length > 0) this.forgetRecent(this.other, new Set(this.pendingRelease));
  }

  /** Cuts remembered arrays before their first reference to a released id of `side`. */
  private forgetRecent(side: WireSide, released: ReadonlySet<number>): void {
    this.recentArrays = this.recentArrays.map((sent) => {
      let at = 0;
      for (let r = 0; r < sent.runs.length; r++) {
        const run = sent.runs[r]!;
        if (run.side === side) {
          for (let id = run.from; id < run.from + run.count; id++) {
            if (released.has(id)) {
              const kept = id - run.from;
              const runs = sent.runs.slice(0, r);
              if (kept > 0) runs.push({ side: run.side, from: run.from, count: kept });
              return { ...(sent.id !== undefined ? { id: sent.id } : {}), items: sent.items.slice(0, at + kept), runs };
            }
          }
        }
        at += run.count;
      }
      return sent;
    });
  }

  /** Parent: the engine ids to list in a `release` message now (each returned once). */
  takeReleases(): number[] {
    const ids = this.pendingRelease;
    this.pendingRelease = [];
    return ids;
  }

  /** Child: forgets its own ids the app released (unknown ids are ignored). */
  releaseOwn(ids: readonly number[]): void {
    for (const id of ids) {
      const value = this.ownObjects.get(id);
      if (value === undefined) continue;
      this.ownObjects.delete(id);
      this.ownIds.delete(value);
      this.twins.forget(id);
    }
    if (ids.length > 0) this.forgetRecent(this.side, new Set(ids));
  }

  /** Parent: the child confirmed it forgot these ids; returns a problem for ids that were never released. */
  confirmReleased(ids: readonly number[]): string | null {
    const unknown = ids.filter((id) => !this.releasing.has(id));
    for (const id of ids) this.releasing.delete(id);
    return unknown.length > 0
      ? `"released" names message ids the app never released: ${unknown.slice(0, 5).join(', ')}`
      : null;
  }
}
