import { useDeferredValue } from 'react';
import { useInspectorClient } from '../bridge/ClientContext';
import type { InspectorClient } from '../bridge/InspectorClient';
import { ReplayControls } from '../components/ReplayControls';
import { ReplayEmptyState } from '../components/ReplayEmptyState';
import { ReplayHeader } from '../components/ReplayHeader';
import { ReplayNotices } from '../components/ReplayNotices';
import { ReplayStreamProgress } from '../components/ReplayStreamProgress';
import { lanesOfSession, sessionChoices, sessionViewTitle } from '../model/recordingLanes';
import { useAppStore } from '../store/appStore';
import { openDemoReplay } from '../store/openDemo';
import { STILL_RUNNING, useReplayStore, type ExportFormat } from '../store/replayStore';
import { useSelectionStore } from '../store/selectionStore';
import { useShallow } from 'zustand/react/shallow';
import { exportCurrentRecording } from './exportRecording';
import { ReplayPanes } from './ReplayPanes';
import { TimelineSearch } from './TimelineSearch';
import { useReplayKeys } from './useReplayKeys';
import { useReplayModel } from './useReplayModel';
import './ReplayView.css';

/** Saves the current recording's export as a file (an error is shown from the store's exportError). */
function useExport(client: InspectorClient | null) {
  return (format: ExportFormat) => client && exportCurrentRecording(client, format);
}

/** The selection minus the turn and the opened messages: a turn switch re-renders ReplayPanes, not the whole view. */
function useViewSelection() {
  return useSelectionStore(
    useShallow((s) => ({
      sessionId: s.sessionId,
      laneId: s.laneId,
      measure: s.measure,
      onlyDiffering: s.onlyDiffering,
    })),
  );
}

/**
 * The replay store's part the view shows. Of the run only what changes the view's shape (is this recording's replay
 * streaming, or followed live): its progress is read by the strip that shows it, so the lane-turns counting up while
 * a replay streams re-render that strip alone, not the timeline and the turn.
 */
function useShownReplay() {
  return useReplayStore(
    useShallow((s) => {
      // the run that is making this recording: following the session (live), or streaming a one-off replay
      const own = s.run?.status === 'running' && s.run.replayId === s.recordingReplayId ? s.run : null;
      return {
        recording: s.recording,
        recordingTitle: s.recordingTitle,
        exporting: s.exporting,
        exportError: s.exportError,
        streaming: own !== null && !own.following,
        livePasses: own?.following ? (own.passes ?? 0) : null,
        cancel: s.cancel,
      };
    }),
  );
}

/** A streaming replay's progress and Cancel (on the header's line). */
function StreamProgress({ onCancel }: { onCancel(): void }) {
  const progress = useReplayStore(
    useShallow((s) => ({ done: s.run?.done ?? 0, total: s.run?.total ?? 0, pace: s.run?.pace })),
  );
  return <ReplayStreamProgress running={{ ...progress, onCancel }} />;
}

/** The current recording: budget chart, per-turn timeline (lanes side by side) and the selected turn in detail. */
export function ReplayView() {
  const client = useInspectorClient();
  const { recordingTitle, exporting, exportError, streaming, livePasses, cancel, ...shown } = useShownReplay();
  // a streamed recording's redraw (once a second, the whole view) is rendered in the background: a key press or a
  // click interrupts it instead of waiting behind it
  const recording = useDeferredValue(shown.recording);
  const onExport = useExport(client);
  const selection = useViewSelection();
  const { selectSession, setMeasure, setOnlyDiffering } = useSelectionStore.getState();
  const selectSection = useAppStore((s) => s.selectSection);
  const model = useReplayModel(recording, selection);
  const { sessionId, laneId, lanes, timelineLanes, series, rows, visibleRows, problems } = model;
  useReplayKeys(visibleRows, lanes);

  if (!recording || !series || !problems) {
    return (
      <ReplayEmptyState
        canReplayDemo={Boolean(client)}
        onReplayDemo={() => client && void openDemoReplay(client)}
        onChooseSession={() => selectSection('sessions')}
      />
    );
  }

  const turnCount = Math.max(0, ...lanes.map((lane) => recording.turns[lane.id]?.length ?? 0));

  return (
    <div className="view replay-view">
      <ReplayHeader
        {...sessionViewTitle(recording, sessionId, recordingTitle)}
        turnCount={turnCount}
        laneCount={lanes.length}
        entryCount={(recording.childSessions[sessionId] ?? recording.session).entryCount}
        wallMs={recording.stats.wallMs}
        problems={problems}
        exporting={exporting}
        onExport={onExport}
        {...(streaming ? { exportWaitReason: STILL_RUNNING, streaming: true } : {})}
        {...(streaming && client ? { progress: <StreamProgress onCancel={() => void cancel(client)} /> } : {})}
        {...(livePasses !== null && client ? { live: { passes: livePasses, onStop: () => void cancel(client) } } : {})}
      />
      <ReplayNotices recording={recording} exportError={exportError} laneIds={lanes.map((lane) => lane.id)} />
      {recording.partial && <ReplayStreamProgress partial={recording.partial} />}

      {/* one line where the width allows: in a short window the timeline gets the height */}
      <div className="replay-view__toolbar">
        <ReplayControls
          sessionChoices={sessionChoices(recording)}
          sessionId={sessionId}
          onSelectSession={(id) => selectSession(id, lanesOfSession(recording, id)[0]?.id ?? null)}
          measure={selection.measure}
          onSetMeasure={setMeasure}
          canFilterDiffering={lanes.length > 1}
          onlyDiffering={selection.onlyDiffering}
          differingCount={rows.filter((row) => row.differs).length}
          onSetOnlyDiffering={setOnlyDiffering}
        />
        <TimelineSearch recording={recording} shown={visibleRows.length} total={rows.length} />
      </div>

      <ReplayPanes
        recording={recording}
        laneId={laneId}
        measure={selection.measure}
        series={series}
        timelineLanes={timelineLanes}
        rows={rows}
        visibleRows={visibleRows}
        turnCount={turnCount}
      />
    </div>
  );
}
