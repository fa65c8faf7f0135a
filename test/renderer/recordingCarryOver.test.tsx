/**
 * Nothing carries over to the next recording by accident: the timeline's search and filters, "only turns where lanes
 * differ", and Compare's lane ticks, mode, filters and cell named the previous recording's lanes and turns, so a new
 * one starts them afresh (renderer/src/flows/recordingView.ts). And a filter that keeps out every turn says so, in
 * place of an empty table, with a way to clear it.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import { installRecording } from '../../renderer/src/flows/installRecording';
import { resetCompareStore, useCompareStore } from '../../renderer/src/store/compareStore';
import { resetReplayStore } from '../../renderer/src/store/replayStore';
import { resetSelectionStore, useSelectionStore } from '../../renderer/src/store/selectionStore';
import { resetTimelineFilterStore, useTimelineFilterStore } from '../../renderer/src/store/timelineFilterStore';
import { ReplayView } from '../../renderer/src/views/ReplayView';
import { NO_TIMELINE_FILTER } from '../../renderer/src/model/timelineFilter';
import { createFakeInspectorClient } from './fakeInspectorClient';
import { makeRecording } from './recordingFixture';

afterEach(() => {
  resetReplayStore();
  resetSelectionStore();
  resetCompareStore();
  resetTimelineFilterStore();
});

describe('a new recording', () => {
  it('starts the timeline filters, the lane ticks and Compare’s mode afresh', () => {
    installRecording(makeRecording(), 'r1', 'first');
    const older = makeRecording();
    useTimelineFilterStore.getState().setFilter({ text: 'login', event: 'warning' });
    useTimelineFilterStore.getState().setMessageQuery('tests');
    useSelectionStore.getState().setOnlyDiffering(true);
    const compare = useCompareStore.getState();
    compare.setBaseline({ id: 'r0', title: 'the replay before', recording: older });
    compare.toggleLane('recent-window', ['legacy', 'recent-window']);
    compare.setOnlyDiffering(true);
    compare.setChangedOnly(true);
    compare.selectCell('u1', 1);

    const next = makeRecording();
    next.lanes = next.lanes.map((lane) => ({ ...lane, label: `${lane.label} (new)` }));
    installRecording(next, 'r2', 'second');
    expect(useTimelineFilterStore.getState()).toMatchObject({ filter: NO_TIMELINE_FILTER, messageQuery: '' });
    expect(useSelectionStore.getState()).toMatchObject({ sessionId: 'sess-1', laneId: 'legacy', onlyDiffering: false });
    expect(useCompareStore.getState()).toMatchObject({
      laneIds: null,
      baseline: null,
      onlyDiffering: false,
      changedOnly: false,
      rowId: null,
      column: 0,
    });
  });
});

describe('a timeline filter that matches no turn', () => {
  function showReplay() {
    installRecording(makeRecording(), 'r1', 'agent:main:demo');
    render(
      <ClientContext.Provider value={createFakeInspectorClient({}).client}>
        <ReplayView />
      </ClientContext.Provider>,
    );
  }

  it('says which filters keep every turn out, and Clear shows the turns again', () => {
    showReplay();
    expect(screen.getAllByTestId('timeline-row')).toHaveLength(3);
    act(() => useTimelineFilterStore.getState().setFilter({ text: 'no such words', role: 'user' }));
    expect(screen.queryAllByTestId('timeline-row')).toHaveLength(0);
    const empty = screen.getByTestId('timeline-no-match');
    expect(empty.textContent).toContain('No turn of 3 has a user message containing “no such words”.');
    fireEvent.click(screen.getByRole('button', { name: 'Clear the filters' }));
    expect(screen.queryByTestId('timeline-no-match')).toBeNull();
    expect(screen.getAllByTestId('timeline-row')).toHaveLength(3);
    expect(useTimelineFilterStore.getState().filter).toEqual(NO_TIMELINE_FILTER);
  });

  it('counts "only turns where lanes differ" as one of them, and clears it too', () => {
    showReplay();
    act(() => {
      useSelectionStore.getState().setOnlyDiffering(true);
      useTimelineFilterStore.getState().setFilter({ event: 'spawn' });
    });
    expect(screen.getByTestId('timeline-no-match').textContent).toContain(
      'No turn of 3 has a subagent spawn event and lanes that differ.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Clear the filters' }));
    expect(useSelectionStore.getState().onlyDiffering).toBe(false);
    expect(screen.getAllByTestId('timeline-row')).toHaveLength(3);
  });
});
