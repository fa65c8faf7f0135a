import { useMemo } from 'react';
import {
  alignTurn,
  changedRowCount,
  compareLanes,
  compareRecordings,
  displayItems,
  laneColor,
  turnCountOf,
  turnDifferences,
  type CompareInput,
} from '../../../src/view';
import type { CompareBaselineChoice, CompareLaneChoice } from '../components/CompareControls';
import type { CompareTurnItem } from '../components/CompareTurnList';
import { cellDetail } from '../model/compareCellDetail';
import { lanesOfSession } from '../model/recordingLanes';
import type { Recording } from '../recordingTypes';
import type { CompareState } from '../store/compareStore';
import type { FinishedRecording } from '../store/replayStore';

type CompareSelection = Pick<
  CompareState,
  'laneIds' | 'baseline' | 'onlyDiffering' | 'changedOnly' | 'rowId' | 'column' | 'openFolds'
>;

/** A lane spec with folders cut to their last part: `plugin:recent-window?config=tight.json`. */
export function shortSpec(spec: string): string {
  return spec.replace(/(^|[:=])(?:[A-Za-z]:)?[\\/][^?&=\s]*[\\/]([^\\/?&=\s]+)/g, '$1$2');
}

function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString('en-GB');
}

/** Earlier recordings of the same session: what this one can be set against. */
export function baselineChoices(
  recording: Recording,
  previous: readonly FinishedRecording[],
  baseline: CompareState['baseline'],
): CompareBaselineChoice[] {
  const choices = previous
    .filter((p) => p.recording.session.sessionId === recording.session.sessionId)
    .map((p) => ({
      id: p.replayId,
      label: `the replay of ${timeOf(p.finishedAt)} (${p.recording.lanes
        .filter((l) => !l.parentLane)
        .map((l) => shortSpec(l.spec))
        .join(', ')})`,
    }));
  if (baseline && !choices.some((c) => c.id === baseline.id)) choices.push({ id: baseline.id, label: baseline.title });
  return choices;
}

function buildInput(
  recording: Recording,
  baseline: CompareState['baseline'],
  laneIds: readonly string[],
): { input: CompareInput | null; problem: string | null } {
  if (baseline) {
    const pair = compareRecordings(baseline.recording, recording, { laneIds });
    return pair.ok ? { input: pair.input, problem: null } : { input: null, problem: pair.problem.message };
  }
  if (laneIds.length < 2) return { input: null, problem: 'Pick at least two lanes to compare.' };
  return { input: compareLanes(recording, laneIds), problem: null };
}

/** What the Compare view draws from the recording, the shared turn and its own selection. */
export function useCompareModel(recording: Recording, sessionId: string, turn: number, compare: CompareSelection) {
  const sessionLanes = useMemo(() => lanesOfSession(recording, sessionId), [recording, sessionId]);
  const laneKey = (compare.laneIds ?? sessionLanes.map((l) => l.id)).join('\u0000');
  const laneIds = useMemo(
    () => sessionLanes.map((l) => l.id).filter((id) => laneKey.split('\u0000').includes(id)),
    [sessionLanes, laneKey],
  );
  const { input, problem } = useMemo(
    () => buildInput(recording, compare.baseline, laneIds),
    [recording, compare.baseline, laneIds],
  );
  const turnItems = useMemo<CompareTurnItem[]>(
    () => (input ? turnDifferences(input).map((d) => ({ turn: d.turn, differs: d.differs, summary: d.summary })) : []),
    [input],
  );
  const turnCount = input ? turnCountOf(input) : 0;
  const visibleTurns = compare.onlyDiffering ? turnItems.filter((t) => t.differs) : turnItems;
  const aligned = useMemo(() => (input && turn < turnCount ? alignTurn(input, turn) : null), [input, turn, turnCount]);
  const items = useMemo(() => {
    if (!aligned) return [];
    const open = new Set(
      Object.keys(compare.openFolds)
        .filter((key) => key.startsWith(`${turn}:`))
        .map((key) => Number(key.slice(key.indexOf(':') + 1))),
    );
    return displayItems(aligned.rows, { open, changedOnly: compare.changedOnly });
  }, [aligned, compare.openFolds, compare.changedOnly, turn]);
  const laneChoices: CompareLaneChoice[] = sessionLanes.map((lane) => ({
    id: lane.id,
    label: lane.label,
    color: laneColor(recording.lanes, lane.id),
    checked: laneIds.includes(lane.id),
  }));
  const colors = (input?.columns ?? []).map((c) => laneColor(c.recording.lanes, c.lane.id));
  const rowIndex = aligned ? aligned.rows.findIndex((r) => r.id === compare.rowId) : -1;
  const detail = aligned && rowIndex >= 0 ? cellDetail(aligned, rowIndex, compare.column) : null;
  const changedCount = changedRowCount(aligned?.rows ?? []);
  return {
    input,
    problem,
    turnItems,
    visibleTurns,
    turnCount,
    aligned,
    items,
    laneChoices,
    colors,
    detail,
    changedCount,
  };
}
