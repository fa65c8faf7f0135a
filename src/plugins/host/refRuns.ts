/**
 * Helpers of the message reference cache (messageRefTable.ts): the runs of a remembered array's leading part, and
 * which of the app's messages a shallow copy was made from (the base of a `like` node, wireLike.ts).
 */
import type { WireSide } from './wireFormat';

/** `count` consecutive ids of one side, from `from` */
export interface RefRun {
  side: WireSide;
  from: number;
  count: number;
}

/** The runs covering the first `length` elements of `runs` (the last one cut short where needed). */
export function leadingRuns(runs: readonly RefRun[], length: number): RefRun[] {
  const out: RefRun[] = [];
  let covered = 0;
  for (const r of runs) {
    if (covered >= length) break;
    const count = Math.min(r.count, length - covered);
    out.push(count === r.count ? r : { side: r.side, from: r.from, count });
    covered += count;
  }
  return out;
}

/** Collects the ids of `side` within the first `length` elements of `runs` (the peer's ids a payload uses). */
export function touchOtherIds(runs: readonly RefRun[], length: number, side: WireSide, touched: number[]): void {
  let covered = 0;
  for (const r of runs) {
    if (covered >= length) return;
    const count = Math.min(r.count, length - covered);
    if (r.side === side) for (let id = r.from; id < r.from + count; id++) touched.push(id);
    covered += count;
  }
}

/**
 * The app's messages by their parts: each object value of a message the peer holds, and each object element of an
 * array value, maps to the first such message that had it. A shallow copy (`{ ...message, toolCallId }`) shares
 * parts with its original, so looking its parts up finds the message it was made from.
 */
export class PartOwners {
  private readonly owners = new WeakMap<object, object>();

  index(message: object): void {
    for (const part of Object.values(message)) {
      if (typeof part !== 'object' || part === null) continue;
      if (!this.owners.has(part)) this.owners.set(part, message);
      if (!Array.isArray(part)) continue;
      for (const item of part)
        if (typeof item === 'object' && item !== null && !this.owners.has(item)) this.owners.set(item, message);
    }
  }

  /** The first message other than `value` owning one of its parts that `idOf` knows, with its id. */
  baseOf(value: object, idOf: (message: object) => number | undefined): { message: object; id: number } | undefined {
    const owned = (part: object) => {
      const message = this.owners.get(part);
      const id = message && message !== value ? idOf(message) : undefined;
      return id === undefined ? undefined : { message: message!, id };
    };
    for (const part of Object.values(value)) {
      if (typeof part !== 'object' || part === null) continue;
      const found = owned(part);
      if (found) return found;
      if (!Array.isArray(part)) continue;
      for (const item of part) {
        const inner = typeof item === 'object' && item !== null ? owned(item) : undefined;
        if (inner) return inner;
      }
    }
    return undefined;
  }
}
