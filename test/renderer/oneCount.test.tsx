/**
 * Issue 34: one count, one definition, shown everywhere. The Replay header's error and warning counts are the turns
 * the timeline's error and warning filters find; a finding that belongs to no turn is counted apart, never on a
 * turn's verdict; Compare's "changed since the previous turn" count says it counts messages, of how many.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import { installRecording } from '../../renderer/src/flows/installRecording';
import type { Recording } from '../../renderer/src/recordingTypes';
import { resetCompareStore } from '../../renderer/src/store/compareStore';
import { resetReplayStore } from '../../renderer/src/store/replayStore';
import { resetSelectionStore, useSelectionStore } from '../../renderer/src/store/selectionStore';
import { resetTimelineFilterStore } from '../../renderer/src/store/timelineFilterStore';
import { CompareView } from '../../renderer/src/views/CompareView';
import { ReplayView } from '../../renderer/src/views/ReplayView';
import { alignTurn, compareLanes, problemCounts } from '../../src/view';
import { groupLaneFindings } from '../../renderer/src/model/laneFindings';
import { createFakeInspectorClient } from './fakeInspectorClient';
import { makeRecording } from './recordingFixture';

afterEach(() => {
  resetReplayStore();
  resetSelectionStore();
  resetCompareStore();
  resetTimelineFilterStore();
});

/**
 * The fixture (recent-window: a warning finding and a warning event at turn 2, a prompt error and an error finding
 * at turn 3) plus a warning finding at legacy's turn 1 without a warning event, and an error finding of legacy that
 * belongs to no turn (an engine call that failed outside any turn).
 */
function recordingWithProblems(): Recording {
  const recording = structuredClone(makeRecording());
  recording.findings.push(
    { code: 'over-budget', severity: 'warning', lane: 'legacy', turn: 0, message: 'assembled 12,000 of 11,946' },
    { code: 'engine-call-failed', severity: 'error', lane: 'legacy', turn: null, message: 'bootstrap() threw' },
  );
  return recording;
}

function showReplay(recording: Recording) {
  installRecording(recording, 'r1', 'agent:main:demo');
  render(
    <ClientContext.Provider value={createFakeInspectorClient({}).client}>
      <ReplayView />
    </ClientContext.Provider>,
  );
}

/** "2 error turns, 1 warning turn" → [2, 1]; "no error or warning turns" → [0, 0] */
function headerCounts(): { errors: number; warnings: number } {
  const meta = document.querySelector('.replay-view__meta')!.textContent!;
  if (meta.includes('no error or warning turns')) return { errors: 0, warnings: 0 };
  const match = /([\d,]+) error turns?, ([\d,]+) warning turns?/.exec(meta);
  expect(match, `the header says how many turns have errors and warnings: "${meta}"`).not.toBeNull();
  return { errors: Number(match![1]), warnings: Number(match![2]) };
}

/** What the timeline's event filter keeps: "N of 3 turns". */
function filtered(event: string): number {
  fireEvent.change(screen.getByLabelText('Event'), { target: { value: event } });
  const count = screen.queryByTestId('timeline-filter-count')?.textContent ?? '';
  const found = /^([\d,]+) of/.exec(count);
  return found ? Number(found[1]) : 0;
}

describe('the Replay header counts what the filters find', () => {
  it('its error and warning turns are the turns the error and warning filters keep', () => {
    showReplay(recordingWithProblems());
    const header = headerCounts();
    expect(header).toEqual({ errors: 1, warnings: 2 });
    expect({ errors: filtered('error'), warnings: filtered('warning') }).toEqual(header);
    // and a finding of any severity: turns 1 and 2 have findings, turn 3 an error finding
    expect(filtered('finding')).toBe(3);
  });

  it('counts a finding that belongs to no turn apart, and no turn’s verdict shows it', () => {
    showReplay(recordingWithProblems());
    expect(document.querySelector('.replay-view__meta')!.textContent).toContain('1 error outside turns');
    expect(screen.getByTestId('lane-finding').textContent).toContain('bootstrap() threw');
    // legacy's turn 2 has nothing of its own: its verdict is ok (it said "1 error", which no filter found)
    act(() => useSelectionStore.getState().selectTurn(1));
    expect(screen.getByTestId('turn-status').textContent).toBe('ok');
    // legacy's turn 1: one warning finding, which the warning filter finds
    act(() => useSelectionStore.getState().selectTurn(0));
    expect(screen.getByTestId('turn-status').textContent).toBe('1 warning');
  });

  it('shows every error it counts outside turns: an engine quarantined before its first turn is a notice', () => {
    const recording = recordingWithProblems();
    recording.findings.push({
      code: 'quarantined',
      severity: 'error',
      lane: 'recent-window',
      turn: null,
      message:
        'Context engine "recent-window" failed during factory: boom. The lane runs on "legacy" for the whole replay.',
    });
    showReplay(recording);
    expect(document.querySelector('.replay-view__meta')!.textContent).toContain('2 errors outside turns');
    expect(screen.getAllByTestId('lane-finding').map((n) => n.textContent)).toEqual([
      'Lane legacy (engine-call-failed): bootstrap() threw',
      'Lane recent-window (quarantined): Context engine "recent-window" failed during factory: boom. The lane runs on "legacy" for the whole replay.',
    ]);
    // of the lanes a view shows (a subagent's view shows its lanes): as many notices as errors counted
    for (const lanes of [['legacy'], ['recent-window'], ['legacy', 'recent-window']])
      expect(groupLaneFindings(recording, lanes).filter((g) => g.severity === 'error').length).toBe(
        problemCounts(recording, lanes).outsideTurns.errors,
      );
  });

  it('the timeline badges say errors and warnings as the filters count them', () => {
    showReplay(recordingWithProblems());
    // every badge's word, the ones behind a cell's +N too (its tooltip lists them all, one "word: what" a line)
    const words = screen
      .getAllByTestId('cell-events')
      .flatMap((cell) => (cell.getAttribute('title') ?? '').split('\n').map((line) => line.split(':')[0]!));
    // legacy turn 1 (a finding), recent-window turn 2 (a finding and an event)
    expect(words.filter((word) => /^\d+ warnings?$/.test(word)).sort()).toEqual(['1 warning', '2 warnings']);
    expect(words.filter((word) => /^\d+ errors?$/.test(word))).toEqual(['1 error']);
  });
});

describe('Compare’s "changed since the previous turn" count', () => {
  it('counts the message rows the filter keeps at this turn, of all its rows, and says they are messages', () => {
    const recording = makeRecording();
    installRecording(recording, 'r1', 'demo');
    act(() => useSelectionStore.getState().selectTurn(2));
    render(<CompareView />);
    const rows = alignTurn(compareLanes(recording), 2).rows;
    const changed = rows.filter((row) => row.changed).length;
    expect(changed).toBeGreaterThan(0);
    expect(screen.getByTestId('changed-only').parentElement!.textContent).toBe(
      `Only messages changed since the previous turn (${changed} of ${rows.length} at this turn)`,
    );
  });
});
