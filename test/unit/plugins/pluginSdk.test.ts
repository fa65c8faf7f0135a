import { afterEach, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  PLUGIN_SDK_EXPORTS,
  PLUGIN_SDK_GLOBAL,
  PLUGIN_SDK_SHIM_FILES,
  createOpenClawPluginSdk,
  installPluginSdkGlobal,
} from '../../../src/plugins/sdk/pluginSdk';

const SHIM_DIR = join(import.meta.dirname, '../../../src/plugins/sdk/shims');

describe('openclaw plugin-sdk values', () => {
  afterEach(() => {
    delete (globalThis as Record<symbol, unknown>)[PLUGIN_SDK_GLOBAL];
  });

  it('renders the configured memory section and undefined when it is empty', async () => {
    const withSection = createOpenClawPluginSdk({
      delegateCompaction: async () => ({ ok: true, compacted: false }),
      memoryPromptSection: '## Memory\nUse memory_search.',
    });
    expect(withSection.core.buildMemorySystemPromptAddition({ availableTools: new Set(['memory_search']) })).toBe(
      '## Memory\nUse memory_search.',
    );
    expect(await withSection.core.prepareMemorySystemPromptAddition()).toBe('## Memory\nUse memory_search.');
    const empty = createOpenClawPluginSdk({
      delegateCompaction: async () => ({ ok: true, compacted: false }),
      memoryPromptSection: '   ',
    });
    expect(empty.core.buildMemorySystemPromptAddition()).toBeUndefined();
  });

  it('hands delegateCompactionToRuntime to the bridge and returns its result', async () => {
    const seen: string[] = [];
    const sdk = createOpenClawPluginSdk({
      delegateCompaction: async (params) => {
        seen.push(params.sessionId);
        return { ok: true, compacted: true, reason: 'done' };
      },
    });
    expect(await sdk.core.delegateCompactionToRuntime({ sessionId: 's1' })).toEqual({
      ok: true,
      compacted: true,
      reason: 'done',
    });
    expect(seen).toEqual(['s1']);
    const entry = { id: 'x', register() {} };
    expect(sdk.pluginEntry.definePluginEntry(entry)).toBe(entry);
  });

  it('every ESM and CommonJS shim exports exactly the documented names', async () => {
    installPluginSdkGlobal(
      createOpenClawPluginSdk({ delegateCompaction: async () => ({ ok: true, compacted: false }) }),
    );
    const require = createRequire(import.meta.url);
    for (const [specifier, names] of Object.entries(PLUGIN_SDK_EXPORTS)) {
      const base = PLUGIN_SDK_SHIM_FILES[specifier as keyof typeof PLUGIN_SDK_SHIM_FILES];
      const esm = (await import(pathToFileURL(join(SHIM_DIR, `${base}.mjs`)).href)) as Record<string, unknown>;
      expect(
        Object.keys(esm)
          .filter((k) => k !== 'default')
          .sort(),
        `${specifier} (ESM)`,
      ).toEqual([...names].sort());
      const cjs = require(join(SHIM_DIR, `${base}.cjs`)) as Record<string, unknown>;
      expect(
        Object.keys(cjs)
          .filter((k) => k !== 'default')
          .sort(),
        `${specifier} (CJS)`,
      ).toEqual([...names].sort());
      // a default export in both forms or in neither (jiti, which loads ES modules in the confined host on Node 20,
      // reads the CommonJS `default` for `import sdk from …`)
      expect(cjs.default, `${specifier} default (CJS)`).toBe(esm.default);
      for (const name of names) expect(typeof cjs[name], `${specifier}.${name}`).toBe('function');
    }
  });
});
