import { useInspectorClient } from '../bridge/ClientContext';
import type { InspectorClient } from '../bridge/InspectorClient';
import { ReplayControls } from '../components/ReplayControls';
import { ReplayEmptyState } from '../components/ReplayEmptyState';
import { ReplayHeader } from '../components/ReplayHeader';
import { ReplayNotices } from '../components/ReplayNotices';
import { ReplayStreamProgress } from '../components/ReplayStreamProgress';
import { lanesOfSession, sessionChoices } from '../model/recordingLanes';
import type { Recording } from '../recordingTypes';
import { useAppStore } from '../store/appStore';
import { openDemoReplay } from '../store/openDemo';
import { STILL_RUNNING, useReplayStore, type ExportFormat } from '../store/replayStore';
import { useSelectionStore } from '../store/selectionStore';
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

function findingCounts(recording: Recording): { errors: number; warnings: number } {
  return {
    errors: recording.findings.filter((f) => f.severity === 'error').length,
    warnings: recording.findings.filter((f) => f.severity === 'warning').length,
  };
}

/** The current recording: budget chart, per-turn timeline (lanes side by side) and the selected turn in detail. */
export function ReplayView() {
  const client = useInspectorClient();
  const recording = useReplayStore((s) => s.recording);
  const recordingTitle = useReplayStore((s) => s.recordingTitle);
  const exporting = useReplayStore((s) => s.exporting);
  const exportError = useReplayStore((s) => s.exportError);
  const run = useReplayStore((s) => s.run);
  const recordingReplayId = useReplayStore((s) => s.recordingReplayId);
  const cancel = useReplayStore((s) => s.cancel);
  const onExport = useExport(client);
  const selection = useSelectionStore();
  const selectSection = useAppStore((s) => s.selectSection);
  const { sessionId, lanes, timelineLanes, series, rows, visibleRows, detail } = useReplayModel(recording, selection);
  useReplayKeys(visibleRows, lanes);

  if (!recording || !series) {
    return (
      <ReplayEmptyState
        canReplayDemo={Boolean(client)}
        onReplayDemo={() => client && void openDemoReplay(client)}
        onChooseSession={() => selectSection('sessions')}
      />
    );
  }

  const turnCount = Math.max(0, ...lanes.map((lane) => recording.turns[lane.id]?.length ?? 0));
  const prompt = rows.find((row) => row.turn === selection.turn)?.prompt ?? '';

  return (
    <div className="view replay-view">
      <ReplayHeader
        title={recordingTitle || recording.session.sessionId}
        turnCount={turnCount}
        laneCount={lanes.length}
        entryCount={recording.session.entryCount}
        wallMs={recording.stats.wallMs}
        {...findingCounts(recording)}
        exporting={exporting}
        onExport={onExport}
        {...(run?.status === 'running' && !run.following && run.replayId === recordingReplayId
          ? { exportWaitReason: STILL_RUNNING }
          : {})}
        {...(run?.following && run.status === 'running' && run.replayId === recordingReplayId && client
          ? { live: { passes: run.passes ?? 0, onStop: () => void cancel(client) } }
          : {})}
      />
      <ReplayNotices recording={recording} exportError={exportError} />
      <ReplayStreamProgress
        partial={recording.partial}
        {...(run?.status === 'running' && !run.following && run.replayId === recordingReplayId && client
          ? {
              running: {
                done: run.done,
                total: run.total,
                elapsedMs: run.elapsedMs,
                onCancel: () => void cancel(client),
              },
            }
          : {})}
      />

      <ReplayControls
        sessionChoices={sessionChoices(recording)}
        sessionId={sessionId}
        onSelectSession={(id) => selection.selectSession(id, lanesOfSession(recording, id)[0]?.id ?? null)}
        measure={selection.measure}
        onSetMeasure={selection.setMeasure}
        canFilterDiffering={lanes.length > 1}
        onlyDiffering={selection.onlyDiffering}
        differingCount={rows.filter((row) => row.differs).length}
        onSetOnlyDiffering={selection.setOnlyDiffering}
      />
      <TimelineSearch recording={recording} shown={visibleRows.length} total={rows.length} />

      <ReplayPanes
        model={{ series, timelineLanes, visibleRows, detail }}
        selection={selection}
        turnCount={turnCount}
        prompt={prompt}
      />
    </div>
  );
}
