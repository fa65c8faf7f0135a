/**
 * The renderer never grants consent itself: approving a folder and "run every plugin's code" in the doctor both ask
 * the main process (plugins.requestConsent) and pass on only the nonce it hands out.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ListedPlugin } from '../../src/bridge';
import { resetDoctorStore, useDoctorStore } from '../../renderer/src/store/doctorStore';
import { resetPluginsStore, usePluginsStore } from '../../renderer/src/store/pluginsStore';
import { resetWorkspaceStore } from '../../renderer/src/store/workspaceStore';
import { createFakeInspectorClient } from './fakeInspectorClient';

beforeEach(() => {
  resetDoctorStore();
  resetPluginsStore();
  resetWorkspaceStore();
});

const CONSENT_CALLS = ['plugins.requestConsent', 'plugins.approve', 'doctor.run'];
const listed = (path: string, loadable: boolean) => ({ id: path.slice(1), path, loadable }) as unknown as ListedPlugin;

function fake() {
  return createFakeInspectorClient({
    'plugins.list': () => ({
      stateDir: '/state',
      workspaceDir: null,
      configPath: null,
      consentFile: '/c.json',
      plugins: [listed('/good', true), listed('/broken', false)],
    }),
    'plugins.requestConsent': ({ paths, purpose }) => ({
      nonce: `n-${purpose}`,
      purpose,
      expiresAt: '2026-12-02T00:05:00.000Z',
      plugins: paths.map((path) => ({ pluginId: path, path, realPath: path, hash: 'h', files: 1, bytes: 1 })),
    }),
    'plugins.approve': () => ({ plugins: [] }),
    'doctor.run': () => ({}) as never,
  });
}

describe('consent requests from the renderer', () => {
  it('approving a folder asks the main process first and approves with its nonce', async () => {
    const f = fake();
    expect(await usePluginsStore.getState().approve(f.client, '/good')).toBe(true);
    expect(f.requests.filter((r) => CONSENT_CALLS.includes(r.method))).toEqual([
      { method: 'plugins.requestConsent', params: { paths: ['/good'], purpose: 'approve' } },
      { method: 'plugins.approve', params: { nonce: 'n-approve' } },
    ]);
  });

  it('approving with grants asks the main process for them (it names them in its confirmation)', async () => {
    const f = fake();
    expect(await usePluginsStore.getState().approve(f.client, '/good', { childProcess: true })).toBe(true);
    expect(f.requests.filter((r) => CONSENT_CALLS.includes(r.method))).toEqual([
      {
        method: 'plugins.requestConsent',
        params: { paths: ['/good'], purpose: 'approve', grants: { childProcess: true } },
      },
      { method: 'plugins.approve', params: { nonce: 'n-approve' } },
    ]);
  });

  it('the doctor with "run every plugin" asks for the loadable plugins and runs with the nonce; without it, asks nothing', async () => {
    const f = fake();
    useDoctorStore.getState().setAllowExecute(true);
    await useDoctorStore.getState().run(f.client, '/state');
    expect(f.requests.filter((r) => CONSENT_CALLS.includes(r.method))).toEqual([
      { method: 'plugins.requestConsent', params: { paths: ['/good'], purpose: 'run' } },
      { method: 'doctor.run', params: { stateDir: '/state', consentNonce: 'n-run', timeoutMs: 10_000 } },
    ]);
    const g = fake();
    useDoctorStore.getState().setAllowExecute(false);
    await useDoctorStore.getState().run(g.client, '/state');
    expect(g.requests).toEqual([{ method: 'doctor.run', params: { stateDir: '/state', timeoutMs: 10_000 } }]);
  });
});
