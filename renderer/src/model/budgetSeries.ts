/**
 * The numbers behind the BudgetChart: per turn, each lane's assembled tokens and the token budget it was given,
 * plus compaction/quarantine markers — the shared per-turn figures of src/view (the HTML report's chart reads them
 * too), laid out for recharts. Computed once per (recording, lanes, measure); the chart only draws them.
 * Data keys are positional (`tokens0`, `budget0`, `mark0`) because recharts reads dots in a dataKey as a path.
 */
import {
  laneColor,
  laneTurnFigures,
  measuresAssembled,
  tokensOf,
  turnMarker,
  type TokenMeasure,
  type TurnMarker,
} from '../../../src/view';
import type { LaneRecord, Recording, TurnRecord } from '../recordingTypes';
import { chartBands, markCounts, turnMarks, type ChartBands, type MarkKind, type TurnMark } from './chartMarkers';

export { turnMarker };
export type { TokenMeasure, TurnMarker };

export interface BudgetPoint {
  /** 0-based turn */
  turn: number;
  /** 1-based, as shown on the axis */
  label: string;
  [key: string]: number | string | null;
}

export interface BudgetLane {
  id: string;
  label: string;
  color: string;
  tokensKey: string;
  budgetKey: string;
  markKey: string;
  /**
   * the precheck estimate a compaction of the turn was decided on (precheck measure only; null elsewhere): the chart
   * draws the turn's drop from it to the plotted figure, so the compaction shows above the threshold it crossed
   */
  beforeCompactionKey: string;
}

export interface BudgetSeries {
  points: BudgetPoint[];
  lanes: BudgetLane[];
  /**
   * the token budget is drawn (the measure is the assembled messages, which assemble's budget bounds); for the
   * precheck measure the line to read against is the compaction threshold instead
   */
  budgetLine: boolean;
  /** every lane got the same tokenBudget on every turn: draw one budget line (`budget`) instead of one per lane */
  sharedBudget: boolean;
  /** window and prompt budget when every lane has the same: the reserve band is drawn between them */
  reserveBand: { promptBudget: number; contextWindow: number } | null;
  /** the largest token budget of any turn (what the caption reports) */
  maxBudget: number;
  /** lane-turns with a compaction / a quarantine (what the timeline's badges add up to) */
  compactions: number;
  quarantines: number;
  /** per turn and kind: compactions, quarantines, spawns (a turn counted once however many lanes had it) */
  marks: TurnMark[];
  /** turns with at least one mark of each kind */
  markTurns: Record<MarkKind, number>;
  bands: ChartBands | null;
}

export function assembledTokens(record: TurnRecord, measure: TokenMeasure): number {
  return tokensOf(laneTurnFigures(record), measure);
}

export function buildBudgetSeries(
  recording: Recording,
  lanes: readonly LaneRecord[],
  measure: TokenMeasure,
): BudgetSeries {
  const laneTurns = lanes.map((lane) => recording.turns[lane.id] ?? []);
  const turnCount = Math.max(0, ...laneTurns.map((turns) => turns.length));
  const budgetLine = measuresAssembled(measure);
  const budgetLanes: BudgetLane[] = lanes.map((lane, i) => ({
    id: lane.id,
    label: lane.label,
    color: laneColor(recording.lanes, lane.id),
    tokensKey: `tokens${i}`,
    budgetKey: `budget${i}`,
    markKey: `mark${i}`,
    beforeCompactionKey: `beforeCompaction${i}`,
  }));

  let sharedBudget = true;
  let maxBudget = 0;
  let compactions = 0;
  let quarantines = 0;
  const points: BudgetPoint[] = [];
  for (let turn = 0; turn < turnCount; turn++) {
    const point: BudgetPoint = { turn, label: String(turn + 1), budget: null };
    let firstBudget: number | null = null;
    laneTurns.forEach((turns, i) => {
      const record = turns[turn];
      const lane = budgetLanes[i]!;
      if (!record) {
        point[lane.tokensKey] = null;
        point[lane.budgetKey] = null;
        point[lane.markKey] = null;
        point[lane.beforeCompactionKey] = null;
        return;
      }
      const figures = laneTurnFigures(record);
      const budget = figures.tokenBudget;
      point[lane.tokensKey] = tokensOf(figures, measure);
      point[lane.beforeCompactionKey] = measure === 'precheck' ? figures.precheckBeforeCompaction : null;
      point[lane.budgetKey] = budgetLine ? budget : null;
      const marker = figures.marker;
      point[lane.markKey] = marker;
      if (marker === 'compaction') compactions++;
      if (marker === 'quarantine') quarantines++;
      maxBudget = Math.max(maxBudget, budget);
      if (firstBudget === null) firstBudget = budget;
      else if (firstBudget !== budget) sharedBudget = false;
    });
    point.budget = budgetLine ? firstBudget : null;
    points.push(point);
  }

  const windows = new Set(lanes.map((lane) => lane.contextWindow));
  const reserves = new Set(lanes.map((lane) => lane.reserveTokens));
  const reserveBand =
    lanes.length > 0 && windows.size === 1 && reserves.size === 1
      ? {
          contextWindow: lanes[0]!.contextWindow,
          promptBudget: Math.max(1, lanes[0]!.contextWindow - lanes[0]!.reserveTokens),
        }
      : null;

  const marks = turnMarks(recording, lanes);
  return {
    points,
    lanes: budgetLanes,
    budgetLine,
    sharedBudget,
    reserveBand,
    maxBudget,
    compactions,
    quarantines,
    marks,
    markTurns: markCounts(marks),
    bands: chartBands(recording, lanes),
  };
}
