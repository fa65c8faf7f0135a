/**
 * Try before save as its own workflow (renderer/src/flows/tryBeforeSave.ts): the saved and the edited config replay
 * as that replay's lanes and open in Compare, side by side — and nothing of it stays behind: the replay form keeps
 * the lanes it shows, so the next replay from Sessions runs exactly those; Compare does not open in the mode or with
 * the lane ticks of the recording before.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppInfo, ConfigReadResponse, ConfigTryLanesResponse, ResponseOf } from '../../src/bridge';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import { installRecording } from '../../renderer/src/flows/installRecording';
import { tryBeforeSave } from '../../renderer/src/flows/tryBeforeSave';
import type { Recording } from '../../renderer/src/recordingTypes';
import { resetAppStore, useAppStore } from '../../renderer/src/store/appStore';
import { resetCompareStore, useCompareStore } from '../../renderer/src/store/compareStore';
import { resetConfigStore, useConfigStore } from '../../renderer/src/store/configStore';
import { resetDoctorStore } from '../../renderer/src/store/doctorStore';
import { resetPluginsStore } from '../../renderer/src/store/pluginsStore';
import { resetRecentRecordingsStore } from '../../renderer/src/store/recentRecordingsStore';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { resetSelectionStore } from '../../renderer/src/store/selectionStore';
import { resetSessionDefaultsStore } from '../../renderer/src/store/sessionDefaults';
import { resetSessionsStore } from '../../renderer/src/store/sessionsStore';
import { resetTimelineFilterStore, useTimelineFilterStore } from '../../renderer/src/store/timelineFilterStore';
import { resetWorkspaceStore } from '../../renderer/src/store/workspaceStore';
import { AppFrame } from '../../renderer/src/views/AppFrame';
// loaded up front: AppFrame imports it lazily, and the first transform would outlast findBy's wait
import '../../renderer/src/views/CompareView';
import { createFakeInspectorClient } from './fakeInspectorClient';
import { makeRecording } from './recordingFixture';
import { demoDefaults } from './sessionDefaultsFixture';

const info: AppInfo = {
  name: 'contextscope',
  version: '0.1.0',
  shell: 'browser',
  runtimeHost: 'node',
  nodeVersion: 'v20.20.2',
  platform: 'linux',
  arch: 'x64',
  pid: 1,
};

const sessions: ResponseOf<'sessions.list'> = {
  stateDir: '/app/resources/sessions',
  sessions: [
    {
      sessionId: 'short',
      file: '/s/short.jsonl',
      agentId: 'main',
      key: 'agent:main:main',
      isSubagent: false,
      archived: false,
      size: 4000,
      mtimeMs: 1,
      childSessionIds: [],
    },
  ],
};

const tryLanes: ConfigTryLanesResponse = {
  saved: {
    lane: { kind: 'legacy', label: 'saved config' },
    spec: 'legacy?label=saved%20config',
    label: 'saved config',
    engineId: 'legacy',
  },
  edited: {
    lane: { kind: 'legacy', window: 64000, label: 'edited config' },
    spec: 'legacy?window=64000&label=edited%20config',
    label: 'edited config',
    engineId: 'legacy',
    window: 64000,
  },
  same: false,
  notes: [],
  refused: null,
};

/** The fixture's recording with its two lanes named as the try's lanes are. */
function tryRecording(): Recording {
  const recording = makeRecording();
  recording.lanes = recording.lanes.map((lane, i) => ({ ...lane, label: i === 0 ? 'saved config' : 'edited config' }));
  return recording;
}

function fakeRuntime() {
  const made: Record<string, Recording> = {};
  let started = 0;
  return createFakeInspectorClient({
    'app.info': () => info,
    'app.health': () => ({ ok: true, uptimeMs: 1, rssBytes: 1, heapUsedBytes: 1 }),
    'sessions.list': () => sessions,
    'plugins.list': () => ({
      stateDir: '/app/resources/sessions',
      workspaceDir: null,
      configPath: null,
      consentFile: '/tmp/c.json',
      plugins: [],
    }),
    'replay.defaults': () => demoDefaults,
    'config.tryLanes': () => tryLanes,
    'replay.start': ({ lanes }) => {
      const replayId = `r${++started}`;
      made[replayId] = lanes.some((lane) => (typeof lane === 'string' ? lane : lane.label)?.includes('saved'))
        ? tryRecording()
        : makeRecording();
      return { replayId };
    },
    'replay.stream': ({ replayId }) => {
      const { turns, messages, ...head } = made[replayId]!;
      const all = Object.values(turns).flat();
      return {
        replayId,
        status: 'done' as const,
        done: 6,
        total: 6,
        elapsedMs: 10,
        generation: 'final' as const,
        more: false,
        cursor: all.length,
        head,
        lanes: head.lanes,
        turns: all,
        messages,
      };
    },
  });
}

const startedLanes = (fake: ReturnType<typeof fakeRuntime>) =>
  fake.requests.filter((r) => r.method === 'replay.start').map((r) => (r.params as { lanes: string[] }).lanes);

// jsdom lays nothing out: the virtualized lists need a viewport to fill
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 520 });
});
afterAll(() => {
  for (const prop of ['clientWidth', 'clientHeight'])
    delete (HTMLElement.prototype as unknown as Record<string, unknown>)[prop];
});

beforeEach(() => {
  resetAppStore();
  resetConfigStore();
  resetCompareStore();
  resetTimelineFilterStore();
  resetSessionDefaultsStore();
  resetWorkspaceStore();
  resetRecentRecordingsStore();
  resetSessionsStore();
  resetPluginsStore();
  resetReplayStore();
  resetSelectionStore();
  resetDoctorStore();
  useReplayStore.setState({ pollIntervalMs: 0 });
});

describe('try before save', () => {
  it('replays the saved and the edited config, opens Compare on them, and a plain replay from Sessions then runs exactly the lanes the form shows', async () => {
    const fake = fakeRuntime();
    render(
      <ClientContext.Provider value={fake.client}>
        <AppFrame />
      </ClientContext.Provider>,
    );
    act(() => useAppStore.getState().selectSection('sessions'));
    const legacy = await screen.findByRole('checkbox', { name: /^legacy/ });
    await waitFor(() => expect(legacy).toHaveProperty('checked', true));
    // the recording before: compared against another recording, its lanes ticked, a timeline search
    act(() => {
      installRecording(makeRecording(), 'r0', 'earlier');
      const other = makeRecording();
      other.lanes = other.lanes.map((lane) => ({ ...lane, id: `${lane.id}-old` }));
      useCompareStore.getState().setBaseline({ id: 'r-old', title: 'an older replay', recording: other });
      useCompareStore.getState().toggleLane('recent-window', ['legacy', 'recent-window']);
      useTimelineFilterStore.getState().setFilter({ text: 'zzz' });
    });

    // Config: an edit, tried as a lane
    useConfigStore.setState({
      read: { hash: 'h1', plugins: [] } as unknown as ConfigReadResponse,
      location: { stateDir: '/home/u/.openclaw' },
    });
    await act(() => tryBeforeSave(fake.client, { file: '/s/short.jsonl', title: 'agent:main:main' }));
    expect(startedLanes(fake)).toEqual([[tryLanes.saved.lane, tryLanes.edited.lane]]);
    expect(useConfigStore.getState().tryState).toEqual({ status: 'started', notes: [], error: null });
    // Compare opens on this recording's two lanes, side by side: not against the older replay, every lane ticked
    await screen.findByTestId('compare-view', {}, { timeout: 5000 });
    expect(useAppStore.getState().activeSection).toBe('compare');
    expect(screen.queryByText('Pick at least two lanes to compare.')).toBeNull();
    await waitFor(() =>
      expect(
        screen.getAllByTestId('aligned-head').map((h) => h.querySelector('.aligned-head__label')?.textContent),
      ).toEqual(['saved config', 'edited config']),
    );
    expect(useTimelineFilterStore.getState().filter.text).toBe('');

    // Sessions: the form shows what it showed before the try
    act(() => useAppStore.getState().selectSection('sessions'));
    const form = await screen.findByRole('form', { name: 'Replay settings' });
    const ticked = within(form)
      .getAllByRole('checkbox')
      .filter((box) => (box as HTMLInputElement).checked)
      .map((box) => box.closest('label')?.querySelector('.lane-option__label')?.textContent);
    expect(ticked).toEqual(['legacy']);
    fireEvent.click(within(form).getByRole('button', { name: 'Start replay' }));
    await waitFor(() => expect(startedLanes(fake)).toHaveLength(2));
    expect(startedLanes(fake)[1]).toEqual([{ kind: 'legacy' }]);
    await waitFor(() => expect(useAppStore.getState().activeSection).toBe('replay'));
  }, 20_000);

  it('a form the replay refuses is said where the try was asked for', async () => {
    const fake = fakeRuntime();
    useReplayStore.getState().setForm({ window: '32k' });
    useConfigStore.setState({ read: { hash: 'h1', plugins: [] } as unknown as ConfigReadResponse });
    await tryBeforeSave(fake.client, { file: '/s/short.jsonl', title: 'agent:main:main' });
    expect(useConfigStore.getState().tryState).toEqual({
      status: 'failed',
      notes: [],
      error: 'Context window must be a whole number of tokens, e.g. 32000.',
    });
    expect(startedLanes(fake)).toEqual([]);
    expect(useReplayStore.getState().form.lanes).toEqual(['legacy']);
  });
});

describe('leaving a section', () => {
  it("asks the section's leave guard; a workflow opening the result the user asked for does not", () => {
    act(() => useAppStore.getState().selectSection('config'));
    const asked: string[] = [];
    let answer = false;
    useAppStore.getState().setLeaveGuard((to) => {
      asked.push(to);
      return answer;
    });
    useAppStore.getState().selectSection('plugins');
    expect([useAppStore.getState().activeSection, asked]).toEqual(['config', ['plugins']]);
    answer = true;
    useAppStore.getState().selectSection('plugins');
    expect(useAppStore.getState().activeSection).toBe('plugins');
    useAppStore.getState().selectSection('config');
    answer = false;
    useAppStore.getState().selectSection('compare', { ask: false });
    expect([useAppStore.getState().activeSection, asked]).toEqual(['compare', ['plugins', 'plugins', 'config']]);
  });
});
