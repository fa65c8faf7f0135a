/**
 * Turn numbers past 999 are grouped the way every other count in the app is ("Turn 1,050 of 1,200"), so the heading
 * of a long recording reads at a glance.
 */
import { render, screen } from '@testing-library/react';
import { beforeEach, expect, it } from 'vitest';
import type { Recording } from '../../src/contract/recording';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { resetSelectionStore, useSelectionStore } from '../../renderer/src/store/selectionStore';
import { ReplayView } from '../../renderer/src/views/ReplayView';
import { makeRecording } from './recordingFixture';

const TURNS = 1200;

/** The fixture's first turn repeated: a recording of TURNS turns in each lane. */
function longRecording(): Recording {
  const recording = makeRecording();
  const turns: Recording['turns'] = {};
  for (const [lane, records] of Object.entries(recording.turns)) {
    turns[lane] = Array.from({ length: TURNS }, (_, turn) => ({ ...records[0]!, turn }));
  }
  return { ...recording, turns };
}

beforeEach(() => {
  resetReplayStore();
  resetSelectionStore();
});

it('groups the thousands of the turn number and of the turn count in the turn heading', () => {
  useReplayStore.setState({ recording: longRecording(), recordingTitle: 'long', recordingReplayId: 'r1' });
  useSelectionStore.getState().reset('sess-1', 'legacy');
  useSelectionStore.getState().selectTurn(1049);
  render(<ReplayView />);
  expect(screen.getByRole('heading', { level: 2, name: /^Turn/ }).textContent).toBe('Turn 1,050 of 1,200');
});
