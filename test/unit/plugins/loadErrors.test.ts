/**
 * Load errors that say what to do, on real engine hosts (fixtures in test/fixtures/plugins/load-errors): a plugin
 * needing `node:sqlite` on a Node without it is told about --node / CONTEXTSCOPE_ENGINE_NODE (and Electron's Node
 * 22 in the app); a named import Node cannot find in a CommonJS module is explained (its twin, whose export Node
 * can see, loads); an entry without a usable default export is described with the right article and type.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { describeEntryError } from '../../../src/plugins/describeEntryError';
import { describeDefaultExport } from '../../../src/plugins/host/loadEntry';
import { loadPlugin, type LoadedPlugin } from '../../../src/plugins/loadPlugin';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';
import { allowExecuteConsent } from '../../../src/plugins/consent';
import { createContextRuntime } from '../../../src/engines';

const FIXTURES = join(import.meta.dirname, '../../fixtures/plugins/load-errors');
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const opened: LoadedPlugin[] = [];
afterAll(async () => {
  await Promise.all(opened.map((l) => l.close()));
});

/**
 * The TypeScript source host, whose Node ESM loader refuses what OpenClaw's does. KNOWN GAP: the built host,
 * confined on Node 20, loads ESM entries through jiti's require, which finds every CommonJS export — there the
 * cjs-named-import fixture loads although OpenClaw would refuse it (the node tests otherwise run the built host).
 */
const SOURCE_HOST = {
  entry: join(import.meta.dirname, '../../../src/plugins/host/engineHostMain.ts'),
  shimDir: join(import.meta.dirname, '../../../src/plugins/sdk/shims'),
};

async function load(name: string): Promise<LoadedPlugin> {
  const runtime = createContextRuntime({ logger: quiet });
  const loaded = await loadPlugin(readPluginPackage(join(FIXTURES, name), 'linked'), {
    runtime,
    consent: allowExecuteConsent(),
    logger: quiet,
    ...(name.startsWith('cjs-named-import') ? { hostEntry: SOURCE_HOST } : {}),
  });
  opened.push(loaded);
  return loaded;
}

/** Whether this Node (the engine hosts' default) has node:sqlite. */
async function hasSqlite(): Promise<boolean> {
  try {
    const builtin = 'node:sqlite'; // a variable: the type checker's Node types may predate it
    await import(builtin);
    return true;
  } catch {
    return false;
  }
}

describe('load errors that help', () => {
  it('a plugin that needs node:sqlite is told which Node it needs and how to run engine hosts on it', async () => {
    const loaded = await load('needs-sqlite');
    if (await hasSqlite()) {
      // the twin case: a Node with node:sqlite loads it
      expect(loaded.status).toBe('running');
      return;
    }
    expect(loaded.status).toBe('load-failed');
    expect(loaded.errors).toEqual([
      {
        code: 'entry-import-failed',
        message: `the plugin needs the built-in module "node:sqlite", which the engine host's Node ${process.version} does not have (it needs Node 22.13 (22.5 with --experimental-sqlite))`,
        file: join(FIXTURES, 'needs-sqlite/index.js'),
        fix:
          'run engine hosts on a newer Node: `--node <path to node>` on the command line or CONTEXTSCOPE_ENGINE_NODE=<path>; ' +
          "the desktop app runs them on Electron's own Node 22 unless CONTEXTSCOPE_ENGINE_NODE points elsewhere",
      },
    ]);
  });

  it('names the missing built-in for any Node that lacks it (the error Node gives)', () => {
    const problem = describeEntryError(
      '/p/index.js',
      '/p',
      { phase: 'import', code: 'ERR_UNKNOWN_BUILTIN_MODULE', message: 'No such built-in module: node:sqlite' },
      'v20.11.0',
    );
    expect(problem.message).toContain('"node:sqlite", which the engine host\'s Node v20.11.0 does not have');
    expect(problem.fix).toContain('CONTEXTSCOPE_ENGINE_NODE');
  });

  it('explains a named import from a CommonJS module, and its twin (an export Node can see) loads', async () => {
    const failed = await load('cjs-named-import');
    expect(failed.status).toBe('load-failed');
    expect(failed.errors).toEqual([
      {
        code: 'entry-import-failed',
        message:
          `the plugin imports { openStore } from the CommonJS module "./lib/store.cjs", and Node's ESM loader cannot see ` +
          `"openStore" among that module's exports (it only finds names it can detect without running the module)`,
        file: join(FIXTURES, 'cjs-named-import/index.js'),
        fix:
          "import the module's default export and read the name from it (`import pkg from '…'; const { openStore } = pkg;`), " +
          'or use a build of the plugin (or of that dependency) that ships ES modules',
      },
    ]);
    const twin = await load('cjs-named-import-ok');
    expect(twin.errors).toEqual([]);
    expect(twin.engineIds).toEqual(['cjs-named-import-ok']);
  });

  it('describes a default export that is not an entry with its type and the right article', async () => {
    const text = await load('default-string');
    expect(text.errors.map((e) => e.message)).toEqual([
      `${join(FIXTURES, 'default-string/index.js')} exports no register(api): its default export is a string; export a function register(api) or definePluginEntry({ id, register })`,
    ]);
    const none = await load('no-default');
    expect(none.errors.map((e) => e.message)).toEqual([
      `${join(FIXTURES, 'no-default/index.js')} exports no register(api): it has no default export; export a function register(api) or definePluginEntry({ id, register })`,
    ]);
    expect([undefined, null, [], {}, 1, 'x', true, 1n, Symbol('s')].map(describeDefaultExport)).toEqual([
      'it has no default export',
      'its default export is null',
      'its default export is an array',
      'its default export is an object without register()',
      'its default export is a number',
      'its default export is a string',
      'its default export is a boolean',
      'its default export is a bigint',
      'its default export is a symbol',
    ]);
  });
});
