import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createBridgeDispatcher,
  type BridgeEvent,
  type BridgeOutcome,
  type ListedPlugin,
  type PluginsListResponse,
} from '../../src/bridge';
import { forkTransport, type EngineHostSpawnSpec, type EngineHostTransportFactory } from '../../src/plugins';
import { createHandlers } from '../../main/handlers';

const FIXTURES = join(import.meta.dirname, '../fixtures/plugins');
const temps: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A state dir with two plugins in <stateDir>/extensions: a working CommonJS engine and one with a bad manifest. */
function stateDirWithPlugins(): { stateDir: string; good: string; bad: string } {
  const stateDir = tempDir('cs-plugins-state-');
  const good = join(stateDir, 'extensions', 'loader-cjs');
  const bad = join(stateDir, 'extensions', 'loader-bad-manifest');
  cpSync(join(FIXTURES, 'loader-cjs'), good, { recursive: true });
  cpSync(join(FIXTURES, 'loader-bad-manifest'), bad, { recursive: true });
  return { stateDir, good: realpathSync(good), bad: realpathSync(bad) };
}

function setup(transport?: EngineHostTransportFactory) {
  const consentFile = join(tempDir('cs-consent-'), 'plugin-consent.json');
  const dispatcher = createBridgeDispatcher(
    createHandlers({
      shell: 'browser',
      runtimeHost: 'node',
      consentFile,
      ...(transport ? { engineHostTransport: transport } : {}),
    }),
    { validateResponses: true },
  );
  return { consentFile, dispatcher };
}

/** What the renderer does to approve a folder: the main process confirms (a one-time nonce), then approve takes it. */
async function approveFolder(dispatcher: ReturnType<typeof setup>['dispatcher'], path: string) {
  const { nonce } = result<{ nonce: string }>(
    await dispatcher.call('plugins.requestConsent', { paths: [path], purpose: 'approve' }),
  );
  const { plugins } = result<{ plugins: { pluginId: string; realPath: string; consent: ListedPlugin['consent'] }[] }>(
    await dispatcher.call('plugins.approve', { nonce }),
  );
  return plugins[0]!;
}

function result<T>(outcome: BridgeOutcome): T {
  if (!outcome.ok) throw new Error(`bridge call failed: ${JSON.stringify(outcome.error)}`);
  return outcome.result as T;
}

const byId = (list: PluginsListResponse, id: string): ListedPlugin => {
  const found = list.plugins.find((p) => p.id === id);
  if (!found) throw new Error(`plugin ${id} not listed (have ${list.plugins.map((p) => p.id).join(', ')})`);
  return found;
};

describe('plugins.list', () => {
  it('lists the bundled sample plugins and the state dir extensions with origin, kind, problems and consent', async () => {
    const { stateDir, good, bad } = stateDirWithPlugins();
    const { dispatcher, consentFile } = setup();
    const list = result<PluginsListResponse>(await dispatcher.call('plugins.list', { stateDir }));

    expect(list.stateDir).toBe(stateDir);
    expect(list.configPath).toBeNull();
    expect(list.consentFile).toBe(consentFile);
    expect(list.plugins.map((p) => `${p.id}:${p.origin}`).sort()).toEqual([
      'faulty-engines:bundled',
      'loader-bad-manifest:global',
      'loader-cjs:global',
      'recent-window:bundled',
      'summary-tree:bundled',
    ]);

    const recent = byId(list, 'recent-window');
    expect(recent).toMatchObject({
      name: 'Recent Window',
      version: '1.0.0',
      kind: ['context-engine'],
      loadable: true,
      errors: [],
      entries: ['./index.js'],
    });
    expect(recent.consent.state).toBe('missing');
    expect(recent.consent.message).toBe(
      `not executed: no consent for ${recent.realPath}; run with --allow-execute or approve it in the app`,
    );
    expect(recent.configSchema?.additionalProperties).toBe(false);
    expect(recent.configSchema?.fields.find((f) => f.key === 'budgetShare')).toEqual({
      key: 'budgetShare',
      type: 'number',
      label: 'Budget share',
      description: 'Fraction (0.1–1.0) of the token budget OpenClaw passes to assemble() that recent messages may use.',
      default: 0.8,
      advanced: false,
    });

    const broken = byId(list, 'loader-bad-manifest');
    expect(broken.path).toBe(bad);
    expect(broken.loadable).toBe(false);
    expect(broken.errors.map((e) => `${e.code} ${e.path ?? ''}`)).toContain('manifest-invalid /configSchema');
    expect(byId(list, 'loader-cjs').path).toBe(good);
  });

  it('answers with invalid_config naming the file when <stateDir>/openclaw.json is not JSON5', async () => {
    const stateDir = tempDir('cs-plugins-state-');
    writeFileSync(join(stateDir, 'openclaw.json'), '{ plugins: [ }');
    const { dispatcher } = setup();
    const outcome = await dispatcher.call('plugins.list', { stateDir });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('invalid_config');
    expect(outcome.error.path).toBe('/stateDir');
    expect(outcome.error.message).toMatch(
      new RegExp(`^${join(stateDir, 'openclaw.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON5`),
    );
  });
});

describe('plugins.approve / plugins.revoke', () => {
  it('approve remembers consent in the consent file; a changed package turns it stale; revoke forgets it', async () => {
    const { stateDir, good } = stateDirWithPlugins();
    const { dispatcher, consentFile } = setup();

    const approved = await approveFolder(dispatcher, good);
    expect(approved.pluginId).toBe('loader-cjs');
    expect(approved.realPath).toBe(good);
    expect(approved.consent.state).toBe('granted');
    expect(approved.consent.message).toMatch(/^approved on \d{4}-\d\d-\d\dT/);
    const stored = JSON.parse(readFileSync(consentFile, 'utf8')) as {
      grants: Record<string, { pluginId: string; hash: string }>;
    };
    expect(Object.keys(stored.grants)).toEqual([good]);
    expect(stored.grants[good]!.hash).toBe(approved.consent.hash);

    let list = result<PluginsListResponse>(await dispatcher.call('plugins.list', { stateDir }));
    expect(byId(list, 'loader-cjs').consent).toEqual({ ...approved.consent });

    appendFileSync(join(good, 'main.js'), '\n// edited after approval\n');
    list = result<PluginsListResponse>(await dispatcher.call('plugins.list', { stateDir }));
    const stale = byId(list, 'loader-cjs').consent;
    expect(stale.state).toBe('stale-hash');
    expect(stale.message).toContain(`not executed: ${good} changed since consent was given`);
    expect(stale.grantedAt).toBeUndefined();

    expect(result(await dispatcher.call('plugins.revoke', { path: good }))).toEqual({
      path: good,
      realPath: good,
      revoked: true,
    });
    expect(result(await dispatcher.call('plugins.revoke', { path: good }))).toEqual({
      path: good,
      realPath: good,
      revoked: false,
    });
    list = result<PluginsListResponse>(await dispatcher.call('plugins.list', { stateDir }));
    expect(byId(list, 'loader-cjs').consent.state).toBe('missing');
  });

  it('refuses a folder that is not a plugin with not_found at /paths/0 and writes no consent', async () => {
    const notPlugin = tempDir('cs-not-plugin-');
    const { dispatcher, consentFile } = setup();
    const outcome = await dispatcher.call('plugins.requestConsent', { paths: [notPlugin], purpose: 'approve' });
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: 'not_found',
        method: 'plugins.requestConsent',
        path: '/paths/0',
        message: `${notPlugin} is not a plugin folder: it has no openclaw.plugin.json (nor a package.json with an "openclaw" section). Pass the folder plugins.list reports as the plugin's path.`,
      },
    });
    expect(existsSync(consentFile)).toBe(false);
  });

  it('validates params before any handler runs (a nonce is required; a path alone approves nothing)', async () => {
    const { stateDir: _stateDir, good } = stateDirWithPlugins();
    const { dispatcher, consentFile } = setup();
    expect(await dispatcher.call('plugins.approve', {})).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', path: '/nonce' },
    });
    expect(await dispatcher.call('plugins.approve', { path: good })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
    expect(existsSync(consentFile)).toBe(false);
  });
});

describe('doctor.run', () => {
  it('without consent runs no plugin code and reports problems and not-executed plugins', async () => {
    const { stateDir } = stateDirWithPlugins();
    const spawned: EngineHostSpawnSpec[] = [];
    const { dispatcher } = setup((spec) => {
      spawned.push(spec);
      return forkTransport(spec);
    });
    const report = result<{
      ok: boolean;
      executed: boolean;
      plugins: { id: string; status: string }[];
      findings: { severity: string; code: string; where: { pluginId?: string } }[];
    }>(await dispatcher.call('doctor.run', { stateDir }));
    expect(spawned).toEqual([]);
    expect(report.executed).toBe(false);
    expect(report.ok).toBe(false);
    expect(report.plugins.map((p) => `${p.id}:${p.status}`).sort()).toEqual([
      'faulty-engines:not-executed',
      'loader-bad-manifest:invalid',
      'loader-cjs:not-executed',
      'recent-window:not-executed',
      'summary-tree:not-executed',
    ]);
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => `${f.code} ${f.where.pluginId}`)).toEqual([
      'manifest-invalid loader-bad-manifest',
      'manifest-invalid loader-bad-manifest',
    ]);
  });

  it('runs an approved plugin through the engine-host transport the environment carries', async () => {
    const { stateDir, good } = stateDirWithPlugins();
    const spawned: EngineHostSpawnSpec[] = [];
    const { dispatcher } = setup((spec) => {
      spawned.push(spec);
      return forkTransport(spec);
    });
    await approveFolder(dispatcher, good);
    const report = result<{ executed: boolean; plugins: { id: string; status: string; engines: string[] }[] }>(
      await dispatcher.call('doctor.run', { stateDir }),
    );
    const cjs = report.plugins.find((p) => p.id === 'loader-cjs')!;
    expect(cjs.status).toBe('executed');
    expect(cjs.engines).toEqual(['loader-cjs']);
    expect(report.plugins.find((p) => p.id === 'recent-window')!.status).toBe('not-executed');
    expect(spawned.length).toBeGreaterThan(0);
    expect(spawned.every((spec) => spec.env.HOME !== process.env.HOME)).toBe(true);
  });

  it('tells the progress per plugin as it goes, and answers from its cache until a plugin changes', async () => {
    const { stateDir, good } = stateDirWithPlugins();
    const spawned: EngineHostSpawnSpec[] = [];
    const { dispatcher } = setup((spec) => {
      spawned.push(spec);
      return forkTransport(spec);
    });
    await approveFolder(dispatcher, good);
    const run = async () => {
      const events: BridgeEvent[] = [];
      result(await dispatcher.call('doctor.run', { stateDir }, (event) => events.push(event)));
      return events.flatMap((e) => {
        if (e.topic === 'progress') return [`${e.payload.phase} ${e.payload.message ?? ''}`];
        if (e.topic !== 'doctor.progress') return [];
        const { phase, pluginId, plugin, plugins, checked, engine, outcome } = e.payload;
        const detail = engine ? ` ${engine.id} ${engine.index}/${engine.count}` : outcome ? ` ${outcome.status}` : '';
        return [`${phase} ${pluginId} ${plugin}/${plugins} checked ${checked}${detail}`];
      });
    };
    const first = await run();
    // the approved plugin: loaded, its engine driven, then checked with its outcome; every plugin checked once
    expect(first.filter((line) => line.includes(' loader-cjs '))).toEqual([
      expect.stringMatching(/^loading loader-cjs \d\/5 checked \d$/),
      expect.stringMatching(/^loaded loader-cjs \d\/5 checked \d$/),
      expect.stringMatching(/^driving loader-cjs \d\/5 checked 4 loader-cjs 1\/1$/),
      expect.stringMatching(/^checked loader-cjs \d\/5 checked 5 executed$/),
    ]);
    expect(
      first
        .filter((line) => line.startsWith('checked '))
        .map((line) => line.split(' ')[1])
        .sort(),
    ).toEqual(['faulty-engines', 'loader-bad-manifest', 'loader-cjs', 'recent-window', 'summary-tree']);
    const hosts = spawned.length;
    expect(await run()).toEqual(['cached no plugin changed']);
    expect(spawned.length).toBe(hosts);
    appendFileSync(join(good, 'main.js'), '\n// edited\n');
    // changed since approval: examined again (and no longer run: its consent is stale)
    expect(await run()).toContainEqual(expect.stringMatching(/^checked loader-cjs \d\/5 checked \d not-executed$/));
  }, 60_000);

  it('takes a call deadline (timeoutMs) as `contextscope doctor --timeout` does, and refuses one out of range', async () => {
    const stateDir = tempDir('cs-plugins-state-');
    const slow = join(stateDir, 'extensions', 'slow-engine');
    cpSync(join(FIXTURES, 'slow-engine'), slow, { recursive: true });
    const { dispatcher } = setup();
    await approveFolder(dispatcher, realpathSync(slow));
    const quarantines = async (timeoutMs?: number) =>
      result<{ quarantines: { engineId: string; reason: string }[] }>(
        await dispatcher.call('doctor.run', { stateDir, ...(timeoutMs !== undefined ? { timeoutMs } : {}) }),
      ).quarantines.map((q) => `${q.engineId}: ${q.reason}`);
    // slow-engine's assemble takes 2 s: within the default 10 s, past 300 ms (a new run: the deadline is in the cache key)
    expect(await quarantines()).toEqual([]);
    expect(await quarantines(300)).toEqual(['slow-engine: timeout after 300 ms']);
    const refused = await dispatcher.call('doctor.run', { stateDir, timeoutMs: 5 });
    expect(refused.ok ? null : { code: refused.error.code, path: refused.error.path }).toEqual({
      code: 'invalid_params',
      path: '/timeoutMs',
    });
  }, 60_000);
});
