/**
 * Plain-text renderings of a Recording for terminals (pure): the per-turn side-by-side table of
 * `contextscope compare` and the per-lane summary `contextscope replay` prints.
 */
import { compareRows, type LaneTurnCell } from './compareTurns';
import type { Recording } from '../../contract/recording';
import { compareLanes, problemCounts, problemSummary, type CompareInput } from '../../view';

function pad(text: string, width: number, right = false): string {
  if (text.length >= width) return text;
  return right ? text.padStart(width) : text.padEnd(width);
}

function cellText(cell: LaneTurnCell | undefined): [string, string, string] {
  if (!cell) return ['', '', ''];
  const tokens = `${cell.tiktokenTokens}/${cell.tokenBudget}`;
  const counts = `${cell.kept}·${cell.summarized}·${cell.dropped}`;
  const events = [cell.status === 'ok' ? '' : cell.status, ...cell.events].filter(Boolean).join('; ');
  return [tokens, counts, events];
}

export interface CompareTableOptions {
  /** lanes of the recording (default: the root lanes); ignored when a CompareInput is given */
  laneIds?: string[];
  eventWidth?: number;
  /** only the turns where the lanes differ in what they assembled */
  onlyDiffering?: boolean;
}

/**
 * Turn | per lane: tokens/budget, kept·summarized·dropped, events; `≠` after the turn number where the lanes differ
 * in what they assembled. Long event lists are cut at `eventWidth`.
 */
export function formatCompareTable(source: Recording | CompareInput, options: CompareTableOptions = {}): string {
  const input = 'columns' in source ? source : compareLanes(source, options.laneIds);
  const ids = input.columns.map((c) => c.id);
  const eventWidth = options.eventWidth ?? 28;
  const all = compareRows(input);
  const rows = options.onlyDiffering ? all.filter((row) => row.differs) : all;
  const labels = input.columns.map((c) => c.label);

  const table: string[][] = rows.map((row) => [
    `${row.turn + 1}${row.differs ? ' ≠' : '  '}`,
    ...ids.flatMap((id) => {
      const [tokens, counts, events] = cellText(row.lanes[id]);
      return [tokens, counts, events.length > eventWidth ? `${events.slice(0, eventWidth - 1)}…` : events];
    }),
  ]);
  const header2 = ['turn', ...ids.flatMap(() => ['tokens/budget', 'kept·sum·drop', 'events'])];
  const widths = header2.map((h, c) => Math.max(h.length, ...table.map((r) => r[c]!.length)));
  const groupWidth = (i: number) => widths[1 + i * 3]! + widths[2 + i * 3]! + widths[3 + i * 3]! + 4;
  const header1 = [
    pad('', widths[0]!),
    ...labels.map((label, i) =>
      pad(label.length > groupWidth(i) ? label.slice(0, groupWidth(i)) : label, groupWidth(i)),
    ),
  ].join(' │ ');
  const line = (cells: string[]) =>
    [
      pad(cells[0]!, widths[0]!, true),
      ...ids.map((_, i) => [1, 2, 3].map((k) => pad(cells[i * 3 + k]!, widths[i * 3 + k]!, k !== 3)).join('  ')),
    ].join(' │ ');
  const differing = all.filter((row) => row.differs).length;
  const footer =
    input.columns.length > 1
      ? `\n≠ lanes differ in what they assembled at ${differing} of ${all.length} turns${options.onlyDiffering ? ' (only those are listed)' : ''}; --turn <n> lists the messages.\n`
      : '';
  return [header1, line(header2), ...table.map(line)].map((l) => l.trimEnd()).join('\n') + '\n' + footer;
}

/** The root lanes: what the app's Replay header and timeline show of a recording's session. */
export function rootLaneIds(recording: Pick<Recording, 'lanes'>): string[] {
  return recording.lanes.filter((lane) => !lane.parentLane).map((lane) => lane.id);
}

/**
 * The Replay header's problem line for these lanes (default: the root lanes), as src/view problemSummary words it:
 * error and warning turns (each timeline turn once), findings outside turns apart.
 */
export function formatProblemLine(recording: Recording, laneIds: readonly string[] = rootLaneIds(recording)): string {
  return problemSummary(problemCounts(recording, laneIds)).text;
}

/**
 * The problem line of the root lanes, then one line per lane: turns, statuses, compactions, quarantines, and its
 * error and warning turns (src/view turnProblems: the turns the app's error and warning filters find).
 */
export function formatLaneSummary(recording: Recording): string {
  const out: string[] = [`Problems: ${formatProblemLine(recording)}`];
  for (const lane of recording.lanes) {
    const turns = recording.turns[lane.id] ?? [];
    const statuses = new Map<string, number>();
    let compactions = 0;
    let quarantines = 0;
    for (const t of turns) {
      statuses.set(t.status, (statuses.get(t.status) ?? 0) + 1);
      for (const e of t.events) {
        if (e.type === 'compaction' && e.compacted) compactions++;
        if (e.type === 'quarantine') quarantines++;
      }
    }
    quarantines += recording.events.filter((e) => e.lane === lane.id && e.type === 'quarantine').length;
    const statusText = [...statuses.entries()].map(([s, n]) => `${n} ${s}`).join(', ') || 'no turns';
    out.push(
      `${lane.label} (${lane.requestedEngineId}, window ${lane.contextWindow}, reserve ${lane.reserveTokens}): ${turns.length} turns (${statusText}), ` +
        `${compactions} compaction${compactions === 1 ? '' : 's'}, ${quarantines} quarantine${quarantines === 1 ? '' : 's'}, ` +
        formatProblemLine(recording, [lane.id]),
    );
    if (lane.error) out.push(`  ! ${lane.error}`);
  }
  return out.join('\n') + '\n';
}
