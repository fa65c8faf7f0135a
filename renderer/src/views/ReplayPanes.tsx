import { BudgetChart } from '../components/BudgetChart';
import { FillHeight, ReplayWorkspace, type WorkspaceOrientation } from '../components/ReplayWorkspace';
import { TimelineTable } from '../components/TimelineTable';
import { TurnView } from '../components/TurnView';
import type { ElementSize } from '../components/useElementSize';
import type { SelectionState } from '../store/selectionStore';
import { useTimelineFilterStore } from '../store/timelineFilterStore';
import { copyText } from '../copyText';
import type { useReplayModel } from './useReplayModel';

type Model = ReturnType<typeof useReplayModel>;

/** about what the timeline's Turn column and one lane's three columns take, in px (to size the first split) */
const TURN_COLUMN_WIDTH = 70;
const LANE_COLUMNS_WIDTH = 390;

export interface ReplayPanesProps {
  model: Pick<Model, 'timelineLanes' | 'visibleRows' | 'detail'> & { series: NonNullable<Model['series']> };
  selection: SelectionState;
  turnCount: number;
  prompt: string;
}

/** The chart's height in a pane: stacked (a short pane) it is compact and the timeline gets most of the height. */
function chartHeight(size: ElementSize, compact: boolean): number {
  return Math.round(
    compact ? Math.min(150, Math.max(80, size.height * 0.28)) : Math.min(240, Math.max(140, size.height * 0.3)),
  );
}

/** The Replay workspace's two panes: chart and timeline (master), the selected turn (detail). */
export function ReplayPanes({ model, selection, turnCount, prompt }: ReplayPanesProps) {
  const { series, timelineLanes, visibleRows, detail } = model;
  const messageQuery = useTimelineFilterStore((s) => s.messageQuery);
  const setMessageQuery = useTimelineFilterStore((s) => s.setMessageQuery);
  const master = (size: ElementSize, orientation: WorkspaceOrientation) => {
    const compact = orientation === 'vertical';
    return (
      <>
        <BudgetChart
          series={series}
          measure={selection.measure}
          selectedTurn={selection.turn}
          onSelectTurn={selection.selectTurn}
          height={chartHeight(size, compact)}
          initialWidth={size.width}
          compact={compact}
        />
        <FillHeight>
          {(height) => (
            <TimelineTable
              lanes={timelineLanes}
              rows={visibleRows}
              selectedTurn={selection.turn}
              onSelectTurn={selection.selectTurn}
              height={height}
            />
          )}
        </FillHeight>
      </>
    );
  };
  return (
    <ReplayWorkspace
      detailKey={`${selection.laneId}:${selection.turn}`}
      masterWidth={TURN_COLUMN_WIDTH + timelineLanes.length * LANE_COLUMNS_WIDTH}
      master={master}
      detail={
        detail ? (
          <TurnView
            detail={detail}
            turnCount={turnCount}
            prompt={prompt}
            lanes={timelineLanes}
            onSelectLane={selection.selectLane}
            expanded={selection.expanded}
            onToggle={selection.toggleExpanded}
            messageQuery={messageQuery}
            onMessageQuery={setMessageQuery}
            onCopy={(text) => void copyText(text)}
            onOpenLane={(sessionId, laneId, turn) => {
              selection.selectSession(sessionId, laneId);
              selection.selectTurn(turn);
            }}
          />
        ) : (
          <p className="muted">This lane has no turn {selection.turn + 1}.</p>
        )
      }
    />
  );
}
