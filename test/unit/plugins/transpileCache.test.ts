/**
 * TypeScript plugin entries are transpiled once into the user's cache folder and reused by later engine hosts;
 * an edited source is never served from the cache.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allowExecuteConsent } from '../../../src/plugins/consent';
import { loadPlugin } from '../../../src/plugins/loadPlugin';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';
import { defaultCacheDir, transpileCacheDir } from '../../../src/plugins/transpileCache';
import { createContextRuntime } from '../../../src/engines';

const FIXTURE = join(import.meta.dirname, '../../fixtures/plugins/loader-ts');
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const user = (content: string) => ({ role: 'user' as const, content, timestamp: 1 });
const work = mkdtempSync(join(tmpdir(), 'cs-transpile-cache-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Loads the plugin at `dir` in a fresh host and returns how many messages its engine keeps of three. */
async function keptOfThree(dir: string, cacheDir: string): Promise<number> {
  const runtime = createContextRuntime({ logger: quiet });
  const loaded = await loadPlugin(readPluginPackage(dir, 'linked'), {
    runtime,
    consent: allowExecuteConsent(),
    logger: quiet,
    transpileCacheDir: cacheDir,
  });
  try {
    expect(loaded.status).toBe('running');
    const engine = await runtime.resolveContextEngine({ plugins: { slots: { contextEngine: 'loader-ts' } } });
    return (await engine.assemble({ sessionId: 's', messages: [user('a'), user('b'), user('c')] })).messages.length;
  } finally {
    await loaded.close();
  }
}

/** The transpiled modules under `cache`, as `<plugin folder>/<file>` (the host keeps one folder per plugin content). */
function cachedModules(cache: string): string[] {
  const plugins = join(cache, 'plugins');
  return readdirSync(plugins).flatMap((folder) => readdirSync(join(plugins, folder)).map((f) => `${folder}/${f}`));
}

describe('transpile cache for TypeScript plugins', () => {
  it('fills the cache on first load, reuses it, and transpiles an edited source again', async () => {
    const plugin = join(work, 'loader-ts');
    cpSync(FIXTURE, plugin, { recursive: true });
    const cache = join(work, 'cache');
    const first = await keptOfThree(plugin, cache);
    // one file per transpiled module (the entry and window.ts), named by jiti's version, options and source, in the
    // folder of this plugin's content (a plugin can neither read nor plant another's transpiles: pluginSandbox.ts)
    const files = cachedModules(cache);
    expect(files).toHaveLength(2);
    for (const f of files) expect(f).toMatch(/^[0-9a-f]{32}\/[0-9a-f]{64}\.js$/);
    const stamps = new Map(files.map((f) => [f, statSync(join(cache, 'plugins', f)).mtimeMs]));

    expect(await keptOfThree(plugin, cache)).toBe(first);
    expect(cachedModules(cache)).toEqual(files);
    for (const [f, mtime] of stamps) expect(statSync(join(cache, 'plugins', f)).mtimeMs).toBe(mtime);

    // edit window.ts: keep one message fewer than configured. The plugin's content changed, so its modules are
    // transpiled again into the folder of the new content; nothing transpiled from the old source is used
    writeFileSync(
      join(plugin, 'window.ts'),
      'export function keepLast<T>(items: readonly T[], count: number): T[] {\n  return items.slice(Math.max(0, items.length - count + 1));\n}\n',
    );
    expect(await keptOfThree(plugin, cache)).toBe(first - 1);
    const after = cachedModules(cache);
    expect(after).toHaveLength(4);
    expect(new Set(after.map((f) => f.split('/')[0])).size).toBe(2);
  }, 60_000);

  it('uses a private folder under the user cache unless CONTEXTSCOPE_CACHE_DIR names one', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x/cache' })).toBe('/x/cache/contextscope');
    expect(defaultCacheDir({ CONTEXTSCOPE_CACHE_DIR: '/y', XDG_CACHE_HOME: '/x/cache' })).toBe('/y');
    const dir = transpileCacheDir({ CONTEXTSCOPE_CACHE_DIR: join(work, 'private') })!;
    expect(dir).toBe(join(work, 'private', 'ts-plugins'));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // a path through a regular file cannot be created: no cache, no error
    writeFileSync(join(work, 'a-file'), '');
    expect(transpileCacheDir({ CONTEXTSCOPE_CACHE_DIR: join(work, 'a-file', 'cache') })).toBeUndefined();
  });
});
