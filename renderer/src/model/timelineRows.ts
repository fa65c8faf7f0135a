/**
 * Rows of the Timeline: one per turn, one cell per lane (side by side), each cell with the figures and the
 * event badges of that lane's turn, and whether the lanes differ in what they assembled. The figures come from the
 * shared view model (src/view), which `contextscope compare` and the HTML report read too; this module only shapes
 * them for the table. Findings are looked up through an index built once; which cells are error, warning and
 * finding turns is src/view's definition (turnProblems), the one the Replay header counts.
 */
import {
  compareLanes,
  hasProblem,
  recordingFindings,
  measuresAssembled,
  tokensOf,
  turnBadges,
  turnCountOf,
  turnFiguresRow,
  turnProblems,
  type BadgeKind,
  type LaneTurnFigures,
  type ProblemKind,
  type TokenMeasure,
  type TurnBadge,
} from '../../../src/view';
import type { Finding, LaneRecord, Recording, TurnRecord } from '../recordingTypes';

export { turnBadges };
export type { BadgeKind };
export type TimelineBadge = TurnBadge;

export interface TimelineCell {
  tokens: number;
  budget: number;
  overBudget: boolean;
  assembledCount: number;
  kept: number;
  summarized: number;
  dropped: number;
  status: TurnRecord['status'];
  badges: TimelineBadge[];
  /** whether this lane's turn is an error / warning / finding turn (src/view/turnProblems.ts) */
  problems: Record<ProblemKind, boolean>;
}

export interface TimelineRow {
  turn: number;
  /** the user prompt of the turn, one line */
  prompt: string;
  /** aligned with the lanes passed in; null when that lane has no such turn */
  cells: (TimelineCell | null)[];
  /** the lanes differ in what they assembled (messages, order, content, what was left out, system prompt addition) */
  differs: boolean;
  /** how, in one line ('' when they agree) */
  difference: string;
}

function problemFlags(record: TurnRecord, findings: readonly Finding[]): Record<ProblemKind, boolean> {
  const problems = turnProblems(record, findings);
  return {
    error: hasProblem(problems, 'error'),
    warning: hasProblem(problems, 'warning'),
    finding: hasProblem(problems, 'finding'),
  };
}

function cellOf(
  figures: LaneTurnFigures,
  record: TurnRecord,
  previous: TurnRecord | undefined,
  findings: readonly Finding[],
  measure: TokenMeasure,
) {
  // the cell pairs the assembled messages with assemble's token budget: with the chart on the precheck measure
  // (read against the compaction threshold) it shows OpenClaw's estimate of the assembled messages
  const tokens = tokensOf(figures, measuresAssembled(measure) ? measure : 'estimate');
  return {
    tokens,
    budget: figures.tokenBudget,
    overBudget: tokens > figures.tokenBudget,
    assembledCount: figures.assembledCount,
    kept: figures.kept,
    summarized: figures.summarized,
    dropped: figures.dropped,
    status: figures.status,
    badges: turnBadges(record, findings, previous),
    problems: problemFlags(record, findings),
  };
}

/** What a turn's row was built from besides the turn's own records: a row built from the same is the same row. */
interface RowSource {
  measure: TokenMeasure;
  /** the lanes' ids and labels (the difference line names the lanes) */
  lanes: string;
  session: Recording['session'];
  findings: Recording['findings'];
  /** each lane's record at the turn and at the turn before (its badges compare with the previous turn) */
  records: (TurnRecord | undefined)[];
}

function sameSource(a: RowSource, b: RowSource): boolean {
  return (
    a.measure === b.measure &&
    a.lanes === b.lanes &&
    a.session === b.session &&
    a.findings === b.findings &&
    a.records.length === b.records.length &&
    a.records.every((record, i) => record === b.records[i])
  );
}

/**
 * Rows built before, keyed by the turn's first record. A streaming replay's pages add turns and keep the records of
 * the turns before (recordingPages.ts), so each redraw builds only the new turns' rows: rebuilding every row (the
 * lanes' difference reads each turn's whole history) made a redraw of a 2,000-turn replay take most of a second
 * and left key presses waiting behind it (issue 34). A finished recording's records are new objects: all rebuilt.
 */
const rowCache = new WeakMap<TurnRecord, { source: RowSource; row: TimelineRow }>();

export function buildTimelineRows(
  recording: Recording,
  lanes: readonly LaneRecord[],
  measure: TokenMeasure = 'estimate',
): TimelineRow[] {
  const findings = recordingFindings(recording);
  const input = compareLanes(
    recording,
    lanes.map((lane) => lane.id),
  );
  const laneRecords = input.columns.map((column) => recording.turns[column.lane.id] ?? []);
  const lanesKey = JSON.stringify(input.columns.map((column) => [column.id, column.label]));
  const rows: TimelineRow[] = [];
  for (let turn = 0; turn < turnCountOf(input); turn++) {
    const source: RowSource = {
      measure,
      lanes: lanesKey,
      session: input.session,
      findings: recording.findings,
      records: laneRecords.flatMap((records) => [records[turn], records[turn - 1]]),
    };
    const key = laneRecords.map((records) => records[turn]).find((record) => record !== undefined)!;
    const cached = rowCache.get(key);
    if (cached && sameSource(cached.source, source)) {
      rows.push(cached.row);
      continue;
    }
    const figures = turnFiguresRow(input, turn);
    const row: TimelineRow = {
      turn,
      prompt: figures.prompt,
      differs: figures.differs,
      difference: figures.difference,
      cells: figures.cells.map((cellFigures, i) => {
        const record = laneRecords[i]![turn];
        const laneId = input.columns[i]!.lane.id;
        return cellFigures && record
          ? cellOf(cellFigures, record, laneRecords[i]![turn - 1], findings.at(laneId, turn), measure)
          : null;
      }),
    };
    rowCache.set(key, { source, row });
    rows.push(row);
  }
  return rows;
}
