import { describe, expect, it } from 'vitest';
import { createBridgeDispatcher, methods } from '../../src/bridge';
import { createHandlers } from '../../main/handlers';

describe('main/handlers.ts (the one bridge table)', () => {
  it('has a handler for every method of the contract and nothing else', () => {
    const table = createHandlers({ shell: 'browser', runtimeHost: 'node' });
    expect(Object.keys(table).sort()).toEqual(Object.keys(methods).sort());
  });

  it('serves app.info for browser mode with this process as the runtime host', async () => {
    const dispatcher = createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node' }), {
      validateResponses: true,
    });
    const outcome = await dispatcher.call('app.info', {});
    expect(outcome).toEqual({
      ok: true,
      result: {
        name: 'contextscope',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        shell: 'browser',
        runtimeHost: 'node',
        nodeVersion: process.version,
        platform: process.platform,
        arch: process.arch,
        pid: process.pid,
      },
    });
  });

  it('serves app.info for the Electron shell with the Electron version', async () => {
    const dispatcher = createBridgeDispatcher(
      createHandlers({ shell: 'electron', runtimeHost: 'electron-main', electronVersion: '45.5.0' }),
      { validateResponses: true },
    );
    const outcome = await dispatcher.call('app.info', {});
    expect(outcome).toMatchObject({
      ok: true,
      result: { shell: 'electron', runtimeHost: 'electron-main', electronVersion: '45.5.0' },
    });
  });

  it('serves app.health with uptime measured by the injected clock', async () => {
    let now = 10_000;
    const dispatcher = createBridgeDispatcher(
      createHandlers({ shell: 'browser', runtimeHost: 'node', startedAt: 10_000, now: () => now }),
      { validateResponses: true },
    );
    now = 12_345;
    const outcome = await dispatcher.call('app.health', {});
    expect(outcome).toMatchObject({ ok: true, result: { ok: true, uptimeMs: 2_345 } });
  });
});
