/**
 * What the BudgetChart marks besides the lines: turns with a compaction, a quarantine's start or a subagent spawn (counted
 * per turn, with how many lanes had it) and the bands of the budget (window, prompt budget, compaction threshold).
 * Dense markers are aggregated into buckets so that 1,000+ turns stay readable.
 */
import type { LaneRecord, Recording, TurnRecord } from '../recordingTypes';
import { quarantineStarts } from '../../../src/view';

export type MarkKind = 'compaction' | 'quarantine' | 'spawn';
export const MARK_KINDS: readonly MarkKind[] = ['compaction', 'quarantine', 'spawn'];

export interface TurnMark {
  /** 0-based turn */
  turn: number;
  kind: MarkKind;
  /** lanes that had it on this turn */
  lanes: number;
}

/** One drawn marker: every turn of its kind within [firstTurn, lastTurn]. */
export interface MarkGroup {
  kind: MarkKind;
  firstTurn: number;
  lastTurn: number;
  /** where it is drawn (the middle of the turns it stands for) */
  turn: number;
  /** turns it stands for */
  turns: number;
}

export interface ChartBands {
  contextWindow: number;
  /** window − configured reserveTokens */
  promptBudget: number;
  /** estimates above it make OpenClaw's precheck compact: window − effective reserve (the release floors/caps it) */
  compactionThreshold: number;
  configuredReserve: number;
  effectiveReserve: number;
}

/** A quarantine is marked where it starts (quarantineStarts): a mark on each of its turns (300 on a long session)
 * crowded the strip. */
function kindsOf(record: TurnRecord, previous: TurnRecord | undefined): MarkKind[] {
  const kinds: MarkKind[] = [];
  if (quarantineStarts(record, previous)) kinds.push('quarantine');
  if (record.events.some((e) => e.type === 'compaction')) kinds.push('compaction');
  if (record.events.some((e) => e.type === 'subagentSpawn')) kinds.push('spawn');
  return kinds;
}

/** Per turn and kind, how many of `lanes` had it (a turn is counted once however many lanes share it). */
export function turnMarks(recording: Recording, lanes: readonly LaneRecord[]): TurnMark[] {
  const counts = new Map<string, TurnMark>();
  for (const lane of lanes) {
    (recording.turns[lane.id] ?? []).forEach((record, turn, records) => {
      for (const kind of kindsOf(record, records[turn - 1])) {
        const key = `${kind}:${turn}`;
        const mark = counts.get(key) ?? { turn, kind, lanes: 0 };
        mark.lanes++;
        counts.set(key, mark);
      }
    });
  }
  return [...counts.values()].sort((a, b) => a.turn - b.turn || a.kind.localeCompare(b.kind));
}

/** Turns with at least one mark of each kind. */
export function markCounts(marks: readonly TurnMark[]): Record<MarkKind, number> {
  const counts: Record<MarkKind, number> = { compaction: 0, quarantine: 0, spawn: 0 };
  for (const mark of marks) counts[mark.kind]++;
  return counts;
}

/**
 * The marks within turns [start, end] grouped into at most `buckets` equal spans of turns per kind: one turn per
 * group while there is room, several once they are denser than the chart can show apart.
 */
export function groupMarks(marks: readonly TurnMark[], start: number, end: number, buckets: number): MarkGroup[] {
  const span = Math.max(1, end - start + 1);
  const width = Math.max(1, Math.ceil(span / Math.max(1, buckets)));
  const groups = new Map<string, MarkGroup>();
  for (const mark of marks) {
    if (mark.turn < start || mark.turn > end) continue;
    const bucket = Math.floor((mark.turn - start) / width);
    const key = `${mark.kind}:${bucket}`;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { kind: mark.kind, firstTurn: mark.turn, lastTurn: mark.turn, turn: mark.turn, turns: 1 });
      continue;
    }
    group.lastTurn = mark.turn;
    group.turns++;
    group.turn = (group.firstTurn + group.lastTurn) / 2;
  }
  return [...groups.values()];
}

/** The bands when every lane shares window and reserve (else there is no one band to draw). */
export function chartBands(recording: Recording, lanes: readonly LaneRecord[]): ChartBands | null {
  if (lanes.length === 0) return null;
  const windows = new Set(lanes.map((lane) => lane.contextWindow));
  const reserves = new Set(lanes.map((lane) => lane.reserveTokens));
  if (windows.size !== 1 || reserves.size !== 1) return null;
  const lane = lanes[0]!;
  const first = recording.turns[lane.id]?.[0];
  const effectiveReserve = first?.precheck.effectiveReserveTokens ?? lane.reserveTokens;
  return {
    contextWindow: lane.contextWindow,
    promptBudget: Math.max(1, lane.contextWindow - lane.reserveTokens),
    compactionThreshold:
      first?.precheck.promptBudgetBeforeReserve ?? Math.max(1, lane.contextWindow - effectiveReserve),
    configuredReserve: lane.reserveTokens,
    effectiveReserve,
  };
}
