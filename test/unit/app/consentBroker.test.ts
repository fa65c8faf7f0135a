/**
 * The consent broker on its own: what it asks the person, the nonce it issues (once, for its purpose, for a few
 * minutes) and the errors that say what is wrong and where. Real plugin folders from test/fixtures/plugins.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConsentBroker, pluginAt, type ConsentPrompt } from '../../../src/app';

const PLUGIN = realpathSync(join(import.meta.dirname, '../../fixtures/plugins/loader-cjs'));
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the consent broker', () => {
  it('asks with what will run, then issues a 48-hex nonce that works once, for its purpose only', async () => {
    const prompts: ConsentPrompt[] = [];
    const log: string[] = [];
    const broker = createConsentBroker({ confirm: async (p) => (prompts.push(p), true), log: (l) => log.push(l) });
    const offer = await broker.request([`plugin:${PLUGIN}?window=32000`], 'run');
    expect(offer.nonce).toMatch(/^[0-9a-f]{48}$/);
    expect(prompts).toEqual([{ purpose: 'run', plugins: offer.plugins }]);
    expect(offer.plugins).toEqual([
      expect.objectContaining({ path: PLUGIN, realPath: PLUGIN, hash: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    ]);
    expect(log).toEqual([expect.stringMatching(/^consent \(run once\): plugin "[^"]+" at .*loader-cjs, content hash/)]);

    expect(() => broker.take(offer.nonce, 'approve', '/nonce')).toThrow(
      expect.objectContaining({ code: 'consent_required', path: '/nonce' }),
    );
    // a nonce tried for the other purpose is used up too: ask again
    expect(() => broker.take(offer.nonce, 'run', '/consentNonce')).toThrow(/already used/);
    const again = await broker.request([PLUGIN], 'run');
    expect(broker.take(again.nonce, 'run', '/consentNonce')).toEqual(again.plugins);
    expect(() => broker.take(again.nonce, 'run', '/consentNonce')).toThrow(
      expect.objectContaining({ code: 'consent_required', path: '/consentNonce' }),
    );
  });

  it('a nonce expires', async () => {
    let now = 1_000_000;
    const broker = createConsentBroker({ now: () => now, ttlMs: 1000 });
    const { nonce, expiresAt } = await broker.request([PLUGIN], 'run');
    expect(expiresAt).toBe(new Date(1_001_000).toISOString());
    now += 1001;
    expect(() => broker.take(nonce, 'run', '/consentNonce')).toThrow(/not valid \(unknown, already used, expired/);
  });

  it('a declined confirmation issues no nonce', async () => {
    const broker = createConsentBroker({ confirm: async () => false });
    await expect(broker.request([PLUGIN], 'approve')).rejects.toMatchObject({ code: 'consent_declined' });
  });

  it('names the folder that is not a plugin and where it was asked for', async () => {
    const notPlugin = mkdtempSync(join(tmpdir(), 'cs-not-a-plugin-'));
    temps.push(notPlugin);
    expect(() => pluginAt(notPlugin)).toThrow(
      expect.objectContaining({ code: 'not_found', path: '/path', message: expect.stringContaining(notPlugin) }),
    );
    await expect(createConsentBroker().request([PLUGIN, notPlugin], 'run')).rejects.toMatchObject({
      code: 'not_found',
      path: '/paths/1',
      message: expect.stringMatching(/is not a plugin folder: it has no openclaw\.plugin\.json/),
    });
  });
});
