/**
 * Issue 34: a `.jsonl` that is no session lists as what it is. Its row says why a replay cannot read it (the
 * listing's `problem`, the replay's own refusal) in place of a healthy-looking 0-turn session, and the replay form
 * says it before Start, which it keeps disabled.
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, expect, it } from 'vitest';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import { resetDoctorStore } from '../../renderer/src/store/doctorStore';
import { resetPluginsStore } from '../../renderer/src/store/pluginsStore';
import { resetReplayStore } from '../../renderer/src/store/replayStore';
import { resetSessionDefaultsStore } from '../../renderer/src/store/sessionDefaults';
import { resetSessionsStore } from '../../renderer/src/store/sessionsStore';
import { resetWorkspaceStore } from '../../renderer/src/store/workspaceStore';
import { SessionsView } from '../../renderer/src/views/SessionsView';
import { createFakeInspectorClient } from './fakeInspectorClient';
import { demoDefaults } from './sessionDefaultsFixture';

beforeEach(() => {
  resetWorkspaceStore();
  resetSessionsStore();
  resetPluginsStore();
  resetDoctorStore();
  resetReplayStore();
  resetSessionDefaultsStore();
});

const PROBLEM =
  'garbage.jsonl is not an OpenClaw session transcript: none of its 2 line(s) is a session header or entry ' +
  '(2 problem(s); the first, line 1: first line is not a valid session header (not valid JSON: Unexpected token)).';

const row = (sessionId: string, extra: Record<string, unknown>) => ({
  sessionId,
  file: `/s/agents/main/sessions/${sessionId}.jsonl`,
  storage: 'jsonl' as const,
  agentId: 'main',
  isSubagent: false,
  archived: false,
  size: 40,
  mtimeMs: sessionId === 'garbage' ? 2 : 1,
  childSessionIds: [],
  ...extra,
});

it('a garbage .jsonl says in its row and in the form why it cannot be replayed, and Start stays disabled', async () => {
  const fake = createFakeInspectorClient({
    'sessions.list': () => ({
      stateDir: '/s',
      sessions: [
        row('garbage', { problem: PROBLEM }),
        row('good', { key: 'agent:main:main', entries: 9, turns: 3, messages: 8 }),
      ],
    }),
    'plugins.list': () => ({ stateDir: '/s', workspaceDir: null, configPath: null, consentFile: '/c', plugins: [] }),
    'replay.defaults': () => demoDefaults,
  });
  render(
    <ClientContext.Provider value={fake.client}>
      <SessionsView />
    </ClientContext.Provider>,
  );
  const rows = await screen.findAllByTestId('session-row');
  const garbage = rows.find((r) => r.textContent?.includes('garbage'))!;
  // the row: why, and no counts that read as a healthy empty session
  expect(within(garbage).getByTestId('session-problem').textContent).toBe(`cannot replay ${PROBLEM}`);
  expect(within(garbage).getByTestId('session-turns').textContent).toBe('—');
  const good = rows.find((r) => r.textContent?.includes('agent:main:main'))!;
  expect(within(good).queryByTestId('session-problem')).toBeNull();

  fireEvent.click(garbage);
  const problem = await screen.findByTestId('replay-session-problem');
  expect(problem.textContent).toBe(`This session cannot be replayed: ${PROBLEM}`);
  expect(screen.getByRole('button', { name: 'Start replay' })).toHaveProperty('disabled', true);

  fireEvent.click(good);
  expect(screen.queryByTestId('replay-session-problem')).toBeNull();
});
