import { useEffect, useMemo } from 'react';
import { useInspectorClient } from '../bridge/ClientContext';
import { BudgetChart } from '../components/BudgetChart';
import { ExportButtons } from '../components/ExportButtons';
import { Notice } from '../components/Notice';
import { Tag } from '../components/Tag';
import { TimelineTable } from '../components/TimelineTable';
import { TurnView } from '../components/TurnView';
import { downloadText } from '../downloadText';
import { formatCount, formatDuration } from '../formatQuantities';
import { buildBudgetSeries, type TokenMeasure } from '../model/budgetSeries';
import { laneColor, lanesOfSession, sessionChoices } from '../model/recordingLanes';
import { buildTimelineRows } from '../model/timelineRows';
import { buildTurnDetail } from '../model/turnDetail';
import { useAppStore } from '../store/appStore';
import type { Recording } from '../recordingTypes';
import { openDemoReplay } from '../store/openDemo';
import { useReplayStore } from '../store/replayStore';
import { useSelectionStore } from '../store/selectionStore';

const TYPING_TARGETS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

function exportFileName(title: string, format: 'json' | 'html'): string {
  const safe = title.replace(/[^a-zA-Z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'replay';
  return `contextscope-${safe}.${format === 'json' ? 'recording.json' : 'report.html'}`;
}

/**
 * Lane-level findings (turn null: settings that affect every turn), one notice per distinct message with the
 * labels of the lanes it applies to. Lane-level quarantines are left out: the lane's error already says why.
 */
function groupLaneFindings(
  recording: Recording,
): { code: string; severity: string; message: string; lanes: string[] }[] {
  const groups = new Map<string, { code: string; severity: string; message: string; lanes: string[] }>();
  for (const f of recording.findings) {
    if (f.turn !== null || f.code === 'quarantined') continue;
    const label = recording.lanes.find((l) => l.id === f.lane)?.label ?? f.lane;
    const key = `${f.code}\n${f.message}`;
    const group = groups.get(key);
    if (group) group.lanes.push(label);
    else groups.set(key, { code: f.code, severity: f.severity, message: f.message, lanes: [label] });
  }
  return [...groups.values()];
}

/** The current recording: budget chart, per-turn timeline (lanes side by side) and the selected turn in detail. */
export function ReplayView() {
  const client = useInspectorClient();
  const recording = useReplayStore((s) => s.recording);
  const recordingTitle = useReplayStore((s) => s.recordingTitle);
  const exporting = useReplayStore((s) => s.exporting);
  const exportError = useReplayStore((s) => s.exportError);
  const exportRecording = useReplayStore((s) => s.exportRecording);
  const selection = useSelectionStore();
  const selectSection = useAppStore((s) => s.selectSection);

  const sessionId = selection.sessionId ?? recording?.session.sessionId ?? '';
  const lanes = useMemo(() => (recording ? lanesOfSession(recording, sessionId) : []), [recording, sessionId]);
  const timelineLanes = useMemo(
    () =>
      recording
        ? lanes.map((lane) => ({ id: lane.id, label: lane.label, color: laneColor(recording.lanes.indexOf(lane)) }))
        : [],
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
  const visibleRows = useMemo(
    () => (selection.onlyDiffering ? rows.filter((row) => row.differs) : rows),
    [rows, selection.onlyDiffering],
  );
  const laneId = lanes.some((lane) => lane.id === selection.laneId) ? selection.laneId! : (lanes[0]?.id ?? null);
  const detail = useMemo(
    () => (recording && laneId ? buildTurnDetail(recording, laneId, selection.turn) : null),
    [recording, laneId, selection.turn],
  );

  useEffect(() => {
    const order = visibleRows.map((row) => row.turn);
    const laneIds = lanes.map((lane) => lane.id);
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (target && (TYPING_TARGETS.has(target.tagName) || target.isContentEditable)) return;
      const store = useSelectionStore.getState();
      switch (event.key) {
        case 'ArrowDown':
        case 'j':
          store.moveTurn(1, order);
          break;
        case 'ArrowUp':
        case 'k':
          store.moveTurn(-1, order);
          break;
        case 'Home':
          store.moveTurn(-order.length, order);
          break;
        case 'End':
          store.moveTurn(order.length, order);
          break;
        case 'ArrowRight':
        case 'l':
          store.cycleLane(1, laneIds);
          break;
        case 'ArrowLeft':
        case 'h':
          store.cycleLane(-1, laneIds);
          break;
        default:
          return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [visibleRows, lanes]);

  if (!recording || !series) {
    return (
      <div className="view replay-view">
        <h1 className="view__title">Replay</h1>
        <div className="empty-state">
          <p>
            No replay yet. Replay a session through one or more engines to see, turn by turn, what each one assembled.
          </p>
          <div className="empty-state__actions">
            <button
              type="button"
              className="button button--primary"
              disabled={!client}
              onClick={() => client && void openDemoReplay(client)}
            >
              Replay the demo session
            </button>
            <button type="button" className="button" onClick={() => selectSection('sessions')}>
              Choose a session
            </button>
          </div>
        </div>
      </div>
    );
  }

  const turnCount = Math.max(0, ...lanes.map((lane) => recording.turns[lane.id]?.length ?? 0));
  const errors = recording.findings.filter((f) => f.severity === 'error').length;
  const warnings = recording.findings.filter((f) => f.severity === 'warning').length;
  const choices = sessionChoices(recording);
  const laneFindings = groupLaneFindings(recording);
  const prompt = rows.find((row) => row.turn === selection.turn)?.prompt ?? '';

  return (
    <div className="view replay-view">
      <header className="replay-view__header">
        <div>
          <h1 className="view__title">
            Replay <span className="mono replay-view__session">{recordingTitle || recording.session.sessionId}</span>
          </h1>
          <p className="replay-view__meta muted">
            <span className="mono">{turnCount}</span> turns · <span className="mono">{lanes.length}</span> lanes ·{' '}
            <span className="mono">{formatCount(recording.session.entryCount)}</span> entries · replayed in{' '}
            {formatDuration(recording.stats.wallMs)} ·{' '}
            <Tag
              tone={errors > 0 ? 'bad' : warnings > 0 ? 'warn' : 'ok'}
              text={`${errors} errors, ${warnings} warnings`}
            />
          </p>
        </div>
        <ExportButtons
          busy={exporting}
          onExport={(format) => {
            if (!client) return;
            void exportRecording(client, format).then((content) => {
              if (content !== null) {
                downloadText(
                  exportFileName(recordingTitle, format),
                  content,
                  format === 'json' ? 'application/json' : 'text/html',
                );
              }
            });
          }}
        />
      </header>
      {exportError && <Notice tone="error">Export failed: {exportError}</Notice>}
      {recording.lanes
        .filter((lane) => lane.error)
        .map((lane) => (
          <Notice key={lane.id} tone="error">
            Lane <span className="mono">{lane.label}</span>: {lane.error}
          </Notice>
        ))}
      {laneFindings.map((group) => (
        <Notice key={`${group.code}-${group.lanes.join(',')}`} tone={group.severity === 'error' ? 'error' : 'info'}>
          <span data-testid="lane-finding">
            {group.lanes.length === 1 ? 'Lane' : 'Lanes'} <span className="mono">{group.lanes.join(', ')}</span> (
            {group.code}): {group.message}
          </span>
        </Notice>
      ))}
      {recording.session.problems.length > 0 && (
        <Notice tone="info">
          The transcript had {recording.session.problems.length} problems (read tolerantly): line{' '}
          {recording.session.problems[0]!.line}: {recording.session.problems[0]!.message}
        </Notice>
      )}

      <div className="replay-view__controls">
        {choices.length > 1 && (
          <label className="field field--inline">
            <span className="field__label">Session</span>
            <select
              className="input"
              value={sessionId}
              onChange={(event) => {
                const first = lanesOfSession(recording, event.target.value)[0];
                selection.selectSession(event.target.value, first?.id ?? null);
              }}
            >
              {choices.map((choice) => (
                <option key={choice.sessionId} value={choice.sessionId}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <div className="segmented" role="radiogroup" aria-label="Token count">
          {(['estimate', 'tiktoken'] as TokenMeasure[]).map((measure) => (
            <button
              key={measure}
              type="button"
              role="radio"
              aria-checked={selection.measure === measure}
              className={`segmented__option${selection.measure === measure ? ' segmented__option--active' : ''}`}
              onClick={() => selection.setMeasure(measure)}
            >
              {measure === 'estimate' ? 'OpenClaw estimate' : 'tiktoken'}
            </button>
          ))}
        </div>
        {lanes.length > 1 && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={selection.onlyDiffering}
              onChange={(event) => selection.setOnlyDiffering(event.target.checked)}
            />
            Only turns where lanes differ ({rows.filter((row) => row.differs).length})
          </label>
        )}
        <span className="muted keyboard-hint">
          <kbd>↑</kbd>/<kbd>↓</kbd> or <kbd>j</kbd>/<kbd>k</kbd> turn · <kbd>←</kbd>/<kbd>→</kbd> lane
        </span>
      </div>

      <BudgetChart
        series={series}
        measure={selection.measure}
        selectedTurn={selection.turn}
        onSelectTurn={selection.selectTurn}
      />
      <TimelineTable
        lanes={timelineLanes}
        rows={visibleRows}
        selectedTurn={selection.turn}
        onSelectTurn={selection.selectTurn}
      />
      {detail ? (
        <TurnView
          detail={detail}
          turnCount={turnCount}
          prompt={prompt}
          lanes={timelineLanes}
          onSelectLane={selection.selectLane}
          expanded={selection.expanded}
          onToggle={selection.toggleExpanded}
        />
      ) : (
        <p className="muted">This lane has no turn {selection.turn + 1}.</p>
      )}
    </div>
  );
}
