/**
 * A lane's per-turn lists held as runs over one append-only pool of items, in memory. Consecutive turns of a lane
 * mostly repeat the previous turn's list (legacy sends the whole history again, a window slides over it), so turn
 * N's list is a few `[start, end)` ranges of the pool instead of an array of N references: what a lane holds grows
 * with the items it has seen, not with turns × context. A turn's list is built when it is asked for (`read`), and
 * the last few built are kept so repeated reads of the same turn give the same array.
 */
import type { ListRun } from './listDelta';

/** One list of a pool: pairs of pool positions `[start, end)`, and its length. */
export interface PooledList {
  readonly runs: number[];
  readonly length: number;
}

/** How items that are equal but not the same object are found (lists decoded from JSON, copies). */
export interface PoolIdentity<T> {
  key: (item: T) => string;
  same: (a: T, b: T) => boolean;
}

/** Lists built by `read` that stay built (per pool): a turn and its neighbours, for each lane a view compares. */
const KEEP_BUILT = 8;
/**
 * Merging copies at most this share of the items of every list added (what arrays per turn would have held), and
 * this many to begin with: an engine that breaks its lists in the middle every turn cannot make the pool larger.
 */
const COPY_SHARE = 1 / 8;
const COPY_START = 4096;

export class ListPool<T extends object> {
  private readonly items: T[] = [];
  /** the last pool position of each item object */
  private readonly positions = new Map<T, number>();
  /** the last pool position of each item key (for equal copies) */
  private readonly keyed = new Map<string, number>();
  private readonly built: { list: PooledList; items: T[] }[] = [];
  /** items copied by merging runs, against the budget the lists added so far allow */
  private copied = 0;
  private copyBudget = COPY_START;

  constructor(private readonly identity: PoolIdentity<T>) {}

  /** Items the pool holds (each list is runs over them). */
  get size(): number {
    return this.items.length;
  }

  /** `list` as runs over the pool; items the pool does not hold yet (by object, else by key and equality) are appended. */
  add(list: readonly T[]): PooledList {
    const found: number[] = [];
    for (const item of list) {
      const end = found.length > 0 ? found[found.length - 1]! : -1;
      // the common case, a run going on, needs no lookup
      if (end >= 0 && this.items[end] === item) found[found.length - 1] = end + 1;
      else pushRun(found, this.positionOf(item));
    }
    return this.merged(found, list.length);
  }

  private merged(found: readonly number[], length: number): PooledList {
    this.copyBudget += length * COPY_SHARE;
    const runs: number[] = [];
    for (let r = 0; r < found.length; r += 2) this.pushMerging(runs, found[r]!, found[r + 1]!);
    return { runs, length };
  }

  /**
   * Appends a span to `runs`, then copies the last two runs to the pool's end as one while they are of comparable
   * length (within the copy budget). Without it a list whose pool order breaks once per turn (the previous turn's
   * prompt left behind, a host message seen turns ago) gets one more run every turn; with it the runs such breaks
   * leave merge like the digits of a binary counter: a list keeps O(log length) of them and an item is copied
   * O(log) times.
   */
  private pushMerging(runs: number[], start: number, end: number): void {
    pushSpan(runs, start, end);
    while (runs.length >= 4) {
      const m = runs.length;
      const top = runs[m - 1]! - runs[m - 2]!;
      const below = runs[m - 3]! - runs[m - 4]!;
      // comparable only: a short run beside a long one stays a run (copying the long one would cost more)
      if (below > 2 * top || top > 2 * below || this.copied + below + top > this.copyBudget) break;
      this.copied += below + top;
      const from = this.items.length;
      for (const [a, b] of [
        [runs[m - 4]!, runs[m - 3]!],
        [runs[m - 2]!, runs[m - 1]!],
      ] as const) {
        for (let p = a; p < b; p++) this.append(this.items[p]!);
      }
      runs.length = m - 4;
      pushSpan(runs, from, this.items.length);
    }
  }

  /**
   * The list a recording file's delta describes over `base` (this pool's list of the lane's previous turn), built
   * as runs without building either list. Throws `where`-named errors as `decodeList` does.
   */
  addDelta(
    delta: readonly ListRun<T>[],
    base: PooledList,
    where: string,
    fail: (message: string) => Error,
  ): PooledList {
    const found: number[] = [];
    let length = 0;
    let cursor = { run: 0, offset: 0 };
    for (const [i, run] of delta.entries()) {
      if (!Array.isArray(run)) {
        pushRun(found, this.positionOf(run));
        length++;
        continue;
      }
      const [from, to] = run as unknown[];
      if (
        !Number.isInteger(from) ||
        !Number.isInteger(to) ||
        (from as number) < 0 ||
        (to as number) < (from as number)
      ) {
        throw fail(`${where}.delta[${i}] is not a range [from, to) with 0 ≤ from ≤ to`);
      }
      if ((to as number) > base.length) {
        throw fail(`${where}.delta[${i}] reaches item ${String(to)}, but the lane's previous turn has ${base.length}`);
      }
      cursor = copyRange(base, from as number, to as number, found, cursor);
      length += (to as number) - (from as number);
    }
    return this.merged(found, length);
  }

  /** The list's items (the pool's own objects); the same array while it is among the last few built. */
  read(list: PooledList): T[] {
    const at = this.built.findIndex((b) => b.list === list);
    if (at >= 0) {
      const [hit] = this.built.splice(at, 1);
      this.built.unshift(hit!);
      return hit!.items;
    }
    const items: T[] = new Array<T>(list.length);
    let n = 0;
    const { runs } = list;
    for (let r = 0; r < runs.length; r += 2) for (let p = runs[r]!; p < runs[r + 1]!; p++) items[n++] = this.items[p]!;
    this.built.unshift({ list, items });
    if (this.built.length > KEEP_BUILT) this.built.pop();
    return items;
  }

  private positionOf(item: T): number {
    const held = this.positions.get(item);
    if (held !== undefined) return held;
    const key = this.identity.key(item);
    const equal = this.keyed.get(key);
    if (equal !== undefined && this.identity.same(this.items[equal]!, item)) return equal;
    return this.append(item, key);
  }

  private append(item: T, key = this.identity.key(item)): number {
    const p = this.items.push(item) - 1;
    this.positions.set(item, p);
    this.keyed.set(key, p);
    return p;
  }
}

/** Appends pool position `p` to `runs`, extending the last run when it ends right before `p`. */
function pushRun(runs: number[], p: number): void {
  if (runs.length > 0 && runs[runs.length - 1] === p) runs[runs.length - 1] = p + 1;
  else runs.push(p, p + 1);
}

function pushSpan(runs: number[], start: number, end: number): void {
  if (start === end) return;
  if (runs.length > 0 && runs[runs.length - 1] === start) runs[runs.length - 1] = end;
  else runs.push(start, end);
}

/**
 * Appends the pool spans of `base` positions `[from, to)` to `runs`. `cursor` is where the previous range ended
 * (the base run and the list position it starts at): ranges mostly go forwards, so the search starts there.
 */
function copyRange(
  base: PooledList,
  from: number,
  to: number,
  runs: number[],
  cursor: { run: number; offset: number },
): { run: number; offset: number } {
  let { run, offset } = from >= cursor.offset ? cursor : { run: 0, offset: 0 };
  const spans = base.runs;
  // the base run that holds list position `from`
  while (run < spans.length && offset + (spans[run + 1]! - spans[run]!) <= from) {
    offset += spans[run + 1]! - spans[run]!;
    run += 2;
  }
  let position = from;
  while (position < to) {
    const start = spans[run]! + (position - offset);
    const runEnd = offset + (spans[run + 1]! - spans[run]!);
    const end = Math.min(to, runEnd);
    pushSpan(runs, start, start + (end - position));
    position = end;
    if (end === runEnd) {
      offset = runEnd;
      run += 2;
    }
  }
  return { run, offset };
}
