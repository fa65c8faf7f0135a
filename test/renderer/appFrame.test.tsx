import { act, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppHealth, AppInfo } from '../../src/bridge';
import { BridgeCallError } from '../../renderer/src/bridge/BridgeCallError';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import type { InspectorClient } from '../../renderer/src/bridge/InspectorClient';
import { resetAppStore } from '../../renderer/src/store/appStore';
import { AppFrame } from '../../renderer/src/views/AppFrame';
import { createFakeInspectorClient } from './fakeInspectorClient';

const info: AppInfo = {
  name: 'contextscope',
  version: '0.1.0',
  shell: 'browser',
  runtimeHost: 'node',
  nodeVersion: 'v20.20.2',
  platform: 'linux',
  arch: 'x64',
  pid: 4242,
};
const health: AppHealth = { ok: true, uptimeMs: 61_000, rssBytes: 73_400_320, heapUsedBytes: 1536 };

function renderFrame(client: InspectorClient | null, clientProblem: string | null = null) {
  return render(
    <ClientContext.Provider value={client}>
      <AppFrame clientProblem={clientProblem} />
    </ClientContext.Provider>,
  );
}

beforeEach(() => resetAppStore());

describe('AppFrame', () => {
  it('shows app.info from the bridge in the header: version, shell, runtime host, Node version, connected', async () => {
    const fake = createFakeInspectorClient({ 'app.info': () => info, 'app.health': () => health });
    renderFrame(fake.client);
    expect(await screen.findByTestId('node-version')).toHaveProperty('textContent', 'Node v20.20.2');
    const header = screen.getByRole('banner');
    expect(within(header).getByTestId('app-version').textContent).toBe('v0.1.0');
    expect(within(header).getByTestId('app-shell').textContent).toBe('Browser mode');
    expect(within(header).getByTestId('runtime-host').textContent).toBe('Node runtime');
    expect(within(header).getByTestId('runtime-status').textContent).toBe('connected');
    // and the recent recordings kept on disk (the latest is shown again after a reload)
    expect(fake.calls.sort()).toEqual(['app.health', 'app.info', 'recordings.list']);
  });

  it('shows the overview cards with formatted health figures', async () => {
    const fake = createFakeInspectorClient({ 'app.info': () => info, 'app.health': () => health });
    renderFrame(fake.client);
    const card = await screen.findByTestId('app-info-card');
    expect(within(card).getByText('Process id').nextSibling?.textContent).toBe('4242');
    expect(within(card).getByText('Bridge').nextSibling?.textContent).toBe('WebSocket (127.0.0.1, token)');
    const healthCard = screen.getByTestId('app-health-card');
    expect(within(healthCard).getByText('Uptime').nextSibling?.textContent).toBe('1 min 1 s');
    expect(within(healthCard).getByText('Memory (RSS)').nextSibling?.textContent).toBe('70.0 MiB');
  });

  it('labels Electron and the preload bridge when served by the Electron shell', async () => {
    const fake = createFakeInspectorClient(
      {
        'app.info': () => ({ ...info, shell: 'electron', runtimeHost: 'electron-main', electronVersion: '45.5.0' }),
        'app.health': () => health,
      },
      'preload',
    );
    renderFrame(fake.client);
    expect((await screen.findByTestId('app-shell')).textContent).toBe('Electron');
    expect(screen.getByTestId('runtime-host').textContent).toBe('Electron main runtime');
    expect(within(screen.getByTestId('app-info-card')).getByText('Electron').nextSibling?.textContent).toBe('45.5.0');
    expect(within(screen.getByTestId('app-info-card')).getByText('Bridge').nextSibling?.textContent).toBe(
      'Electron IPC (preload)',
    );
  });

  it('lists the sections, every one available (none is "coming soon" any more)', () => {
    const fake = createFakeInspectorClient({ 'app.info': () => info, 'app.health': () => health });
    renderFrame(fake.client);
    const nav = screen.getByRole('navigation', { name: 'Sections' });
    const buttons = within(nav).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual([
      'Overview',
      'Sessions',
      'Replay',
      'Compare',
      'Plugins',
      'Config',
      'Doctor',
    ]);
    expect(buttons.map((button) => (button as HTMLButtonElement).disabled)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(buttons[0]!.getAttribute('aria-current')).toBe('page');
  });

  it('shows the structured bridge error when app.info fails', async () => {
    const fake = createFakeInspectorClient({
      'app.info': () => {
        throw new BridgeCallError({
          code: 'handler_failed',
          method: 'app.info',
          path: '',
          message: 'app.info failed: boom',
        });
      },
      'app.health': () => health,
    });
    renderFrame(fake.client);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not load the runtime status: app.info failed: boom',
    );
  });

  it('follows the connection state and shows why the bridge dropped', async () => {
    const fake = createFakeInspectorClient({ 'app.info': () => info, 'app.health': () => health });
    renderFrame(fake.client);
    await screen.findByTestId('node-version');
    act(() => fake.setState('disconnected', 'The connection to the ContextScope runtime closed (code 1006).'));
    const status = screen.getByTestId('runtime-status');
    expect(status.textContent).toBe('disconnected');
    expect(status.getAttribute('title')).toBe('The connection to the ContextScope runtime closed (code 1006).');
    expect(screen.getByRole('alert').textContent).toBe(
      'The connection to the ContextScope runtime closed (code 1006).',
    );
  });

  it('says what to do when the page has no bridge', () => {
    renderFrame(null, 'This page has no bridge token in its URL.');
    expect(screen.getByTestId('runtime-status').textContent).toBe('disconnected');
    expect(screen.getByRole('alert').textContent).toBe('This page has no bridge token in its URL.');
  });
});
