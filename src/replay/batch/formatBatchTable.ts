/** The batch table as text (pure): one line per session and lane asked for, then the total per lane. */
import type { BatchLaneFigures, BatchRow, BatchTotals } from './batchTypes';

const HEAD = ['session', 'turns', 'lane', 'compactions', 'tokens', 'saved vs legacy', 'findings', 'time'];
const RIGHT = new Set([1, 3, 4, 5, 7]);

function num(n: number): string {
  return n.toLocaleString('en-US');
}

export function savedText(lane: BatchLaneFigures): string {
  if (lane.baseline) return 'baseline';
  if (lane.savedTokens === null) return '—';
  const pct = lane.savedFraction === null ? '' : ` (${(lane.savedFraction * 100).toFixed(1)}%)`;
  return `${num(lane.savedTokens)}${pct}`;
}

function findingsText(lane: BatchLaneFigures): string {
  return `${lane.findings.error} err, ${lane.findings.warning} warn`;
}

/** The lanes a table shows: the ones asked for (the added baseline only measures them). */
export function shownLanes(lanes: readonly BatchLaneFigures[]): BatchLaneFigures[] {
  return lanes.filter((l) => !l.added);
}

function sessionName(row: BatchRow): string {
  return row.key ?? row.sessionId;
}

function laneCells(name: string, turns: string, lane: BatchLaneFigures, time: string): string[] {
  return [
    name,
    turns,
    lane.label + (lane.error ? ' (failed to run)' : ''),
    num(lane.compactions),
    num(lane.tokens),
    savedText(lane),
    findingsText(lane),
    time,
  ];
}

function rowLines(row: BatchRow): string[][] {
  if (row.status !== 'done') {
    const what = row.status === 'failed' ? `failed: ${row.error ?? 'unknown error'}` : row.status;
    return [[sessionName(row), row.turns === undefined ? '—' : num(row.turns), what, '', '', '', '', '']];
  }
  const time = row.durationMs === undefined ? '' : `${(row.durationMs / 1000).toFixed(1)} s`;
  return shownLanes(row.lanes).map((lane, i) =>
    laneCells(i === 0 ? sessionName(row) : '', i === 0 ? num(row.turns ?? lane.turns) : '', lane, i === 0 ? time : ''),
  );
}

function layout(lines: string[][]): string {
  const widths = HEAD.map((_, c) => Math.max(...lines.map((l) => (c === 2 && l[3] === '' ? 0 : (l[c] ?? '').length))));
  return lines
    .map((cells) => {
      // a failed row's message runs past the lane column
      if (cells[3] === '' && cells[2] !== HEAD[2])
        return `${cells[0]!.padEnd(widths[0]!)}  ${cells[1]!.padStart(widths[1]!)}  ${cells[2]}`;
      return cells
        .map((cell, c) => (RIGHT.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
        .join('  ')
        .trimEnd();
    })
    .join('\n');
}

export function formatBatchTable(rows: readonly BatchRow[], totals: BatchTotals, elapsedMs?: number): string {
  const lines: string[][] = [HEAD];
  for (const row of rows) lines.push(...rowLines(row));
  const name = `total (${totals.sessions} session${totals.sessions === 1 ? '' : 's'}, ${totals.failed} failed)`;
  const time = elapsedMs === undefined ? '' : `${(elapsedMs / 1000).toFixed(1)} s`;
  shownLanes(totals.lanes).forEach((lane, i) =>
    lines.push(laneCells(i === 0 ? name : '', i === 0 ? num(totals.turns) : '', lane, i === 0 ? time : '')),
  );
  return `${layout(lines)}\n`;
}
