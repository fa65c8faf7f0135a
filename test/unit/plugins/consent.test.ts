import { afterEach, describe, expect, it } from 'vitest';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConsentStore, noConsentMessage } from '../../../src/plugins/consent';
import { hashPluginPackage, snapshotPluginPackage } from '../../../src/plugins/hashPluginPackage';
import { loadPlugin } from '../../../src/plugins/loadPlugin';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';
import type { EngineHostTransportFactory } from '../../../src/plugins/host/transport';
import { createContextRuntime } from '../../../src/engines';

const FIXTURES = join(import.meta.dirname, '../../fixtures/plugins');
const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cs-consent-')));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function copyFixture(name: string): string {
  const dir = join(tempDir(), name);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

/** a transport that records spawns instead of starting anything */
function spyTransport(): { factory: EngineHostTransportFactory; spawned: number } {
  const spy = {
    spawned: 0,
    factory: (() => {
      spy.spawned++;
      throw new Error('no process may be started without consent');
    }) as EngineHostTransportFactory,
  };
  return spy;
}

describe('consent', () => {
  it('is missing until granted, then remembered per realpath and content hash in a JSON file', () => {
    const plugin = readPluginPackage(copyFixture('loader-cjs'), 'linked');
    const file = join(tempDir(), 'config', 'plugin-consent.json');
    const store = createConsentStore(file);
    expect(store.check(plugin)).toEqual({
      granted: false,
      reason: noConsentMessage(plugin.realPath),
      hash: hashPluginPackage(plugin),
      snapshot: snapshotPluginPackage(plugin),
    });
    expect(noConsentMessage('/p')).toBe(
      'not executed: no consent for /p; run with --allow-execute or approve it in the app',
    );
    store.grant(plugin);
    expect(store.check(plugin).granted).toBe(true);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      version: number;
      grants: Record<string, { hash: string; pluginId: string }>;
    };
    expect(saved.version).toBe(1);
    expect(Object.keys(saved.grants)).toEqual([plugin.realPath]);
    expect(saved.grants[plugin.realPath]!.hash).toBe(hashPluginPackage(plugin));
    expect(readdirSync(join(file, '..'))).toEqual(['plugin-consent.json']); // no temp or lock files left behind
  });

  it('becomes invalid when an entry file changes', () => {
    const dir = copyFixture('loader-cjs');
    const plugin = readPluginPackage(dir, 'linked');
    const store = createConsentStore(join(tempDir(), 'consent.json'));
    store.grant(plugin);
    const oldHash = hashPluginPackage(plugin);
    writeFileSync(join(dir, 'main.js'), `${readFileSync(join(dir, 'main.js'), 'utf8')}\n// changed\n`);
    const decision = store.check(plugin);
    expect(decision.granted).toBe(false);
    expect(decision.reason).toBe(
      `not executed: ${plugin.realPath} changed since consent was given (content hash ${oldHash.slice(0, 12)} → ${decision.hash.slice(0, 12)}); review it, then run with --allow-execute or approve it in the app again`,
    );
  });

  it('hashes the files next to the entry and those under node_modules', () => {
    const dir = copyFixture('loader-esm');
    const plugin = readPluginPackage(dir, 'linked');
    const before = hashPluginPackage(plugin);
    writeFileSync(join(dir, 'src', 'helper.js'), 'export const x = 1;');
    const withHelper = hashPluginPackage(plugin);
    expect(withHelper).not.toBe(before);
    mkdirSync(join(dir, 'src', 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(dir, 'src', 'node_modules', 'dep', 'index.js'), 'module.exports = 1;');
    expect(hashPluginPackage(plugin)).not.toBe(withHelper);
  });

  it('revokes a grant', () => {
    const plugin = readPluginPackage(copyFixture('loader-cjs'), 'linked');
    const store = createConsentStore(join(tempDir(), 'consent.json'));
    store.grant(plugin);
    expect(store.revoke(plugin.realPath)).toBe(true);
    expect(store.check(plugin).granted).toBe(false);
    expect(store.list()).toEqual([]);
  });

  it('without consent, loadPlugin lists the plugin but starts no process', async () => {
    const plugin = readPluginPackage(copyFixture('loader-cjs'), 'linked');
    const spy = spyTransport();
    const loaded = await loadPlugin(plugin, {
      runtime: createContextRuntime({ logger: { debug() {}, info() {}, warn() {}, error() {} } }),
      consent: createConsentStore(join(tempDir(), 'consent.json')),
      transport: spy.factory,
    });
    expect(spy.spawned).toBe(0);
    expect(loaded.status).toBe('not-executed');
    expect(loaded.statusMessage).toBe(noConsentMessage(plugin.realPath));
    expect(loaded.errors.map((e) => e.code)).toEqual(['no-consent']);
    expect(loaded.engineIds).toEqual([]);
    expect(loaded.manifest?.id).toBe('loader-cjs');
  });

  it('does not run a plugin with config errors even with consent', async () => {
    const plugin = readPluginPackage(join(FIXTURES, 'loader-schema'), 'linked', {
      plugins: { entries: { 'loader-schema': { config: { budgetShare: 2 } } } },
    });
    const spy = spyTransport();
    const loaded = await loadPlugin(plugin, {
      runtime: createContextRuntime({ logger: { debug() {}, info() {}, warn() {}, error() {} } }),
      consent: { check: () => ({ granted: true, reason: 'test', hash: 'x' }) },
      transport: spy.factory,
    });
    expect(spy.spawned).toBe(0);
    expect(loaded.status).toBe('invalid');
    expect(loaded.errors.map((e) => e.message).sort()).toEqual(['/apiKey: is required', '/budgetShare: must be <= 1']);
  });
});
