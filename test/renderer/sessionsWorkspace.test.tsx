import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PluginsListResponse, WorkspaceInfo } from '../../src/bridge';
import type { ListedSession } from '../../renderer/src/model/sessionRows';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import { buildSessionRows } from '../../renderer/src/model/sessionRows';
import { resetDoctorStore } from '../../renderer/src/store/doctorStore';
import { resetPluginsStore, usePluginsStore } from '../../renderer/src/store/pluginsStore';
import { resetReplayStore } from '../../renderer/src/store/replayStore';
import { resetSessionDefaultsStore } from '../../renderer/src/store/sessionDefaults';
import { resetSessionsStore } from '../../renderer/src/store/sessionsStore';
import { resetWorkspaceStore } from '../../renderer/src/store/workspaceStore';
import { SessionsView } from '../../renderer/src/views/SessionsView';
import { createFakeInspectorClient } from './fakeInspectorClient';
import { demoDefaults } from './sessionDefaultsFixture';

const DEMO = '/app/resources/sessions';

function session(over: Partial<ListedSession> & { sessionId: string }): ListedSession {
  return {
    file: `/s/${over.sessionId}.jsonl`,
    agentId: 'main',
    isSubagent: false,
    archived: false,
    size: 100,
    mtimeMs: 1,
    childSessionIds: [],
    ...over,
  };
}

const userSessions: ListedSession[] = [
  session({ sessionId: 'a1', key: 'agent:main:main', size: 500, mtimeMs: 30, childSessionIds: ['c1'] }),
  session({ sessionId: 'c1', key: 'agent:main:subagent:c1', isSubagent: true, parentSessionId: 'a1', mtimeMs: 40 }),
  session({ sessionId: 'b1', key: 'agent:ops:nightly', agentId: 'ops', size: 9000, mtimeMs: 10 }),
  session({ sessionId: 'd1', key: 'agent:ops:triage', agentId: 'ops', size: 50, mtimeMs: 20, storage: 'sqlite' }),
];
const demoSessions = [session({ sessionId: 'short', key: 'agent:main:demo-short' })];

function workspace(stateDir: string, source: WorkspaceInfo['source'], exists = true): WorkspaceInfo {
  return {
    stateDir,
    source,
    exists,
    defaultStateDir: '/home/u/.openclaw',
    demoDir: DEMO,
    settingsFile: '/cfg/workspace.json',
  };
}

function plugins(stateDir: string): PluginsListResponse {
  return { stateDir, workspaceDir: null, configPath: null, consentFile: '/cfg/c.json', plugins: [] };
}

function fakeRuntime(byDir: Record<string, ListedSession[]>, start = workspace('/home/u/.openclaw', 'home')) {
  let current = start;
  return createFakeInspectorClient({
    'workspace.get': () => current,
    'workspace.setStateDir': ({ stateDir }) => (current = workspace(stateDir ?? '/home/u/.openclaw', 'chosen')),
    'sessions.list': ({ stateDir }) => ({
      stateDir: stateDir ?? DEMO,
      sessions: stateDir ? (byDir[stateDir] ?? []) : demoSessions,
    }),
    'plugins.list': ({ stateDir }) => plugins(stateDir ?? '(default)'),
  });
}

function renderSessions(client: ReturnType<typeof fakeRuntime>['client']) {
  return render(
    <ClientContext.Provider value={client}>
      <SessionsView />
    </ClientContext.Provider>,
  );
}

const titles = () =>
  screen.getAllByTestId('session-row').map((row) => row.querySelector('.session-cell__title')?.textContent);

beforeEach(() => {
  resetWorkspaceStore();
  resetSessionsStore();
  resetPluginsStore();
  resetDoctorStore();
  resetReplayStore();
  resetSessionDefaultsStore();
});

describe('Sessions view: the sessions where the user keeps them', () => {
  it('opens on the state dir the runtime names ($OPENCLAW_STATE_DIR / ~/.openclaw), and Plugins read the same one', async () => {
    const fake = fakeRuntime({ '/srv/state': userSessions }, workspace('/srv/state', 'OPENCLAW_STATE_DIR'));
    renderSessions(fake.client);
    await waitFor(() => expect(titles()).toContain('agent:ops:nightly'));
    expect(fake.requests.find((r) => r.method === 'sessions.list')?.params).toEqual({ stateDir: '/srv/state' });
    expect(fake.requests.find((r) => r.method === 'plugins.list')?.params).toEqual({ stateDir: '/srv/state' });
    const source = screen.getByRole('tab', { name: /Your sessions/ });
    expect(source.textContent).toContain('/srv/state');
    expect(source.textContent).toContain('$OPENCLAW_STATE_DIR');
    expect(source.getAttribute('aria-selected')).toBe('true');
  });

  it('a folder typed and loaded becomes the state dir: remembered through the bridge, sessions and plugins re-listed', async () => {
    const fake = fakeRuntime({ '/home/u/.openclaw': userSessions, '/elsewhere': demoSessions });
    renderSessions(fake.client);
    await waitFor(() => expect(titles()).toContain('agent:main:main'));
    const form = screen.getByRole('form', { name: 'Session folder' });
    fireEvent.change(within(form).getByRole('textbox'), { target: { value: '/elsewhere' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Load' }));
    await waitFor(() => expect(titles()).toEqual(['agent:main:demo-short']));
    expect(fake.requests.find((r) => r.method === 'workspace.setStateDir')?.params).toEqual({ stateDir: '/elsewhere' });
    await waitFor(() => expect(usePluginsStore.getState().list?.stateDir).toBe('/elsewhere'));
    expect(screen.getByRole('tab', { name: /Your sessions/ }).textContent).toContain('chosen here');
  });

  it('a state dir without sessions shows the bundled demos and says why; the demos are an entry of their own', async () => {
    const fake = fakeRuntime({}, workspace('/home/u/.openclaw', 'home', false));
    renderSessions(fake.client);
    await waitFor(() => expect(titles()).toEqual(['agent:main:demo-short']));
    expect(screen.getByText(/\/home\/u\/\.openclaw does not exist.*Showing the bundled demo sessions/)).toBeTruthy();

    const ok = fakeRuntime({ '/home/u/.openclaw': userSessions });
    resetSessionsStore();
    resetWorkspaceStore();
    renderSessions(ok.client);
    const demos = (await screen.findAllByRole('tab', { name: 'Bundled demos' })).at(-1)!;
    fireEvent.click(demos);
    await waitFor(() => expect(demos.getAttribute('aria-selected')).toBe('true'));
  });

  it('Start waits while another folder is listed and while the chosen session’s settings are read', async () => {
    const waiting: Record<string, () => void> = {};
    const later = <T,>(name: string, value: T) => new Promise<T>((resolve) => (waiting[name] = () => resolve(value)));
    let current = workspace('/home/u/.openclaw', 'home');
    const fake = createFakeInspectorClient({
      'workspace.get': () => current,
      'workspace.setStateDir': ({ stateDir }) => (current = workspace(stateDir ?? '/home/u/.openclaw', 'chosen')),
      'sessions.list': ({ stateDir }) =>
        stateDir === '/elsewhere'
          ? later('list', { stateDir, sessions: demoSessions })
          : { stateDir: stateDir ?? DEMO, sessions: userSessions },
      'plugins.list': ({ stateDir }) => plugins(stateDir ?? '(default)'),
      'replay.defaults': ({ sessionPath }) => later(`defaults ${sessionPath}`, demoDefaults),
    });
    renderSessions(fake.client);
    const start = () => screen.getByRole('button', { name: 'Start replay' }) as HTMLButtonElement;
    await waitFor(() => expect(waiting['defaults /s/a1.jsonl']).toBeTypeOf('function'));
    expect([start().disabled, start().title]).toEqual([true, 'Reading the session’s settings…']);
    waiting['defaults /s/a1.jsonl']!();
    await waitFor(() => expect(start().disabled).toBe(false));

    const form = screen.getByRole('form', { name: 'Session folder' });
    fireEvent.change(within(form).getByRole('textbox'), { target: { value: '/elsewhere' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Load' }));
    // the rows shown are still the old folder's: starting now would replay one of them
    await waitFor(() => expect(start().title).toBe('Listing the sessions…'));
    expect(start().disabled).toBe(true);
    expect(titles()).toContain('agent:main:main');
    await waitFor(() => expect(waiting.list).toBeTypeOf('function'));
    waiting.list!();
    await waitFor(() => expect(titles()).toEqual(['agent:main:demo-short']));
    await waitFor(() => expect(start().title).toBe('Reading the session’s settings…'));
    expect(start().disabled).toBe(true);
    waiting['defaults /s/short.jsonl']!();
    await waitFor(() => expect(start().disabled).toBe(false));
    expect(start().title).toBe('');
  });

  it('sorts and filters by agent, size and date, keeping each subagent under its parent', async () => {
    const fake = fakeRuntime({ '/home/u/.openclaw': userSessions });
    renderSessions(fake.client);
    await waitFor(() => expect(titles()).toHaveLength(4));
    // newest update first by family: main (30) with its child, triage (20), nightly (10)
    expect(titles()).toEqual(['agent:main:main', 'agent:main:subagent:c1', 'agent:ops:triage', 'agent:ops:nightly']);
    const filters = screen.getByRole('search', { name: 'Filter sessions' });
    fireEvent.change(within(filters).getByLabelText('Sort by'), { target: { value: 'size' } });
    expect(titles()).toEqual(['agent:ops:nightly', 'agent:main:main', 'agent:main:subagent:c1', 'agent:ops:triage']);
    fireEvent.change(within(filters).getByLabelText('Agent'), { target: { value: 'ops' } });
    expect(titles()).toEqual(['agent:ops:nightly', 'agent:ops:triage']);
    expect(screen.getByTestId('session-count').textContent).toBe('2 of 4 sessions');
    fireEvent.change(within(filters).getByLabelText('Agent'), { target: { value: '' } });
    // a match on the child shows its family
    fireEvent.change(within(filters).getByLabelText('Search'), { target: { value: 'subagent:c1' } });
    expect(titles()).toEqual(['agent:main:main', 'agent:main:subagent:c1']);
  });
});

describe('buildSessionRows', () => {
  it('sorts families by their top-level session and filters whole families', () => {
    const rows = buildSessionRows(userSessions, { sort: 'agent', agent: '', query: '' });
    expect(rows.map((r) => [r.title, r.depth])).toEqual([
      ['agent:main:main', 0],
      ['agent:main:subagent:c1', 1],
      ['agent:ops:triage', 0],
      ['agent:ops:nightly', 0],
    ]);
    expect(buildSessionRows(userSessions, { sort: 'updated', agent: 'nobody', query: '' })).toEqual([]);
  });
});
