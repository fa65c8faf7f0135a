import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppInfo, ListedPlugin, PluginsListResponse, ResponseOf } from '../../src/bridge';
import { BridgeCallError } from '../../renderer/src/bridge/BridgeCallError';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import type { InspectorClient } from '../../renderer/src/bridge/InspectorClient';
import { laneChoices } from '../../renderer/src/model/laneChoices';
import { laneConfigOf } from '../../src/replay/lane/laneConfigFromSpec';
import { laneOfRequest } from '../../src/replay/lane/laneSpec';
import { resetAppStore, useAppStore } from '../../renderer/src/store/appStore';
import { resetDoctorStore } from '../../renderer/src/store/doctorStore';
import { resetPluginsStore } from '../../renderer/src/store/pluginsStore';
import { replayParams, resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { withLaneConfig } from '../../renderer/src/store/replayParams';
import { resetSelectionStore, useSelectionStore } from '../../renderer/src/store/selectionStore';
import { resetRecentRecordingsStore } from '../../renderer/src/store/recentRecordingsStore';
import { resetSessionDefaultsStore } from '../../renderer/src/store/sessionDefaults';
import { resetSessionsStore } from '../../renderer/src/store/sessionsStore';
import { resetWorkspaceStore } from '../../renderer/src/store/workspaceStore';
import { AppFrame } from '../../renderer/src/views/AppFrame';
import { ReplayView } from '../../renderer/src/views/ReplayView';
import { createFakeInspectorClient } from './fakeInspectorClient';
import { demoDefaults } from './sessionDefaultsFixture';
import { makeRecording } from './recordingFixture';

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
const PLUGIN_PATH = '/app/resources/plugins/recent-window';

function pluginList(consent: ListedPlugin['consent']['state']): PluginsListResponse {
  return {
    stateDir: '/home/u/.openclaw',
    workspaceDir: null,
    configPath: null,
    consentFile: '/tmp/config/plugin-consent.json',
    plugins: [
      {
        id: 'recent-window',
        name: 'Recent Window',
        kind: ['context-engine'],
        path: PLUGIN_PATH,
        realPath: PLUGIN_PATH,
        origin: 'bundled',
        enabled: true,
        loadable: true,
        entries: ['./index.js'],
        errors: [],
        configErrors: [],
        warnings: [],
        configSchema: null,
        consent: {
          state: consent,
          message: consent === 'granted' ? 'approved on 2026-03-01' : 'not executed: no consent',
          hash: 'abc',
        },
        shadowed: [],
      },
    ],
  };
}

const sessions: ResponseOf<'sessions.list'> = {
  stateDir: '/app/resources/sessions',
  sessions: [
    {
      sessionId: 'long',
      file: '/s/long.jsonl',
      agentId: 'main',
      key: 'agent:main:demo-long',
      isSubagent: false,
      archived: false,
      size: 9000,
      mtimeMs: 2,
      childSessionIds: [],
    },
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
      entries: 1234,
      turns: 12,
      messages: 58,
    },
  ],
};

function fakeRuntime(options: { consent?: ListedPlugin['consent']['state']; startFails?: string } = {}) {
  let consent = options.consent ?? 'missing';
  let polls = 0;
  const fake = createFakeInspectorClient({
    'app.info': () => info,
    'app.health': () => ({ ok: true, uptimeMs: 1, rssBytes: 1, heapUsedBytes: 1 }),
    'sessions.list': () => sessions,
    'plugins.list': () => pluginList(consent),
    'replay.defaults': () => demoDefaults,
    'plugins.requestConsent': ({ paths, purpose }) => ({
      nonce: `nonce-${purpose}-${paths.join(',')}`,
      purpose,
      expiresAt: '2026-12-02T00:05:00.000Z',
      plugins: paths.map((path) => ({
        pluginId: 'recent-window',
        path,
        realPath: path,
        hash: 'abc',
        files: 3,
        bytes: 900,
      })),
    }),
    'plugins.approve': ({ nonce }) => {
      consent = 'granted';
      const path = nonce.replace(/^nonce-approve-/, '');
      return {
        plugins: [
          {
            pluginId: 'recent-window',
            path,
            realPath: path,
            consent: { state: 'granted', message: 'approved', hash: 'abc' },
          },
        ],
      };
    },
    'replay.start': () => {
      if (options.startFails)
        throw new BridgeCallError({
          code: 'invalid_params',
          method: 'replay.start',
          path: '/lanes',
          message: options.startFails,
        });
      return { replayId: 'r1' };
    },
    'replay.get': () => {
      polls++;
      return polls === 1
        ? { replayId: 'r1', status: 'running' as const, done: 2, total: 6 }
        : { replayId: 'r1', status: 'done' as const, done: 6, total: 6, recording: makeRecording() };
    },
    'replay.stream': () => {
      polls++;
      const page = { replayId: 'r1', elapsedMs: 10, more: false, cursor: 0, messages: {}, turns: [], lanes: [] };
      if (polls === 1) return { ...page, status: 'running' as const, done: 2, total: 6, generation: 'live' as const };
      const { turns, messages, ...head } = makeRecording();
      const all = Object.values(turns).flat();
      return {
        ...page,
        status: 'done' as const,
        done: 6,
        total: 6,
        generation: 'final' as const,
        head,
        lanes: head.lanes,
        turns: all,
        messages,
        cursor: all.length,
      };
    },
    'replay.export': ({ format }) => ({ format, bytes: 7, content: format === 'json' ? '{"a":1}' : '<html>' }),
    'replay.cancel': () => ({ cancelled: true }),
  });
  return fake;
}

function startParams(fake: ReturnType<typeof fakeRuntime>) {
  return fake.requests.filter((r) => r.method === 'replay.start').map((r) => r.params);
}

beforeEach(() => {
  resetAppStore();
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

describe('replay form → params', () => {
  const choices = laneChoices([]);
  it('builds replay.start params from the form, with reserve and host only when given', () => {
    const form = {
      lanes: ['legacy'],
      extraSpecs: 'legacy?window=64000',
      window: '32000',
      reserve: '',
      keepRecentTokens: '',
      host: 'embedded',
      openclawVersion: '',
      follow: false,
      laneConfigs: {},
    };
    expect(replayParams(form, '/s/x.jsonl', choices)).toEqual({
      ok: true,
      params: {
        sessionPath: '/s/x.jsonl',
        lanes: [{ kind: 'legacy' }, 'legacy?window=64000'],
        window: 32000,
        host: 'embedded',
      },
    });
    expect(replayParams({ ...form, reserve: '4096', host: '' }, '/s/x.jsonl', choices, 'n1')).toEqual({
      ok: true,
      params: {
        sessionPath: '/s/x.jsonl',
        lanes: [{ kind: 'legacy' }, 'legacy?window=64000'],
        window: 32000,
        reserve: 4096,
        consentNonce: 'n1',
      },
    });
    expect(replayParams({ ...form, openclawVersion: ' 2026.9.6 ' }, '/s/x.jsonl', choices)).toEqual({
      ok: true,
      params: {
        sessionPath: '/s/x.jsonl',
        lanes: [{ kind: 'legacy' }, 'legacy?window=64000'],
        window: 32000,
        host: 'embedded',
        openclawVersion: '2026.9.6',
      },
    });
    expect(replayParams({ ...form, keepRecentTokens: '6000' }, '/s/x.jsonl', choices)).toEqual({
      ok: true,
      params: {
        sessionPath: '/s/x.jsonl',
        lanes: [{ kind: 'legacy' }, 'legacy?window=64000'],
        window: 32000,
        keepRecentTokens: 6000,
        host: 'embedded',
      },
    });
  });

  it("sends a plugin lane's JSON5 config with the lane, which the replay parses to the same object", () => {
    const [legacy, plugin] = laneChoices(pluginList('granted').plugins);
    const form = {
      lanes: [legacy!.key, plugin!.key],
      extraSpecs: '',
      window: '32000',
      reserve: '',
      keepRecentTokens: '',
      host: '',
      openclawVersion: '',
      follow: false,
      laneConfigs: {
        [plugin!.key]: ' { budgetShare: 0.5, /* newest first */ minRecentTurns: 2 } ',
        legacy: '{ ignored: 1 }',
      },
    };
    const built = replayParams(form, '/s/x.jsonl', [legacy!, plugin!]);
    expect(built.ok).toBe(true);
    const lanes = built.ok ? built.params.lanes : [];
    expect(lanes[0]).toEqual({ kind: 'legacy' });
    const lane = laneConfigOf(laneOfRequest(lanes[1]!), { contextWindow: 32000 });
    expect(lane.engine).toMatchObject({
      kind: 'plugin',
      plugin: PLUGIN_PATH,
      pluginConfig: { budgetShare: 0.5, minRecentTurns: 2 },
    });
    const laneOf = (config: string) =>
      laneConfigOf(laneOfRequest(withLaneConfig(plugin!.lane, config)), { contextWindow: 32000 });
    expect(() => laneOf('{ budgetShare: ')).toThrow(/its configJson5 is not valid JSON\/JSON5/);
    expect(() => laneOf('[1, 2]')).toThrow(/must hold a JSON object/);
  });

  it('says what to fix instead of sending an invalid request', () => {
    const form = {
      lanes: [],
      extraSpecs: '',
      window: '32000',
      reserve: '',
      keepRecentTokens: '',
      host: 'embedded',
      openclawVersion: '',
      follow: false,
      laneConfigs: {},
    };
    expect(replayParams(form, '/s', choices)).toEqual({
      ok: false,
      problem: 'Choose at least one lane (for example legacy).',
    });
    expect(replayParams({ ...form, lanes: ['legacy'], window: '32k' }, '/s', choices)).toEqual({
      ok: false,
      problem: 'Context window must be a whole number of tokens, e.g. 32000.',
    });
    expect(replayParams({ ...form, lanes: ['legacy'], keepRecentTokens: '0' }, '/s', choices)).toEqual({
      ok: false,
      problem: 'Keep recent must be a positive whole number of tokens (or empty for OpenClaw’s default, 20000).',
    });
  });
});

describe('lane choices', () => {
  it('offers one lane per engine a doctor run saw a plugin register, each a spec the replay parses to that engine', () => {
    const plugins = pluginList('granted').plugins;
    expect(laneChoices(plugins).map((c) => c.label)).toEqual(['legacy', 'plugin:recent-window']);
    const choices = laneChoices(plugins, { 'recent-window': ['recent-window', 'recent-window/strict'] });
    expect(choices.map((c) => c.label)).toEqual([
      'legacy',
      'plugin:recent-window',
      'plugin:recent-window › recent-window',
      'plugin:recent-window › recent-window/strict',
    ]);
    const parsed = choices.slice(2).map((c) => laneOfRequest(c.lane));
    expect(parsed.map((p) => (p.kind === 'plugin' ? [p.plugin, p.engineId] : null))).toEqual([
      [PLUGIN_PATH, 'recent-window'],
      [PLUGIN_PATH, 'recent-window/strict'],
    ]);
    // consent is the plugin's: every engine lane of it asks for (or has) the same approval
    expect(new Set(choices.slice(1).map((c) => c.plugin?.path))).toEqual(new Set([PLUGIN_PATH]));
    // one engine only: no extra choices
    expect(laneChoices(plugins, { 'recent-window': ['recent-window'] })).toHaveLength(2);
  });
});

describe('replay store', () => {
  const session = { file: '/s/short.jsonl', title: 'agent:main:demo-short' };
  const choices = laneChoices(pluginList('missing').plugins);

  it('asks for consent before a plugin lane runs, and starts nothing until it is given', async () => {
    const fake = fakeRuntime();
    useReplayStore.getState().setForm({ lanes: ['legacy', `plugin:${PLUGIN_PATH}`] });
    await useReplayStore.getState().requestStart(fake.client, session, choices);
    expect(useReplayStore.getState().pending?.requests).toEqual([
      { path: PLUGIN_PATH, label: 'plugin:recent-window', approvable: true, stale: false },
    ]);
    expect(startParams(fake)).toEqual([]);
  });

  it('approve: the main process confirms and remembers consent, then the replay runs without a nonce, follows progress and opens the recording', async () => {
    const fake = fakeRuntime();
    useReplayStore.getState().setForm({ lanes: ['legacy', `plugin:${PLUGIN_PATH}`] });
    await useReplayStore.getState().requestStart(fake.client, session, choices);
    await useReplayStore.getState().confirmConsent(fake.client, 'approve');
    expect(fake.requests.find((r) => r.method === 'plugins.requestConsent')?.params).toEqual({
      paths: [PLUGIN_PATH],
      purpose: 'approve',
    });
    expect(fake.requests.find((r) => r.method === 'plugins.approve')?.params).toEqual({
      nonce: `nonce-approve-${PLUGIN_PATH}`,
    });
    expect(startParams(fake)).toEqual([
      {
        sessionPath: '/s/short.jsonl',
        lanes: [{ kind: 'legacy' }, { kind: 'plugin', plugin: PLUGIN_PATH }],
        window: 32000,
        host: 'embedded',
      },
    ]);
    const state = useReplayStore.getState();
    expect(state.run).toMatchObject({ replayId: 'r1', status: 'done', done: 6, total: 6 });
    expect(state.recording?.lanes.map((l) => l.id)).toEqual(['legacy', 'recent-window']);
    expect(state.recordingTitle).toBe('agent:main:demo-short');
    expect(useAppStore.getState().activeSection).toBe('replay');
    expect([useSelectionStore.getState().laneId, useSelectionStore.getState().turn]).toEqual(['legacy', 0]);
  });

  it('run once: the main process confirms for this run; the replay carries its nonce and nothing is remembered', async () => {
    const fake = fakeRuntime();
    useReplayStore.getState().setForm({ lanes: [`plugin:${PLUGIN_PATH}`] });
    await useReplayStore.getState().requestStart(fake.client, session, choices);
    await useReplayStore.getState().confirmConsent(fake.client, 'once');
    expect(fake.calls).not.toContain('plugins.approve');
    expect(startParams(fake)).toEqual([
      {
        sessionPath: '/s/short.jsonl',
        lanes: [{ kind: 'plugin', plugin: PLUGIN_PATH }],
        window: 32000,
        host: 'embedded',
        consentNonce: `nonce-run-${PLUGIN_PATH}`,
      },
    ]);
  });

  it('counts replay.progress events of the running replay only, applied together at the next frame', async () => {
    useReplayStore.setState({
      run: {
        replayId: 'r1',
        status: 'running',
        done: 0,
        total: 24,
        lanes: {},
        error: null,
        sessionFile: '/s',
        sessionTitle: 's',
      },
    });
    let updates = 0;
    const unsubscribe = useReplayStore.subscribe((state, before) => {
      if (state.run !== before.run) updates++;
    });
    const store = useReplayStore.getState();
    store.handleEvent({
      type: 'event',
      topic: 'replay.progress',
      payload: { replayId: 'r1', lane: 'legacy', turn: 0, total: 12 },
    });
    store.handleEvent({
      type: 'event',
      topic: 'replay.progress',
      payload: { replayId: 'other', lane: 'legacy', turn: 5, total: 12 },
    });
    useReplayStore.getState().handleEvent({
      type: 'event',
      topic: 'replay.progress',
      payload: { replayId: 'r1', lane: 'legacy', turn: 1, total: 12 },
    });
    // a subagent lane reports its own turns; they are not part of the run's lanes × turns
    useReplayStore.getState().handleEvent({
      type: 'event',
      topic: 'replay.progress',
      payload: { replayId: 'r1', lane: 'legacy/child', turn: 0, total: 3, parentLane: 'legacy' },
    });
    // one update for the four events, at the next frame (one each re-rendered the view per lane-turn: issue 34)
    expect(updates).toBe(0);
    await waitFor(() => expect(updates).toBe(1));
    unsubscribe();
    expect(useReplayStore.getState().run).toMatchObject({
      done: 2,
      lanes: { legacy: { turn: 2, total: 12 }, 'legacy/child': { turn: 1, total: 3 } },
    });
  });

  it('shows the runtime’s message when the replay cannot start', async () => {
    const fake = fakeRuntime({ startFails: 'Invalid lane spec "plugin:": plugin: needs a path or a plugin id.' });
    useReplayStore.getState().setForm({ lanes: ['legacy'] });
    await useReplayStore.getState().requestStart(fake.client, session, choices);
    expect(useReplayStore.getState().run).toMatchObject({
      status: 'failed',
      error: 'Invalid lane spec "plugin:": plugin: needs a path or a plugin id.',
    });
  });

  it('exports the recording it shows, and says so when there is none', async () => {
    const fake = fakeRuntime({ consent: 'granted' });
    expect(await useReplayStore.getState().exportRecording(fake.client, 'json')).toBeNull();
    expect(useReplayStore.getState().exportError).toBe(
      'There is no finished replay to export: run one from Sessions first.',
    );
    await useReplayStore.getState().requestStart(fake.client, session, laneChoices(pluginList('granted').plugins));
    expect(await useReplayStore.getState().exportRecording(fake.client, 'html')).toBe('<html>');
    expect(fake.requests.find((r) => r.method === 'replay.export')?.params).toEqual({ replayId: 'r1', format: 'html' });
  });
});

function renderApp(client: InspectorClient) {
  return render(
    <ClientContext.Provider value={client}>
      <AppFrame />
    </ClientContext.Provider>,
  );
}

describe('the demo in two clicks', () => {
  it('Overview → "Replay the demo session" → "Approve and run" shows the replay of the demo with legacy and recent-window at the session defaults', async () => {
    const fake = fakeRuntime();
    renderApp(fake.client);
    fireEvent.click(await screen.findByRole('button', { name: 'Replay the demo session' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run plugin code?' });
    expect(within(dialog).getByTestId('consent-request').textContent).toBe(`Run plugin code from ${PLUGIN_PATH}?`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve and run' }));
    await screen.findByTestId('timeline');
    expect(startParams(fake)).toEqual([
      // the session's own defaults (replay.defaults): its state dir's openclaw.json, its inferred release
      {
        sessionPath: '/s/short.jsonl',
        lanes: [{ kind: 'legacy' }, { kind: 'plugin', plugin: PLUGIN_PATH }],
        window: 48000,
        keepRecentTokens: 8000,
        openclawVersion: '2026.7.35',
        host: 'embedded',
      },
    ]);
    expect(screen.getAllByTestId('timeline-row')).toHaveLength(3);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Replay agent:main:main');
  });

  it('the Sessions view preselects the demo and the recent-window lane, fills the session defaults with their sources, and tags its consent', async () => {
    const fake = fakeRuntime({ consent: 'granted' });
    renderApp(fake.client);
    act(() => useAppStore.getState().selectSection('sessions'));
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: /plugin:recent-window/ })).toHaveProperty('checked', true),
    );
    const selected = screen.getAllByTestId('session-row').find((row) => row.getAttribute('aria-selected') === 'true');
    expect(selected?.textContent).toContain('agent:main:main');
    const form = screen.getByRole('form', { name: 'Replay settings' });
    await waitFor(() => expect(within(form).getByLabelText(/Context window/)).toHaveProperty('value', '48000'));
    expect(within(form).getByText('from openclaw.json (anthropic/claude-sonnet-4-5)')).toBeTruthy();
    expect(within(form).getByText('inferred from the session header')).toBeTruthy();
    // counts from sessions.list; a session listed without them shows dashes
    const cells = (row: HTMLElement) =>
      ['session-turns', 'session-messages', 'session-entries'].map((id) => within(row).getByTestId(id).textContent);
    expect(cells(selected!)).toEqual(['12', '58', '1,234']);
    const other = screen.getAllByTestId('session-row').find((row) => row !== selected)!;
    expect(cells(other)).toEqual(['—', '—', '—']);
    expect(screen.getByRole('checkbox', { name: /legacy/ })).toHaveProperty('checked', true);
    expect(screen.getByText('approved')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Start replay' }));
    await screen.findByTestId('timeline');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('ReplayView', () => {
  function showRecording(recording = makeRecording()) {
    useReplayStore.setState({ recording, recordingTitle: 'agent:main:demo', recordingReplayId: 'r1' });
    useSelectionStore.getState().reset('sess-1', 'legacy');
    const fake = fakeRuntime();
    render(
      <ClientContext.Provider value={fake.client}>
        <ReplayView />
      </ClientContext.Provider>,
    );
    return fake;
  }
  const selectedTurn = () =>
    screen
      .getAllByTestId('timeline-row')
      .find((row) => row.getAttribute('aria-selected') === 'true')
      ?.getAttribute('data-turn');
  const selectedLane = () =>
    screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true')?.textContent;

  it('shows lane-level findings (turn null) above the timeline, one notice per distinct message with its lanes', () => {
    const recording = makeRecording();
    const message = 'keepRecentTokens 20000 ≥ prompt budget 12000 (context window 32000 − reserve 20000): lower it.';
    for (const lane of ['legacy', 'recent-window']) {
      recording.findings.push({ code: 'keep-recent-exceeds-budget', severity: 'warning', lane, turn: null, message });
    }
    recording.findings.push({
      code: 'keep-recent-exceeds-budget',
      severity: 'warning',
      lane: 'recent-window',
      turn: null,
      message: 'other numbers',
    });
    showRecording(recording);
    expect(screen.getAllByTestId('lane-finding').map((n) => n.textContent)).toEqual([
      `Lanes legacy, recent-window (keep-recent-exceeds-budget): ${message}`,
      'Lane recent-window (keep-recent-exceeds-budget): other numbers',
    ]);
  });

  it('moves between turns with ↓/↑ and j/k, and between lanes with →/←, clamped at the ends', () => {
    showRecording();
    expect(selectedTurn()).toBe('0');
    fireEvent.keyDown(window, { key: 'ArrowDown' });
    expect(selectedTurn()).toBe('1');
    fireEvent.keyDown(window, { key: 'j' });
    fireEvent.keyDown(window, { key: 'j' });
    expect(selectedTurn()).toBe('2');
    expect(screen.getByRole('heading', { level: 2, name: /Turn 3/ }).textContent).toBe('Turn 3 of 3');
    fireEvent.keyDown(window, { key: 'k' });
    expect(selectedTurn()).toBe('1');
    expect(selectedLane()).toBe('legacy');
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(selectedLane()).toBe('recent-window');
    fireEvent.keyDown(window, { key: 'ArrowUp' });
    fireEvent.keyDown(window, { key: 'ArrowUp' });
    expect(selectedTurn()).toBe('0');
  });

  it('ignores the keys while typing in a field', () => {
    showRecording();
    const input = document.createElement('input');
    document.body.appendChild(input);
    fireEvent.keyDown(input, { key: 'j' });
    expect(selectedTurn()).toBe('0');
    input.remove();
  });

  it('lists only the turns where lanes differ when asked, and shows the selected lane’s provenance badges', () => {
    showRecording();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Only turns where lanes differ (1)' }));
    expect(screen.getAllByTestId('timeline-row').map((row) => row.getAttribute('data-turn'))).toEqual(['2']);
    fireEvent.keyDown(window, { key: 'j' });
    fireEvent.click(screen.getByRole('tab', { name: 'recent-window' }));
    expect(
      within(screen.getByTestId('messages-assembled'))
        .getAllByTestId('provenance-badge')
        .map((b) => b.textContent),
    ).toEqual(['summary', 'raw', 'modified', 'synthetic']);
  });

  it('offers the demo when there is no recording yet', () => {
    render(
      <ClientContext.Provider value={fakeRuntime().client}>
        <ReplayView />
      </ClientContext.Provider>,
    );
    expect(screen.getByText(/No replay yet/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Replay the demo session' })).toBeTruthy();
  });
});
