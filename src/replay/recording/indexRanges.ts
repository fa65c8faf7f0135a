/**
 * Half-open index ranges `[from, to)` — the compact form in which a TurnRecord stores which transcript messages
 * an engine dropped or summarized (a compaction covering 3,000 messages is one range, not 3,000 keys).
 */
import type { IndexRange } from '../../contract/recording';

/** Collapse ascending indices into ranges. The input must be sorted ascending and free of duplicates. */
export function indicesToRanges(indices: readonly number[]): IndexRange[] {
  const ranges: IndexRange[] = [];
  let start = -1;
  let prev = -2;
  for (const index of indices) {
    if (index === prev + 1) {
      prev = index;
      continue;
    }
    if (start >= 0) ranges.push([start, prev + 1]);
    start = index;
    prev = index;
  }
  if (start >= 0) ranges.push([start, prev + 1]);
  return ranges;
}

export function rangesToIndices(ranges: readonly IndexRange[]): number[] {
  const out: number[] = [];
  for (const [from, to] of ranges) for (let i = from; i < to; i++) out.push(i);
  return out;
}

export function countInRanges(ranges: readonly IndexRange[]): number {
  let total = 0;
  for (const [from, to] of ranges) total += Math.max(0, to - from);
  return total;
}

export function rangesContain(ranges: readonly IndexRange[], index: number): boolean {
  for (const [from, to] of ranges) if (index >= from && index < to) return true;
  return false;
}
