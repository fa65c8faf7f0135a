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
  turnFiguresTable,
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
  return turnFiguresTable(input).map((row) => ({
    turn: row.turn,
    prompt: row.prompt,
    differs: row.differs,
    difference: row.difference,
    cells: row.cells.map((figures, i) => {
      const lane = input.columns[i]!.lane;
      const records = recording.turns[lane.id];
      const record = records?.[row.turn];
      return figures && record
        ? cellOf(figures, record, records[row.turn - 1], findings.at(lane.id, row.turn), measure)
        : null;
    }),
  }));
}
