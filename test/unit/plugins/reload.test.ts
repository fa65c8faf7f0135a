import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConsentStore } from '../../../src/plugins/consent';
import { loadPlugin, type LoadedPlugin } from '../../../src/plugins/loadPlugin';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';
import { createContextRuntime } from '../../../src/engines';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const root = realpathSync(mkdtempSync(join(tmpdir(), 'cs-reload-')));
let loaded: LoadedPlugin | undefined;
afterAll(async () => {
  await loaded?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('reload', () => {
  it('re-checks consent against the changed content and retires engines the plugin no longer registers', async () => {
    const dir = join(root, 'loader-cjs');
    cpSync(join(import.meta.dirname, '../../fixtures/plugins/loader-cjs'), dir, { recursive: true });
    const plugin = readPluginPackage(dir, 'linked');
    const consent = createConsentStore(join(root, 'consent.json'));
    consent.grant(plugin);
    const runtime = createContextRuntime({ logger: quiet });
    loaded = await loadPlugin(plugin, { runtime, consent, logger: quiet });
    expect(loaded.status).toBe('running');
    expect(loaded.engineIds).toEqual(['loader-cjs']);

    const entry = join(dir, 'main.js');
    writeFileSync(
      entry,
      readFileSync(entry, 'utf8').replace(
        "registerContextEngine('loader-cjs'",
        "registerContextEngine('loader-cjs-v2'",
      ),
    );
    await loaded.reload();
    expect(loaded.status).toBe('not-executed');
    expect(loaded.statusMessage).toMatch(
      new RegExp(
        `^not executed: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} changed since consent was given \\(content hash [0-9a-f]{12} → [0-9a-f]{12}\\)`,
      ),
    );

    consent.grant(plugin);
    await loaded.reload();
    expect(loaded.status).toBe('running');
    expect(loaded.engineIds).toEqual(['loader-cjs-v2']);
    await runtime.resolveContextEngine({ plugins: { slots: { contextEngine: 'loader-cjs' } } });
    const [quarantine] = runtime.listContextEngineQuarantines();
    expect(quarantine).toMatchObject({
      engineId: 'loader-cjs',
      operation: 'factory',
      reason:
        'engine "loader-cjs" is no longer provided by plugin "loader-cjs" (it was not registered again after reload)',
    });
    const v2 = await runtime.resolveContextEngine({ plugins: { slots: { contextEngine: 'loader-cjs-v2' } } });
    expect(runtime.describeResolvedEngine(v2)?.quarantined).toBe(false);
    expect((await v2.assemble({ sessionId: 's', messages: [] })).systemPromptAddition).toBe('token sk-abc…3456 here');
  });
});
