/**
 * Plain-text renderings of a Recording for terminals (pure): the per-turn side-by-side table of
 * `contextscope compare` and the per-lane summary `contextscope replay` prints.
 */
import { compareTurns, type LaneTurnCell } from './compareTurns';
import type { Finding, Recording } from '../../contract/recording';

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

/** Turn | per lane: tokens/budget, kept·summarized·dropped, events. Long event lists are cut at `eventWidth`. */
export function formatCompareTable(
  recording: Recording,
  options: { laneIds?: string[]; eventWidth?: number } = {},
): string {
  const laneIds = options.laneIds ?? recording.lanes.filter((l) => !l.parentLane).map((l) => l.id);
  const eventWidth = options.eventWidth ?? 28;
  const rows = compareTurns(recording, laneIds);
  const labels = laneIds.map((id) => recording.lanes.find((l) => l.id === id)?.label ?? id);

  const table: string[][] = rows.map((row) => [
    String(row.turn + 1),
    ...laneIds.flatMap((id) => {
      const [tokens, counts, events] = cellText(row.lanes[id]);
      return [tokens, counts, events.length > eventWidth ? `${events.slice(0, eventWidth - 1)}…` : events];
    }),
  ]);
  const header2 = ['turn', ...laneIds.flatMap(() => ['tokens/budget', 'kept·sum·drop', 'events'])];
  const widths = header2.map((h, c) => Math.max(h.length, ...table.map((r) => r[c].length)));
  const groupWidth = (i: number) => widths[1 + i * 3] + widths[2 + i * 3] + widths[3 + i * 3] + 4;
  const header1 = [
    pad('', widths[0]),
    ...labels.map((label, i) =>
      pad(label.length > groupWidth(i) ? label.slice(0, groupWidth(i)) : label, groupWidth(i)),
    ),
  ].join(' │ ');
  const line = (cells: string[]) =>
    [
      pad(cells[0], widths[0], true),
      ...laneIds.map((_, i) => [1, 2, 3].map((k) => pad(cells[i * 3 + k], widths[i * 3 + k], k !== 3)).join('  ')),
    ].join(' │ ');
  return [header1, line(header2), ...table.map(line)].map((l) => l.trimEnd()).join('\n') + '\n';
}

/** One line per lane: turns, statuses, compactions, quarantines, findings by severity. */
export function formatLaneSummary(recording: Recording): string {
  const out: string[] = [];
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
    const findings = recording.findings.filter((f) => f.lane === lane.id);
    const bySeverity = (s: Finding['severity']) => findings.filter((f) => f.severity === s).length;
    const statusText = [...statuses.entries()].map(([s, n]) => `${n} ${s}`).join(', ') || 'no turns';
    out.push(
      `${lane.label} (${lane.requestedEngineId}, window ${lane.contextWindow}, reserve ${lane.reserveTokens}): ${turns.length} turns (${statusText}), ` +
        `${compactions} compaction${compactions === 1 ? '' : 's'}, ${quarantines} quarantine${quarantines === 1 ? '' : 's'}, ` +
        `findings: ${bySeverity('error')} error, ${bySeverity('warning')} warning`,
    );
    if (lane.error) out.push(`  ! ${lane.error}`);
  }
  return out.join('\n') + '\n';
}
