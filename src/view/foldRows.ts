/**
 * What a table of aligned rows shows: runs of consecutive rows on which every lane agrees fold into one line
 * ("41 messages identical in all lanes") unless opened, and the "changed since the previous turn" filter. Pure;
 * the app, the HTML report and `contextscope compare --turn` list the same items.
 */
import type { AlignedRow } from './alignTurn';

export type DisplayItem =
  | { type: 'row'; index: number; row: AlignedRow }
  | { type: 'fold'; start: number; end: number; count: number; label: string };

export interface DisplayOptions {
  /** fold runs of at least this many agreeing rows (default 3; Infinity never folds) */
  minRun?: number;
  /** `start` of the folds that are open */
  open?: ReadonlySet<number>;
  /** only rows where some lane changed since its previous turn */
  changedOnly?: boolean;
}

/** "41 messages identical in all lanes", "12 messages dropped by all lanes", "5 messages the same in all lanes". */
export function foldLabel(rows: readonly AlignedRow[]): string {
  const count = rows.length;
  const noun = `${count} message${count === 1 ? '' : 's'}`;
  const statuses = new Set(rows.flatMap((row) => row.cells.map((cell) => cell.status)));
  if (statuses.size === 1) {
    const status = [...statuses][0];
    if (status === 'sent') return `${noun} identical in all lanes`;
    if (status === 'dropped') return `${noun} dropped by all lanes`;
    if (status === 'summarized') return `${noun} summarized by all lanes`;
  }
  return `${noun} the same in all lanes`;
}

/**
 * What the "changed since the previous turn" filter keeps at this turn: the message rows (not turns) where some lane
 * did something else with the message than at its previous turn, and of how many rows.
 */
export function changedRowCount(rows: readonly AlignedRow[]): { changed: number; rows: number } {
  let changed = 0;
  for (const row of rows) if (row.changed) changed++;
  return { changed, rows: rows.length };
}

export function displayItems(rows: readonly AlignedRow[], options: DisplayOptions = {}): DisplayItem[] {
  const minRun = options.minRun ?? 3;
  const indexes: number[] = [];
  rows.forEach((row, i) => {
    if (!options.changedOnly || row.changed) indexes.push(i);
  });
  const items: DisplayItem[] = [];
  let k = 0;
  while (k < indexes.length) {
    let end = k;
    while (end < indexes.length && rows[indexes[end]!]!.agree) end++;
    const run = end - k;
    const start = indexes[k]!;
    if (run >= minRun && !options.open?.has(start)) {
      const slice = indexes.slice(k, end).map((i) => rows[i]!);
      items.push({ type: 'fold', start, end: indexes[end - 1]! + 1, count: run, label: foldLabel(slice) });
      k = end;
      continue;
    }
    const stop = Math.max(end, k + 1);
    for (let j = k; j < stop; j++) items.push({ type: 'row', index: indexes[j]!, row: rows[indexes[j]!]! });
    k = stop;
  }
  return items;
}
