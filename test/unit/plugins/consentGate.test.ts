/**
 * The loader's consent step (src/plugins/consentGate.ts): a consent given for other content does not run the plugin,
 * a consent that cannot be checked does not either, and each says which plugin and why.
 */
import { cpSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PluginConsent } from '../../../src/plugins/consent';
import { decideConsent } from '../../../src/plugins/consentGate';
import { snapshotPluginPackage } from '../../../src/plugins/hashPluginPackage';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/plugins/sandbox-spawn');
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cs-consent-gate-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
cpSync(FIXTURE, join(dir, 'plugin'), { recursive: true });
const plugin = readPluginPackage(join(dir, 'plugin'), 'linked');

/** A consent store that granted the package as it was hashed at `hash`. */
const grantedFor = (hash: string): PluginConsent => ({ check: () => ({ granted: true, reason: 'approved', hash }) });

describe('decideConsent', () => {
  it('runs a plugin whose content is what consent was given for, with the files that hash covers', async () => {
    const hash = snapshotPluginPackage(plugin).hash;
    const outcome = await decideConsent(plugin, grantedFor(hash));
    expect(outcome).toMatchObject({ granted: true, reason: 'approved', grants: {} });
    expect(outcome.granted && outcome.snapshot.hash).toBe(hash);
  });

  it('refuses a plugin edited since consent, naming it and both hashes', async () => {
    const before = snapshotPluginPackage(plugin).hash;
    writeFileSync(join(dir, 'plugin', 'added-after-consent.js'), 'module.exports = 1;\n');
    const after = snapshotPluginPackage(plugin).hash;
    expect(after).not.toBe(before);
    const outcome = await decideConsent(plugin, grantedFor(before));
    expect(outcome).toEqual({
      granted: false,
      reason:
        `not executed: ${plugin.realPath} is not the content consent was given for (content hash ` +
        `${before.slice(0, 12)} → ${after.slice(0, 12)}); review it and approve it again`,
    });
  });

  it('refuses when the consent cannot be checked, saying why', async () => {
    const broken: PluginConsent = {
      check: () => {
        throw new Error('consent file is not JSON');
      },
    };
    expect(await decideConsent(plugin, broken)).toEqual({
      granted: false,
      reason: `not executed: consent could not be checked for ${plugin.realPath}: consent file is not JSON`,
    });
  });
});
