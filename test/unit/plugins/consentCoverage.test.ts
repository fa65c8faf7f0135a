/**
 * Consent covers every file a plugin can load: real plugin folders in temp dirs, real engine hosts. An edit under
 * node_modules, in a dot-folder or behind a symlink out of the package makes the consent stale; a module outside
 * the covered files (a parent folder's node_modules, a relative path out of the package) or one whose bytes changed
 * after the consent check is not loaded by the engine host.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allowExecuteConsent, createConsentStore, type PluginConsent } from '../../../src/plugins/consent';
import { snapshotPluginPackage } from '../../../src/plugins/hashPluginPackage';
import { loadPlugin } from '../../../src/plugins/loadPlugin';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';
import { NOT_COVERED_TEXT, CHANGED_TEXT } from '../../../src/plugins/host/moduleCoverage';
import { createContextRuntime } from '../../../src/engines';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cs-coverage-')));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A CommonJS plugin whose entry requires `requires` (each a require() argument) inside register(). */
function writePlugin(dir: string, id: string, requires: string[], files: Record<string, string> = {}): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'openclaw.plugin.json'),
    JSON.stringify({ id, kind: 'context-engine', configSchema: { type: 'object' } }),
  );
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: id, openclaw: { extensions: ['./index.js'] } }));
  writeFileSync(
    join(dir, 'index.js'),
    `module.exports = function register(api) {\n${requires.map((r) => `  require(${JSON.stringify(r)});`).join('\n')}\n  api.registerContextEngine(${JSON.stringify(id)}, () => ({ info: { id: ${JSON.stringify(id)} }, async ingest() { return { ingested: true }; }, async assemble(p) { return { messages: p.messages, estimatedTokens: 0 }; }, async compact() { return { ok: true, compacted: false }; } }));\n};\n`,
  );
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

async function load(dir: string, consent: PluginConsent = allowExecuteConsent()) {
  return loadPlugin(readPluginPackage(dir, 'linked'), {
    runtime: createContextRuntime({ logger: quiet }),
    consent,
    logger: quiet,
  });
}

describe('consent covers every file the plugin can load', () => {
  it.each([
    ['a file under node_modules', 'node_modules/dep/index.js'],
    ['a file in a dot-folder', '.lib/helper.js'],
    ['a file in a nested node_modules', 'src/node_modules/deep/index.js'],
  ])('editing %s after approval makes the consent stale', (_what, path) => {
    const dir = writePlugin(join(tempDir(), 'p'), 'p', [], { [path]: 'module.exports = 1;\n' });
    const plugin = readPluginPackage(dir, 'linked');
    const store = createConsentStore(join(tempDir(), 'consent.json'));
    store.grant(plugin);
    expect(store.check(plugin).granted).toBe(true);
    writeFileSync(join(dir, path), 'module.exports = 2; // new code\n');
    const decision = store.check(plugin);
    expect(decision.granted).toBe(false);
    expect(decision.reason).toContain('changed since consent was given');
  });

  it('covers the target of a symlink that points out of the package (a file and a folder)', () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'helper.js'), 'module.exports = 1;\n');
    mkdirSync(join(outside, 'lib'));
    writeFileSync(join(outside, 'lib', 'index.js'), 'module.exports = 1;\n');
    const dir = writePlugin(join(tempDir(), 'p'), 'p', []);
    symlinkSync(join(outside, 'helper.js'), join(dir, 'helper.js'));
    symlinkSync(join(outside, 'lib'), join(dir, 'lib'));
    const plugin = readPluginPackage(dir, 'linked');
    const snapshot = snapshotPluginPackage(plugin);
    expect(Object.keys(snapshot.files).sort()).toEqual(
      [
        join(dir, 'index.js'),
        join(dir, 'openclaw.plugin.json'),
        join(dir, 'package.json'),
        join(outside, 'helper.js'),
        join(outside, 'lib', 'index.js'),
      ].sort(),
    );
    const store = createConsentStore(join(tempDir(), 'consent.json'));
    store.grant(plugin);
    writeFileSync(join(outside, 'helper.js'), 'module.exports = 2;\n');
    expect(store.check(plugin).granted).toBe(false);
    store.grant(plugin);
    writeFileSync(join(outside, 'lib', 'index.js'), 'module.exports = 2;\n');
    expect(store.check(plugin).granted).toBe(false);
  });

  it('leaves .git out, and a symlink loop does not hang the hash', () => {
    const dir = writePlugin(join(tempDir(), 'p'), 'p', [], { '.git/HEAD': 'ref: refs/heads/main\n' });
    const outside = tempDir();
    symlinkSync(outside, join(outside, 'again'));
    symlinkSync(outside, join(dir, 'ext'));
    const plugin = readPluginPackage(dir, 'linked');
    const before = snapshotPluginPackage(plugin);
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/other\n');
    expect(snapshotPluginPackage(plugin).hash).toBe(before.hash);
    expect(before.files[join(dir, '.git', 'HEAD')]).toBeUndefined();
  });

  it('past the file cap, the rest is left out and said so', () => {
    const dir = writePlugin(join(tempDir(), 'p'), 'p', [], { 'a.js': '1', 'b.js': '2', 'c.js': '3' });
    const snapshot = snapshotPluginPackage(readPluginPackage(dir, 'linked'), { maxFiles: 2 });
    expect(snapshot.fileCount).toBe(2);
    expect(snapshot.truncated).toMatch(/more than 2 files; files from .* on are not covered/);
  });
});

describe('the engine host loads only covered files', () => {
  it('loads a plugin whose dependencies are its own (node_modules, dot-folder, a symlink out of the package)', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'linked.js'), 'module.exports = 3;\n');
    const dir = writePlugin(join(tempDir(), 'p'), 'covered-ok', ['dep', './.lib/helper.js', './linked.js'], {
      'node_modules/dep/index.js': 'module.exports = 1;\n',
      '.lib/helper.js': 'module.exports = 2;\n',
    });
    symlinkSync(join(outside, 'linked.js'), join(dir, 'linked.js'));
    const loaded = await load(dir);
    try {
      expect(loaded.errors).toEqual([]);
      expect(loaded.status).toBe('running');
      expect(loaded.engineIds).toEqual(['covered-ok']);
    } finally {
      await loaded.close();
    }
  });

  it.each([
    [
      'a dependency in a parent folder’s node_modules',
      (root: string) => {
        writeFileSync(join(root, 'node_modules', 'shared', 'index.js'), 'module.exports = 1;\n');
        return 'shared';
      },
    ],
    [
      'a relative path out of the package',
      (root: string) => {
        writeFileSync(join(root, 'outside.js'), 'module.exports = 1;\n');
        return '../outside.js';
      },
    ],
  ])('refuses %s', async (_what, place) => {
    const root = tempDir();
    mkdirSync(join(root, 'node_modules', 'shared'), { recursive: true });
    const request = place(root);
    const dir = writePlugin(join(root, 'p'), 'not-covered', [request]);
    const loaded = await load(dir);
    try {
      expect(loaded.status).toBe('load-failed');
      expect(loaded.engineIds).toEqual([]);
      expect(loaded.errors.map((e) => e.message).join('\n')).toContain(NOT_COVERED_TEXT);
    } finally {
      await loaded.close();
    }
  });

  it('refuses an ESM import out of the package and a TypeScript module out of it', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'outside.mjs'), 'export const x = 1;\n');
    writeFileSync(join(root, 'outside.ts'), 'export const y: number = 1;\n');
    for (const [name, entry, body] of [
      ['esm-out', 'index.mjs', "import '../outside.mjs';\nexport default function register() {}\n"],
      [
        'ts-out',
        'index.ts',
        "import { y } from '../outside';\nexport default function register(): number { return y; }\n",
      ],
    ] as const) {
      const dir = join(root, name);
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'openclaw.plugin.json'),
        JSON.stringify({ id: name, kind: 'context-engine', configSchema: { type: 'object' } }),
      );
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, openclaw: { extensions: [`./${entry}`] } }));
      writeFileSync(join(dir, entry), body);
      const loaded = await load(dir);
      try {
        expect(loaded.status, name).toBe('load-failed');
        expect(loaded.errors.map((e) => e.message).join('\n'), name).toContain(NOT_COVERED_TEXT);
      } finally {
        await loaded.close();
      }
    }
  });

  it('does not load a module whose bytes changed after the consent check', async () => {
    const dir = writePlugin(join(tempDir(), 'p'), 'edited-late', ['./helper.js'], {
      'helper.js': 'module.exports = 1;\n',
    });
    // consent is checked on the old content, then the helper is rewritten before the engine host loads it
    const consent: PluginConsent = {
      check: (plugin) => {
        const decision = allowExecuteConsent().check(plugin);
        writeFileSync(join(dir, 'helper.js'), 'module.exports = "new code";\n');
        return decision;
      },
    };
    const loaded = await load(dir, consent);
    try {
      expect(loaded.status).toBe('load-failed');
      expect(loaded.errors.map((e) => e.message).join('\n')).toContain(`${join(dir, 'helper.js')} ${CHANGED_TEXT}`);
    } finally {
      await loaded.close();
    }
  });

  it('checks a TypeScript module on every load, also when its transpile is cached', async () => {
    // shared/mod.ts is covered for plugin "a" (through a symlink in its folder) and transpiled into the cache;
    // plugin "b" imports the very same file by a path out of its own package: the cached transpile must not load
    const root = tempDir();
    const cacheDir = tempDir();
    mkdirSync(join(root, 'shared'));
    writeFileSync(join(root, 'shared', 'mod.ts'), 'export const y: number = 1;\n');
    const writeTsPlugin = (name: string, importPath: string): string => {
      const dir = join(root, name);
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'openclaw.plugin.json'),
        JSON.stringify({ id: name, kind: 'context-engine', configSchema: { type: 'object' } }),
      );
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, openclaw: { extensions: ['./index.ts'] } }));
      writeFileSync(
        join(dir, 'index.ts'),
        `import { y } from '${importPath}';\nexport default function register(): number { return y; }\n`,
      );
      return dir;
    };
    const a = writeTsPlugin('a', './mod');
    symlinkSync(join(root, 'shared', 'mod.ts'), join(a, 'mod.ts'));
    const b = writeTsPlugin('b', '../shared/mod');
    const loadWithCache = (dir: string) =>
      loadPlugin(readPluginPackage(dir, 'linked'), {
        runtime: createContextRuntime({ logger: quiet }),
        consent: allowExecuteConsent(),
        logger: quiet,
        transpileCacheDir: cacheDir,
      });
    const first = await loadWithCache(a);
    try {
      expect(first.errors.map((e) => e.message).join('\n')).not.toContain(NOT_COVERED_TEXT);
      expect(readdirSync(cacheDir).length).toBeGreaterThan(0);
    } finally {
      await first.close();
    }
    const second = await loadWithCache(b);
    try {
      expect(second.status).toBe('load-failed');
      // named as imported: the confined host cannot look outside the plugin's folder for the file's extension
      expect(second.errors.map((e) => e.message).join('\n')).toContain(
        `${join(root, 'shared', 'mod')} ${NOT_COVERED_TEXT}`,
      );
    } finally {
      await second.close();
    }
  });
});
