import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { RecentRecording } from '../../src/bridge';
import { BridgeCallError } from '../../renderer/src/bridge/BridgeCallError';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import { resetAppStore, useAppStore } from '../../renderer/src/store/appStore';
import {
  resetRecentRecordingsStore,
  useRecentRecordingsStore,
  wireRecentRecordings,
} from '../../renderer/src/store/recentRecordingsStore';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { RecentRecordingsCard } from '../../renderer/src/views/RecentRecordingsCard';
import { createFakeInspectorClient } from './fakeInspectorClient';
import { makeRecording } from './recordingFixture';

function entry(id: string, title: string, over: Partial<RecentRecording> = {}): RecentRecording {
  return {
    id,
    title,
    origin: 'replay',
    sessionId: 'sess-1',
    lanes: ['legacy', 'recent-window'],
    turns: 3,
    bytes: 2048,
    savedAt: 1,
    openedAt: 1,
    ...over,
  };
}

function fakeRuntime(entries: RecentRecording[]) {
  const recording = makeRecording();
  return createFakeInspectorClient({
    'recordings.list': () => ({ recordings: entries, dir: '/cfg/recordings', maxCount: 12, maxBytes: 96 * 2 ** 20 }),
    'recordings.open': ({ id }) => ({ entry: entries.find((e) => e.id === id)!, recording }),
    'recordings.save': ({ replayId, title }) => {
      const saved = entry('new', title, { replayId });
      entries.unshift(saved);
      return saved;
    },
    'recordings.import': ({ fileName, content }) => {
      if (!content.startsWith('{'))
        throw new BridgeCallError({
          code: 'invalid_recording',
          method: 'recordings.import',
          path: '/content',
          message: `${fileName} is not valid JSON: Unexpected token`,
        });
      const imported = entry('file1', 'mine', { origin: 'file', fileName });
      entries.unshift(imported);
      return { entry: imported, recording };
    },
  });
}

beforeEach(() => {
  resetRecentRecordingsStore();
  resetReplayStore();
  resetAppStore();
});

describe('recent recordings', () => {
  it('after a reload shows the most recently opened recording again, without leaving the current view', async () => {
    const fake = fakeRuntime([entry('e2', 'agent:main:demo-short', { replayId: 'r9' }), entry('e1', 'older')]);
    onTestFinished(wireRecentRecordings(fake.client));
    await waitFor(() => expect(useReplayStore.getState().recording).not.toBeNull());
    expect(fake.requests.find((r) => r.method === 'recordings.open')?.params).toEqual({ id: 'e2' });
    expect(useReplayStore.getState().recordingTitle).toBe('agent:main:demo-short');
    expect(useReplayStore.getState().recordingReplayId).toBe('r9');
    expect(useAppStore.getState().activeSection).toBe('overview');
  });

  it('keeps each finished replay through recordings.save', async () => {
    const fake = fakeRuntime([]);
    onTestFinished(wireRecentRecordings(fake.client));
    await waitFor(() => expect(fake.calls).toContain('recordings.list'));
    const run = {
      replayId: 'r1',
      status: 'running' as const,
      done: 0,
      total: 3,
      lanes: {},
      error: null,
      sessionFile: '/s/a.jsonl',
      sessionTitle: 'agent:main:a',
    };
    useReplayStore.setState({ run });
    useReplayStore.setState({ run: { ...run, status: 'done' } });
    await waitFor(() => expect(useRecentRecordingsStore.getState().currentId).toBe('new'));
    expect(fake.requests.find((r) => r.method === 'recordings.save')?.params).toEqual({
      replayId: 'r1',
      title: 'agent:main:a',
    });
  });

  it('opens a recording file chosen with the button, and says what is wrong with one that is not a recording', async () => {
    const fake = fakeRuntime([]);
    render(
      <ClientContext.Provider value={fake.client}>
        <RecentRecordingsCard />
      </ClientContext.Provider>,
    );
    const input = screen.getByLabelText('Recording file');
    fireEvent.change(input, { target: { files: [new File(['not json'], 'notes.json')] } });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not open notes.json: notes.json is not valid JSON: Unexpected token',
    );
    expect(useReplayStore.getState().recording).toBeNull();

    fireEvent.change(input, { target: { files: [new File(['{"schemaVersion":1}'], 'mine.recording.json')] } });
    await waitFor(() => expect(useAppStore.getState().activeSection).toBe('replay'));
    expect(useReplayStore.getState().recording?.session.sessionId).toBe('sess-1');
    expect(fake.requests.filter((r) => r.method === 'recordings.import').at(-1)?.params).toMatchObject({
      fileName: 'mine.recording.json',
    });
    await waitFor(() =>
      expect(screen.getAllByTestId('recent-recording')[0]?.textContent).toContain('mine.recording.json'),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
