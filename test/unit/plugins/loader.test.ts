/**
 * Real engine hosts (child processes) for the loader fixtures: ESM, CommonJS and TypeScript entries, the
 * openclaw/plugin-sdk specifiers, values and callbacks across the process boundary, the environment allow-list.
 * Hosts are started once (in parallel) and shared by the tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { CompactParams, ContextEngine, LlmCompleteParams } from '../../../src/contract';
import { PLUGIN_ENV_ALLOW_LIST } from '../../../src/plugins/host/laneEnvironment';
import { loadPlugin, type LoadedPlugin, type LoadPluginOptions } from '../../../src/plugins/loadPlugin';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';
import { allowExecuteConsent } from '../../../src/plugins/consent';
import { createContextRuntime } from '../../../src/engines';
import { type ContextRuntime } from '../../../src/runtime';

const FIXTURES = join(import.meta.dirname, '../../fixtures/plugins');
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const user = (content: string) => ({ role: 'user' as const, content, timestamp: 1 });

let runtime: ContextRuntime;
const delegated: CompactParams[] = [];
const llmCalls: string[] = [];
const loaded: Record<string, LoadedPlugin> = {};

function options(extra: Partial<LoadPluginOptions> = {}): LoadPluginOptions {
  return {
    runtime,
    consent: allowExecuteConsent(),
    logger: quiet,
    compactionDelegate: async (params) => {
      delegated.push(params);
      return {
        ok: true,
        compacted: true,
        reason: `compacted ${params.sessionId}`,
        result: { tokensBefore: 100, tokensAfter: 40, summary: 'S' },
      };
    },
    llm: {
      complete: async (params: LlmCompleteParams) => {
        llmCalls.push(params.messages[0]!.content);
        return { text: `LLM:${params.messages[0]!.content}`, provider: 'test', model: 'm', usage: { totalTokens: 3 } };
      },
    },
    ...extra,
  };
}

async function engine(id: string): Promise<ContextEngine> {
  return runtime.resolveContextEngine({ plugins: { slots: { contextEngine: id } } });
}

beforeAll(async () => {
  runtime = createContextRuntime({ logger: quiet });
  process.env.CONTEXTSCOPE_TEST_SECRET = 'must-not-leak';
  const load = async (name: string, extra?: Partial<LoadPluginOptions>) => {
    loaded[name] = await loadPlugin(readPluginPackage(join(FIXTURES, name), 'linked'), options(extra));
  };
  await Promise.all([
    load('loader-esm', { env: { PASSED_TO_PLUGIN: 'yes' } }),
    load('loader-cjs', { memoryPromptSection: '## Memory\nrecall with memory_search' }),
    load('loader-ts'),
    load('loader-import-error'),
    load('loader-hostile'),
  ]);
}, 60_000);

afterAll(async () => {
  delete process.env.CONTEXTSCOPE_TEST_SECRET;
  await Promise.all(Object.values(loaded).map((l) => l.close()));
});

describe('loading an ESM plugin', () => {
  it('runs register(api) in its own process and records everything it registered', () => {
    const esm = loaded['loader-esm']!;
    expect(esm.status).toBe('running');
    expect(esm.host?.pid).not.toBe(process.pid);
    expect(esm.engineIds).toEqual(['loader-esm', 'loader-esm-env']);
    const regs = esm.registrations!;
    expect(regs.tools).toEqual([
      { pluginId: 'loader-esm', name: 'esm_search', isFactory: false },
      { pluginId: 'loader-esm', name: 'esm_factory_tool', isFactory: true },
    ]);
    expect(regs.commands).toEqual([{ pluginId: 'loader-esm', name: 'esm-status' }]);
    expect(regs.hooks.map((h) => h.event)).toEqual(['before_prompt_build', 'session_end']);
    expect(regs.stubs).toEqual([{ pluginId: 'loader-esm', method: 'registerService' }]);
    expect(esm.logs.filter((l) => l.level === 'info').map((l) => l.message)).toEqual([
      'registering with label esm-default',
    ]);
    expect(esm.diagnostics).toEqual([]);
  });

  it('hands the runtime an engine whose info is the plugin engine info', async () => {
    expect((await engine('loader-esm')).info).toEqual({
      id: 'loader-esm',
      name: 'Loader ESM',
      version: '1.0.0',
      ownsCompaction: false,
    });
  });

  it('carries a Set of available tools and the factory context across', async () => {
    const result = await (
      await engine('loader-esm')
    ).assemble({ sessionId: 's', messages: [user('hi')], availableTools: new Set(['write', 'read']) });
    const seen = JSON.parse(result.systemPromptAddition!);
    expect(seen.toolsIsSet).toBe(true);
    expect(seen.tools).toEqual(['read', 'write']);
    expect(seen.factoryCtxKeys).toContain('config');
    expect(seen.rootHasDefine).toBe(true);
    expect(result.messages).toEqual([user('hi')]);
    expect(result.estimatedTokens).toBe(7);
  });

  it('returns a rollback handle that runs in the plugin process when called', async () => {
    const eng = await engine('loader-esm');
    const preparation = await eng.prepareSubagentSpawn!({ parentSessionKey: 'p', childSessionKey: 'child-1' });
    await preparation!.rollback();
    const seen = JSON.parse((await eng.assemble({ sessionId: 's', messages: [] })).systemPromptAddition!);
    expect(seen.rolledBack).toEqual(['child-1']);
  });

  it('routes api.runtime.llm.complete and runtimeContext.llm.complete to the parent', async () => {
    const callsBefore = llmCalls.length;
    const result = await (
      await engine('loader-esm')
    ).bootstrap!({
      sessionId: 's',
      sessionFile: '/tmp/none.jsonl',
      runtimeContext: { llm: { complete: async () => ({ text: 'CTX', provider: 'p', model: 'm', usage: {} }) } },
    });
    expect(result).toEqual({ bootstrapped: true, reason: 'LLM:api|CTX' });
    expect(llmCalls.slice(callsBefore)).toEqual(['api']);
  });

  it("hands delegateCompactionToRuntime's params to the loader's compactionDelegate and returns its result", async () => {
    const result = await (
      await engine('loader-esm')
    ).compact({ sessionId: 'sess-9', sessionFile: '/tmp/sess-9.jsonl', force: true, customInstructions: 'keep names' });
    expect(result).toEqual({
      ok: true,
      compacted: true,
      reason: 'compacted sess-9',
      result: { tokensBefore: 100, tokensAfter: 40, summary: 'S' },
    });
    expect(delegated.at(-1)).toMatchObject({
      sessionId: 'sess-9',
      sessionFile: '/tmp/sess-9.jsonl',
      force: true,
      customInstructions: 'keep names',
    });
  });

  it('calls runtimeContext.rewriteTranscriptEntries in the parent', async () => {
    const requests: unknown[] = [];
    const result = await (
      await engine('loader-esm')
    ).maintain!({
      sessionId: 's',
      sessionFile: '/tmp/x.jsonl',
      runtimeContext: {
        rewriteTranscriptEntries: async (req) => {
          requests.push(req);
          return { changed: true, bytesFreed: 12, rewrittenEntries: 1 };
        },
      },
    });
    expect(requests).toEqual([{ replacements: [] }]);
    expect(result).toEqual({ changed: true, bytesFreed: 12, rewrittenEntries: 1 });
  });

  it('returns undefined fields, Maps, NaN, Dates and bigints unchanged', async () => {
    const result = (await (
      await engine('loader-esm')
    ).ingestBatch!({ sessionId: 's', messages: [user('a'), user('b')] })) as unknown as {
      ingestedCount: number;
      echo: { undef: undefined; map: Map<string, Set<number>>; nan: number; date: Date; big: bigint };
    };
    expect(result.ingestedCount).toBe(2);
    expect('undef' in result.echo).toBe(true);
    expect(result.echo.map.get('k')).toEqual(new Set([1, 2]));
    expect(result.echo.nan).toBeNaN();
    expect(result.echo.date).toEqual(new Date(0));
    expect(result.echo.big).toBe(12n);
  });

  it('gives the plugin temporary lane folders and only allow-listed environment variables', async () => {
    const seen = JSON.parse(
      (await (await engine('loader-esm-env')).assemble({ sessionId: 's', messages: [] })).systemPromptAddition!,
    );
    const dirs = loaded['loader-esm']!.laneDirs!;
    const inherited = PLUGIN_ENV_ALLOW_LIST.filter((key) => process.env[key] !== undefined);
    expect(seen.keys).toEqual(
      [...inherited, 'HOME', 'USERPROFILE', 'OPENCLAW_STATE_DIR', 'TMPDIR', 'TMP', 'TEMP', 'PASSED_TO_PLUGIN'].sort(),
    );
    expect(seen.home).toBe(dirs.home);
    expect(seen.homedir).toBe(dirs.home);
    expect(seen.stateDir).toBe(dirs.stateDir);
    expect(seen.tmpdir).toBe(dirs.tmpDir);
    expect(seen.cwd).toBe(dirs.cwd);
    expect(seen.home).not.toBe(process.env.HOME);
    expect(seen.secret).toBeNull();
    expect(seen.passed).toBe('yes');
  });
});

describe('loading CommonJS and TypeScript plugins', () => {
  it('resolves openclaw/plugin-sdk/logging-core and /core through require() from the plugin folder', async () => {
    expect(loaded['loader-cjs']!.status).toBe('running');
    const result = (await (await engine('loader-cjs')).assemble({ sessionId: 's', messages: [] })) as unknown as {
      systemPromptAddition: string;
      memory: string;
    };
    expect(result.systemPromptAddition).toBe('token sk-abc…3456 here');
    expect(result.memory).toBe('some');
  });

  it('transpiles a TypeScript entry (enum, interfaces, type-only SDK import, a local .ts module)', async () => {
    expect(loaded['loader-ts']!.status).toBe('running');
    const result = await (
      await engine('loader-ts')
    ).assemble({ sessionId: 's', messages: [user('a'), user('b'), user('c')] });
    expect(result.messages).toEqual([user('b'), user('c')]);
    expect((await engine('loader-ts')).info.name).toBe('Loader TS (window)');
  });
});

describe('load failures and hostile plugins', () => {
  it('reports an import failure with the module and message and registers nothing', () => {
    const failed = loaded['loader-import-error']!;
    expect(failed.status).toBe('load-failed');
    expect(failed.engineIds).toEqual([]);
    expect(failed.errors).toHaveLength(1);
    expect(failed.errors[0]).toMatchObject({
      code: 'entry-import-failed',
      file: join(FIXTURES, 'loader-import-error/index.js'),
      // Node's own words, which depend on the loading path: "Cannot find package … imported from <file>" from the
      // ESM loader, "Cannot find module …" with a require stack naming the file where ESM loads through jiti (Node 20
      // under the permission model, the app's confined host)
      message: expect.stringMatching(
        /^cannot load module "contextscope-missing-dependency": Cannot find (package|module) 'contextscope-missing-dependency'/,
      ),
    });
    expect(failed.errors[0]!.message).toContain(join(FIXTURES, 'loader-import-error/index.js'));
    expect(failed.host?.running).toBe(false);
  });

  it('reports forged messages from the plugin process and does not act on them', async () => {
    const hostile = loaded['loader-hostile']!;
    expect(hostile.diagnostics.map((d) => d.message)).toEqual([
      'engine host sent an invalid message (ignored): response for unknown request id 424242',
      'engine host sent an invalid message (ignored): "log" message /level: Expected union value (message: {"type":"log","level":"shout","message":"bad level"})',
      'engine host sent an invalid message (ignored): "request" message /op: Expected union value (message: {"type":"request","id":7,"op":"deleteEverything","args":[]})',
    ]);
    expect((await (await engine('hostile')).assemble({ sessionId: 's', messages: [user('x')] })).messages).toEqual([
      user('x'),
    ]);
  });

  it('reports an engine-host Node binary that cannot start', async () => {
    const broken = await loadPlugin(
      readPluginPackage(join(FIXTURES, 'loader-cjs'), 'linked'),
      options({ nodePath: '/nonexistent/node' }),
    );
    expect(broken.status).toBe('load-failed');
    expect(broken.errors.map((e) => e.message)).toEqual([
      'engine host for plugin "loader-cjs" failed to start: spawn /nonexistent/node ENOENT before it was ready',
    ]);
    await broken.close();
  });
});
