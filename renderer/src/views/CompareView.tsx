import { AlignedTable } from '../components/AlignedTable';
import { CompareControls } from '../components/CompareControls';
import { CompareLegend } from '../components/CompareLegend';
import { ComparePanel } from '../components/ComparePanel';
import { CompareTurnList } from '../components/CompareTurnList';
import { Notice } from '../components/Notice';
import { ReplayEmptyState } from '../components/ReplayEmptyState';
import { useInspectorClient } from '../bridge/ClientContext';
import { parseRecordingFile } from '../model/recordingFile';
import type { Recording } from '../recordingTypes';
import { useAppStore } from '../store/appStore';
import { useCompareStore, type CompareBaseline } from '../store/compareStore';
import { openDemoReplay } from '../store/openDemo';
import { useReplayStore, type FinishedRecording } from '../store/replayStore';
import { useSelectionStore } from '../store/selectionStore';
import { baselineChoices, useCompareModel } from './useCompareModel';
import { useCompareKeys } from './useCompareKeys';
import { formatCount } from '../formatQuantities';
import './CompareView.css';

function pickBaseline(id: string, previous: readonly FinishedRecording[], current: CompareBaseline | null) {
  if (id === '') return null;
  if (current?.id === id) return current;
  const found = previous.find((p) => p.replayId === id);
  return found ? { id, title: `the replay of ${found.title}`, recording: found.recording } : null;
}

async function loadBaselineFile(file: File, recording: Recording): Promise<void> {
  const store = useCompareStore.getState();
  const parsed = parseRecordingFile(await file.text(), file.name);
  if (!parsed.ok) store.setBaselineProblem(parsed.problem);
  else if (parsed.recording.session.sessionId !== recording.session.sessionId) {
    store.setBaselineProblem(
      `${file.name} replays session ${parsed.recording.session.sessionId}, not ${recording.session.sessionId}: compare two recordings of the same session.`,
    );
  } else store.setBaseline({ id: `file:${file.name}`, title: file.name, recording: parsed.recording });
}

function CompareContent({ recording, previous }: { recording: Recording; previous: FinishedRecording[] }) {
  const selection = useSelectionStore();
  const compare = useCompareStore();
  const sessionId = selection.sessionId ?? recording.session.sessionId;
  const model = useCompareModel(recording, sessionId, selection.turn, compare);
  const columnLaneIds = (model.input?.columns ?? []).map((c) => c.lane.id);
  useCompareKeys(
    model.visibleTurns.map((t) => t.turn),
    columnLaneIds,
  );
  const differing = model.turnItems.filter((t) => t.differs).length;
  const aligned = model.aligned;
  return (
    <>
      <CompareControls
        lanes={model.laneChoices}
        onToggleLane={(id) =>
          compare.toggleLane(
            id,
            model.laneChoices.map((l) => l.id),
          )
        }
        baselines={baselineChoices(recording, previous, compare.baseline)}
        baselineId={compare.baseline?.id ?? ''}
        onSelectBaseline={(id) => compare.setBaseline(pickBaseline(id, previous, compare.baseline))}
        onLoadFile={(file) => void loadBaselineFile(file, recording)}
        onlyDiffering={compare.onlyDiffering}
        differingCount={differing}
        turnCount={model.turnCount}
        onSetOnlyDiffering={compare.setOnlyDiffering}
        changedOnly={compare.changedOnly}
        changedCount={model.changedCount}
        onSetChangedOnly={compare.setChangedOnly}
      />
      {compare.baselineProblem && <Notice tone="error">{compare.baselineProblem}</Notice>}
      {model.problem && <Notice tone="info">{model.problem}</Notice>}
      {aligned && model.input && (
        <>
          <CompareTurnList
            turns={model.visibleTurns}
            selectedTurn={selection.turn}
            onSelectTurn={selection.selectTurn}
          />
          <div className="compare-view__turn-head">
            <h2 className="compare-view__turn-title">
              Turn {formatCount(aligned.turn + 1)} of {formatCount(model.turnCount)}
            </h2>
            <p
              className={`compare-view__difference${aligned.difference.differs ? ' compare-view__difference--differs' : ''}`}
              data-testid="compare-difference"
            >
              {aligned.difference.differs
                ? `≠ ${aligned.difference.summary}`
                : 'The lanes assembled the same at this turn.'}
            </p>
          </div>
          <CompareLegend />
          <div className="compare-view__body">
            <AlignedTable
              aligned={aligned}
              items={model.items}
              colors={model.colors}
              selectedRowId={compare.rowId}
              selectedColumn={compare.column}
              onSelectCell={compare.selectCell}
              onSelectColumn={(c) => compare.selectCell(compare.rowId ?? '', c)}
              onToggleFold={(start) => compare.toggleFold(aligned.turn, start)}
            />
            <ComparePanel
              detail={model.detail}
              onShowRow={(row) => compare.selectCell(aligned.rows[row - 1]?.id ?? '', compare.column)}
            />
          </div>
        </>
      )}
    </>
  );
}

/** Lanes (or two recordings) side by side, message by message, at the turn the Replay view has selected. */
export function CompareView() {
  const client = useInspectorClient();
  const recording = useReplayStore((s) => s.recording);
  const title = useReplayStore((s) => s.recordingTitle);
  const previous = useReplayStore((s) => s.previous);
  const baseline = useCompareStore((s) => s.baseline);
  const selectSection = useAppStore((s) => s.selectSection);
  if (!recording) {
    return (
      <ReplayEmptyState
        canReplayDemo={Boolean(client)}
        onReplayDemo={() => client && void openDemoReplay(client)}
        onChooseSession={() => selectSection('sessions')}
      />
    );
  }
  return (
    <div className="view compare-view" data-testid="compare-view">
      <header className="view__header">
        <div>
          <h1 className="view__title">
            Compare <span className="mono">{title || recording.session.sessionId}</span>
          </h1>
          <p className="view__lede">
            {baseline
              ? `Each lane of ${baseline.title} (old) against the same lane of this recording (new): the turns where an engine now assembles something different.`
              : 'What each lane sent at this turn, message by message, aligned by identity: a message one lane sent and another left out is one row.'}
          </p>
        </div>
      </header>
      <CompareContent recording={recording} previous={previous} />
    </div>
  );
}
