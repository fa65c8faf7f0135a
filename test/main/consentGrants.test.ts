/**
 * Grants for a plugin's engine host (child processes, worker threads: src/plugins/host/hostPermissions.ts) are
 * asked for with the consent, named in the main process's confirmation, bound to the nonce, and remembered with the
 * consent by plugins.approve; plugins.list shows them. Real plugin folder, the real bridge dispatcher and handlers.
 */
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsentBroker, type ConsentPrompt } from '../../src/app';
import { consentDialogOptions } from '../../main/electron/consentDialog';
import { createHandlers } from '../../main/handlers';
import { createBridgeDispatcher, type BridgeOutcome, type PluginsListResponse } from '../../src/bridge';

const FIXTURE = join(import.meta.dirname, '../fixtures/plugins/sandbox-spawn');
const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cs-grants-')));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function ok<T>(outcome: BridgeOutcome): T {
  if (!outcome.ok) throw new Error(`bridge call failed: ${JSON.stringify(outcome.error)}`);
  return outcome.result as T;
}

function pluginCopy(): { stateDir: string; path: string } {
  const stateDir = tempDir();
  const path = join(stateDir, 'extensions', 'sandbox-spawn');
  cpSync(FIXTURE, path, { recursive: true });
  return { stateDir, path };
}

describe('grants go with the consent', () => {
  it('the broker names them in the confirmation, logs them and hands them back with the nonce', async () => {
    const prompts: ConsentPrompt[] = [];
    const log: string[] = [];
    const broker = createConsentBroker({ confirm: async (p) => (prompts.push(p), true), log: (l) => log.push(l) });
    const { path } = pluginCopy();
    const offer = await broker.request([path], 'run', { childProcess: true, worker: false });
    expect(prompts[0]!.plugins.map((p) => p.grants)).toEqual([{ childProcess: true }]);
    expect(log[0]).toMatch(/, may start child processes$/);
    expect(broker.take(offer.nonce, 'run', '/consentNonce').map((p) => p.grants)).toEqual([{ childProcess: true }]);
    const plain = await broker.request([path], 'run');
    expect(plain.plugins[0]).not.toHaveProperty('grants');
    expect(consentDialogOptions(prompts[0]!).detail).toContain(
      'may start child processes, which run outside any confinement',
    );
    expect(consentDialogOptions({ purpose: 'run', plugins: plain.plugins }).detail).not.toContain('may start');
  });

  it('plugins.approve remembers them with the consent and plugins.list shows them; approving again without them clears them', async () => {
    const { stateDir, path } = pluginCopy();
    const consentFile = join(tempDir(), 'plugin-consent.json');
    const dispatcher = createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node', consentFile }), {
      validateResponses: true,
    });
    const approve = async (grants?: { childProcess?: boolean; worker?: boolean }) => {
      const { nonce } = ok<{ nonce: string }>(
        await dispatcher.call('plugins.requestConsent', {
          paths: [path],
          purpose: 'approve',
          ...(grants ? { grants } : {}),
        }),
      );
      return ok<{ plugins: { consent: { grants?: unknown } }[] }>(await dispatcher.call('plugins.approve', { nonce }));
    };
    const listed = async () =>
      ok<PluginsListResponse>(await dispatcher.call('plugins.list', { stateDir })).plugins.find(
        (p) => p.id === 'sandbox-spawn',
      )!.consent;

    expect((await approve({ worker: true })).plugins[0]!.consent.grants).toEqual({ worker: true });
    expect(JSON.parse(readFileSync(consentFile, 'utf8')).grants[path].grants).toEqual({ worker: true });
    expect(await listed()).toMatchObject({ state: 'granted', grants: { worker: true } });
    expect((await approve()).plugins[0]!.consent).not.toHaveProperty('grants');
    expect(await listed()).not.toHaveProperty('grants');
    expect(
      await dispatcher.call('plugins.requestConsent', { paths: [path], purpose: 'approve', grants: { network: true } }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
  });
});
