import { useEffect, useMemo } from 'react';
import { laneColor, problemCounts, problemSummary } from '../../../src/view';
import type { TimelineLane } from '../components/TimelineTable';
import { buildBudgetSeries } from '../model/budgetSeries';
import { lanesNamedForView, lanesOfSession } from '../model/recordingLanes';
import { filterTimelineRows, isFiltering } from '../model/timelineFilter';
import { buildTimelineRows } from '../model/timelineRows';
import type { Recording } from '../recordingTypes';
import { useSelectionStore, type SelectionState } from '../store/selectionStore';
import { useTimelineFilterStore } from '../store/timelineFilterStore';

type Selection = Pick<SelectionState, 'sessionId' | 'laneId' | 'measure' | 'onlyDiffering'>;

/**
 * What the Replay view draws from the recording and the selection, each figure recomputed only when it must. The
 * selected turn is not an input: a turn switch changes none of this (the turn's detail is cachedTurnDetail's).
 */
export function useReplayModel(recording: Recording | null, selection: Selection) {
  const sessionId = selection.sessionId ?? recording?.session.sessionId ?? '';
  // a subagent's lanes named after the lanes they descend from: the title names the subagent (sessionViewTitle)
  const lanes = useMemo(
    () => (recording ? lanesNamedForView(recording, lanesOfSession(recording, sessionId)) : []),
    [recording, sessionId],
  );
  const timelineLanes = useMemo<TimelineLane[]>(
    () =>
      recording
        ? lanes.map((lane) => ({ id: lane.id, label: lane.label, color: laneColor(recording.lanes, lane.id) }))
        : [],
    [recording, lanes],
  );
  // the header's error and warning turns: the turns the timeline's error and warning filters find in these lanes
  const problems = useMemo(
    () =>
      recording
        ? problemSummary(
            problemCounts(
              recording,
              lanes.map((lane) => lane.id),
            ),
          )
        : null,
    [recording, lanes],
  );
  const series = useMemo(
    () => (recording ? buildBudgetSeries(recording, lanes, selection.measure) : null),
    [recording, lanes, selection.measure],
  );
  const rows = useMemo(
    () => (recording ? buildTimelineRows(recording, lanes, selection.measure) : []),
    [recording, lanes, selection.measure],
  );
  const filter = useTimelineFilterStore((s) => s.filter);
  const visibleRows = useMemo(() => {
    const differing = selection.onlyDiffering ? rows.filter((row) => row.differs) : rows;
    return recording ? filterTimelineRows(differing, recording, lanes, filter) : differing;
  }, [rows, selection.onlyDiffering, recording, lanes, filter]);
  // a search that no longer shows the selected turn moves the selection to its first match
  useEffect(() => {
    if (!isFiltering(filter) || visibleRows.length === 0) return;
    const { turn, selectTurn } = useSelectionStore.getState();
    if (!visibleRows.some((row) => row.turn === turn)) selectTurn(visibleRows[0]!.turn);
  }, [filter, visibleRows]);
  const laneId = lanes.some((lane) => lane.id === selection.laneId) ? selection.laneId! : (lanes[0]?.id ?? null);
  return { sessionId, laneId, lanes, timelineLanes, series, rows, visibleRows, problems };
}
