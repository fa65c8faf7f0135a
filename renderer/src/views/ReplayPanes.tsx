import { useEffect, useMemo } from 'react';
import { BudgetChart } from '../components/BudgetChart';
import { FillHeight, ReplayWorkspace, type WorkspaceOrientation } from '../components/ReplayWorkspace';
import {
  TIMELINE_HEAD_HEIGHT,
  TIMELINE_ROW_HEIGHT,
  TimelineTable,
  type TimelineLane,
} from '../components/TimelineTable';
import { TurnView } from '../components/TurnView';
import { useScrollRootToTop } from '../components/scrollRoot';
import type { ElementSize } from '../components/useElementSize';
import type { BudgetSeries, TokenMeasure } from '../model/budgetSeries';
import type { TimelineRow } from '../model/timelineRows';
import { cachedTurnDetail } from '../model/turnDetailCache';
import type { Recording } from '../recordingTypes';
import { useSelectionStore } from '../store/selectionStore';
import { useTimelineFilterStore } from '../store/timelineFilterStore';
import { copyText } from '../copyText';
import { TimelineFilterEmpty } from './TimelineSearch';

/**
 * what the timeline's Turn column and one lane's three columns take, in px (to size the first split): side by side
 * the master gets no more than its table's width and the turn detail the rest (with three lanes at 1920 px, 555 px
 * instead of 495, which left the assembled context's Content column seven characters). The Turn column's figure
 * has room for the scroller's border and rounding: a master a pixel short would scroll the timeline sideways.
 */
const TURN_COLUMN_WIDTH = 60;
const LANE_COLUMNS_WIDTH = 345;

/** the stacked chart's most height (chartHeight), the figure's padding, border and one-line legend, and the gap below */
const STACKED_CHART_BLOCK = 150 + 34 + 8;
/** timeline rows the stacked master asks for (it gets fewer in a short window, the detail keeping its least height) */
const STACKED_TIMELINE_ROWS = 10;
const STACKED_MASTER_HEIGHT =
  STACKED_CHART_BLOCK + TIMELINE_HEAD_HEIGHT + 2 + STACKED_TIMELINE_ROWS * TIMELINE_ROW_HEIGHT;

/** rows the stacked timeline keeps under the chart when the split is dragged up: a drag never hides the table */
const STACKED_MIN_TIMELINE_ROWS = 4;
const STACKED_MASTER_MIN_HEIGHT =
  STACKED_CHART_BLOCK + TIMELINE_HEAD_HEIGHT + 2 + STACKED_MIN_TIMELINE_ROWS * TIMELINE_ROW_HEIGHT;

export interface ReplayPanesProps {
  recording: Recording;
  /** the lane shown in detail (the selection's, or the session's first) */
  laneId: string | null;
  measure: TokenMeasure;
  series: BudgetSeries;
  timelineLanes: readonly TimelineLane[];
  rows: readonly TimelineRow[];
  /** the rows the timeline lists (filters applied) */
  visibleRows: readonly TimelineRow[];
  turnCount: number;
}

/** The chart's height in a pane: stacked (a short pane) it is compact and the timeline gets most of the height. */
function chartHeight(size: ElementSize, compact: boolean): number {
  return Math.round(
    compact ? Math.min(150, Math.max(80, size.height * 0.28)) : Math.min(240, Math.max(140, size.height * 0.3)),
  );
}

type DetailProps = Pick<ReplayPanesProps, 'recording' | 'laneId' | 'rows' | 'turnCount' | 'timelineLanes'>;

const copyTurnText = (text: string) => void copyText(text);

function openLane(sessionId: string, lane: string, at: number): void {
  const { selectSession, selectTurn } = useSelectionStore.getState();
  selectSession(sessionId, lane);
  selectTurn(at);
}

/**
 * The selected turn in detail, with its own subscriptions (a switch or an opened message re-renders this pane
 * only). A switch scrolls the detail pane back to its top, and the neighbouring turns' details are built while the
 * browser is idle, so the next j or k finds them cached.
 */
function TurnDetailPane({ recording, laneId, rows, turnCount, timelineLanes }: DetailProps) {
  const turn = useSelectionStore((s) => s.turn);
  const expanded = useSelectionStore((s) => s.expanded);
  const messageQuery = useTimelineFilterStore((s) => s.messageQuery);
  const setMessageQuery = useTimelineFilterStore((s) => s.setMessageQuery);
  const { selectLane, toggleExpanded } = useSelectionStore.getState();
  useScrollRootToTop(laneId, turn);
  useEffect(() => {
    if (laneId) prefetchNeighbours(recording, laneId, turn);
  }, [recording, laneId, turn]);
  const detail = laneId ? cachedTurnDetail(recording, laneId, turn) : null;
  const prompt = useMemo(() => rows.find((row) => row.turn === turn)?.prompt ?? '', [rows, turn]);
  if (!detail) return <p className="muted">This lane has no turn {turn + 1}.</p>;
  return (
    <TurnView
      detail={detail}
      turnCount={turnCount}
      prompt={prompt}
      lanes={timelineLanes}
      onSelectLane={selectLane}
      expanded={expanded}
      onToggle={toggleExpanded}
      messageQuery={messageQuery}
      onMessageQuery={setMessageQuery}
      onCopy={copyTurnText}
      onOpenLane={openLane}
    />
  );
}

/** The turns around the selected one whose details are built while the browser is idle, nearest first. */
const PREFETCH_STEPS = [1, -1, 2, -2];

/**
 * Builds the details of the turns around `turn` in the browser's next idle time. Not cancelled by the next switch:
 * j held down outruns one idle period per turn, and building two turns ahead keeps the next one cached.
 */
function prefetchNeighbours(recording: Recording, laneId: string, turn: number): void {
  if (typeof requestIdleCallback !== 'function') return;
  requestIdleCallback((deadline) => {
    for (const step of PREFETCH_STEPS) {
      if (deadline.timeRemaining() < 2) return;
      if (turn + step >= 0) cachedTurnDetail(recording, laneId, turn + step);
    }
  });
}

type ChartProps = Pick<ReplayPanesProps, 'series' | 'measure'> & { height: number; width: number; compact: boolean };

/** The budget chart at the selected turn: a switch moves its cursor (the plot is memoised inside). */
function ChartAtTurn({ series, measure, height, width, compact }: ChartProps) {
  const turn = useSelectionStore((s) => s.turn);
  const selectTurn = useSelectionStore((s) => s.selectTurn);
  return (
    <BudgetChart
      series={series}
      measure={measure}
      selectedTurn={turn}
      onSelectTurn={selectTurn}
      height={height}
      initialWidth={width}
      compact={compact}
    />
  );
}

/** The timeline at the selected turn: a switch moves its highlight (and scrolls it into view). */
function TimelineAtTurn({
  lanes,
  rows,
  height,
}: {
  lanes: readonly TimelineLane[];
  rows: readonly TimelineRow[];
  height: number;
}) {
  const turn = useSelectionStore((s) => s.turn);
  const selectTurn = useSelectionStore((s) => s.selectTurn);
  return <TimelineTable lanes={lanes} rows={rows} selectedTurn={turn} onSelectTurn={selectTurn} height={height} />;
}

/**
 * The Replay workspace's two panes: chart and timeline (master), the selected turn (detail). Only the leaves follow
 * the selected turn (ChartAtTurn, TimelineAtTurn, TurnDetailPane subscribe to it): on a switch the chart moves its
 * cursor, the timeline its highlight, and the detail shows the turn's cached detail; the panes around them stay.
 */
export function ReplayPanes(props: ReplayPanesProps) {
  const { recording, laneId, measure, series, timelineLanes, visibleRows } = props;
  const master = (size: ElementSize, orientation: WorkspaceOrientation) => {
    const compact = orientation === 'vertical';
    return (
      <>
        <ChartAtTurn
          series={series}
          measure={measure}
          height={chartHeight(size, compact)}
          width={size.width}
          compact={compact}
        />
        {visibleRows.length === 0 && props.rows.length > 0 ? (
          <TimelineFilterEmpty total={props.rows.length} />
        ) : (
          <FillHeight>
            {(height) => <TimelineAtTurn lanes={timelineLanes} rows={visibleRows} height={height} />}
          </FillHeight>
        )}
      </>
    );
  };
  return (
    <ReplayWorkspace
      masterWidth={TURN_COLUMN_WIDTH + timelineLanes.length * LANE_COLUMNS_WIDTH}
      masterHeight={STACKED_MASTER_HEIGHT}
      masterMinHeight={STACKED_MASTER_MIN_HEIGHT}
      master={master}
      detail={
        <TurnDetailPane
          recording={recording}
          laneId={laneId}
          rows={props.rows}
          turnCount={props.turnCount}
          timelineLanes={timelineLanes}
        />
      }
    />
  );
}
