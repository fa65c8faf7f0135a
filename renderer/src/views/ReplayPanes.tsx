import { useMemo } from 'react';
import { BudgetChart } from '../components/BudgetChart';
import { FillHeight, ReplayWorkspace, type WorkspaceOrientation } from '../components/ReplayWorkspace';
import { TimelineTable, type TimelineLane } from '../components/TimelineTable';
import { TurnView } from '../components/TurnView';
import type { ElementSize } from '../components/useElementSize';
import type { BudgetSeries, TokenMeasure } from '../model/budgetSeries';
import type { TimelineRow } from '../model/timelineRows';
import { cachedTurnDetail } from '../model/turnDetailCache';
import type { Recording } from '../recordingTypes';
import { useSelectionStore } from '../store/selectionStore';
import { useTimelineFilterStore } from '../store/timelineFilterStore';
import { copyText } from '../copyText';

/** about what the timeline's Turn column and one lane's three columns take, in px (to size the first split) */
const TURN_COLUMN_WIDTH = 70;
const LANE_COLUMNS_WIDTH = 390;

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

type DetailProps = Pick<ReplayPanesProps, 'recording' | 'laneId' | 'rows' | 'turnCount' | 'timelineLanes'> & {
  turn: number;
};

/** The selected turn in detail (its own subscriptions: expanding a message re-renders only this pane). */
function TurnDetailPane({ recording, laneId, turn, rows, turnCount, timelineLanes }: DetailProps) {
  const expanded = useSelectionStore((s) => s.expanded);
  const messageQuery = useTimelineFilterStore((s) => s.messageQuery);
  const setMessageQuery = useTimelineFilterStore((s) => s.setMessageQuery);
  const { selectLane, selectSession, selectTurn, toggleExpanded } = useSelectionStore.getState();
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
      onCopy={(text) => void copyText(text)}
      onOpenLane={(sessionId, lane, at) => {
        selectSession(sessionId, lane);
        selectTurn(at);
      }}
    />
  );
}

/**
 * The Replay workspace's two panes: chart and timeline (master), the selected turn (detail). The only part of the
 * view that follows the selected turn: on a switch the chart moves its cursor, the timeline its highlight, and the
 * detail shows the turn's cached detail.
 */
export function ReplayPanes(props: ReplayPanesProps) {
  const { recording, laneId, measure, series, timelineLanes, visibleRows } = props;
  const turn = useSelectionStore((s) => s.turn);
  const selectTurn = useSelectionStore((s) => s.selectTurn);
  const master = (size: ElementSize, orientation: WorkspaceOrientation) => {
    const compact = orientation === 'vertical';
    return (
      <>
        <BudgetChart
          series={series}
          measure={measure}
          selectedTurn={turn}
          onSelectTurn={selectTurn}
          height={chartHeight(size, compact)}
          initialWidth={size.width}
          compact={compact}
        />
        <FillHeight>
          {(height) => (
            <TimelineTable
              lanes={timelineLanes}
              rows={visibleRows}
              selectedTurn={turn}
              onSelectTurn={selectTurn}
              height={height}
            />
          )}
        </FillHeight>
      </>
    );
  };
  return (
    <ReplayWorkspace
      detailKey={`${laneId}:${turn}`}
      masterWidth={TURN_COLUMN_WIDTH + timelineLanes.length * LANE_COLUMNS_WIDTH}
      master={master}
      detail={
        <TurnDetailPane
          recording={recording}
          laneId={laneId}
          turn={turn}
          rows={props.rows}
          turnCount={props.turnCount}
          timelineLanes={timelineLanes}
        />
      }
    />
  );
}
