/**
 * The replay form's defaults come from the chosen session (replay.defaults); when they cannot be read the form says
 * so and why, instead of silently showing ContextScope's own window beside no source at all.
 */
import { render, screen, waitFor } from '@testing-library/react';
import { beforeEach, expect, it } from 'vitest';
import { BridgeCallError } from '../../renderer/src/bridge/BridgeCallError';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import { resetDoctorStore } from '../../renderer/src/store/doctorStore';
import { resetPluginsStore } from '../../renderer/src/store/pluginsStore';
import { resetReplayStore } from '../../renderer/src/store/replayStore';
import { resetSessionDefaultsStore } from '../../renderer/src/store/sessionDefaults';
import { resetSessionsStore } from '../../renderer/src/store/sessionsStore';
import { resetWorkspaceStore } from '../../renderer/src/store/workspaceStore';
import { SessionsView } from '../../renderer/src/views/SessionsView';
import { createFakeInspectorClient } from './fakeInspectorClient';

beforeEach(() => {
  resetWorkspaceStore();
  resetSessionsStore();
  resetPluginsStore();
  resetDoctorStore();
  resetReplayStore();
  resetSessionDefaultsStore();
});

it('says why the chosen session’s settings are missing', async () => {
  const fake = createFakeInspectorClient({
    'sessions.list': () => ({
      stateDir: '/s',
      sessions: [
        {
          sessionId: 'q1',
          file: '/s/agents/main/agent/openclaw-agent.sqlite#agent:main:main',
          storage: 'sqlite',
          agentId: 'main',
          key: 'agent:main:main',
          isSubagent: false,
          archived: false,
          size: 10,
          mtimeMs: 1,
          childSessionIds: [],
        },
      ],
    }),
    'plugins.list': () => ({ stateDir: '/s', workspaceDir: null, configPath: null, consentFile: '/c', plugins: [] }),
    'replay.defaults': () => {
      throw new BridgeCallError({
        code: 'internal',
        method: 'replay.defaults',
        path: '',
        message: 'the session database is locked',
      });
    },
  });
  render(
    <ClientContext.Provider value={fake.client}>
      <SessionsView />
    </ClientContext.Provider>,
  );
  const problem = await screen.findByTestId('replay-defaults-problem');
  expect(problem.textContent).toBe(
    'Could not read this session’s settings, so the fields hold ContextScope’s own defaults: the session database is locked',
  );
  await waitFor(() => expect(screen.getByLabelText('Context window (tokens)')).toHaveProperty('value', '32000'));
});
