/**
 * What an engine host may do beyond Node's permission model's default, and where that is decided
 * (src/plugins/host/hostPermissions.ts, consent.ts): the lane option `allow=`, grants remembered with a consent or
 * confirmed for one run, `--allow-execute` granting what a lane asks; and the flags a plan turns into per Node.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  allowExecuteConsent,
  confirmedConsent,
  createConsentStore,
  denyAllConsent,
} from '../../../src/plugins/consent';
import { decideConsent } from '../../../src/plugins/consentGate';
import {
  missingHostGrants,
  parseHostGrants,
  permissionArgv,
  planHostSandbox,
  type NodePermissionSupport,
} from '../../../src/plugins/host/hostPermissions';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';
import { snapshotPluginPackage } from '../../../src/plugins/hashPluginPackage';
import { LaneSpecError, parseLaneSpec } from '../../../src/replay/lane/laneSpec';

const ROOT = resolve(import.meta.dirname, '../../..');
const PLUGIN = readPluginPackage(join(ROOT, 'test', 'fixtures', 'plugins', 'sandbox-spawn'), 'linked');
const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cs-host-grants-')));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('the lane option allow=', () => {
  it('parses child-process and worker, comma-separated, and refuses anything else naming it', () => {
    expect(parseLaneSpec('plugin:./p?allow=child-process')).toMatchObject({ allow: { childProcess: true } });
    expect(parseLaneSpec('plugin:./p?allow=worker,child-process')).toMatchObject({
      allow: { childProcess: true, worker: true },
    });
    expect(parseLaneSpec('plugin:./p')).not.toHaveProperty('allow');
    expect(() => parseLaneSpec('plugin:./p?allow=network')).toThrow(LaneSpecError);
    expect(() => parseLaneSpec('plugin:./p?allow=network')).toThrow(
      'allow=network: unknown grant "network": use child-process, worker (comma-separated)',
    );
    expect(() => parseLaneSpec('legacy?allow=worker')).toThrow(/unknown option "allow"/);
    expect(parseHostGrants('')).toEqual({});
  });
});

describe('grants and consent', () => {
  it('a consent store remembers grants with the consent, gives them back, and forgets them when granted again without', async () => {
    const file = join(tempDir(), 'plugin-consent.json');
    const store = createConsentStore(file);
    expect(store.grant(PLUGIN, undefined, { childProcess: true, worker: false })).toMatchObject({
      grants: { childProcess: true },
    });
    expect(JSON.parse(readFileSync(file, 'utf8')).grants[PLUGIN.realPath].grants).toEqual({ childProcess: true });
    expect(store.check(PLUGIN)).toMatchObject({ granted: true, grants: { childProcess: true } });
    expect(store.list()[0]).toMatchObject({ grants: { childProcess: true } });
    expect(await decideConsent(PLUGIN, store)).toMatchObject({
      granted: true,
      grants: { childProcess: true },
      grantsAsRequested: false,
    });
    store.grant(PLUGIN);
    expect(store.check(PLUGIN).grants).toBeUndefined();
    expect(JSON.parse(readFileSync(file, 'utf8')).grants[PLUGIN.realPath]).not.toHaveProperty('grants');
  });

  it('reads only true grants from the consent file (anything else in it grants nothing)', () => {
    const file = join(tempDir(), 'plugin-consent.json');
    const hash = snapshotPluginPackage(PLUGIN).hash;
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        grants: {
          [PLUGIN.realPath]: {
            pluginId: 'p',
            hash,
            grantedAt: 'x',
            grants: { childProcess: 'yes', worker: true, all: true },
          },
        },
      }),
    );
    expect(createConsentStore(file).check(PLUGIN).grants).toEqual({ worker: true });
  });

  it('a run confirmed by the main process carries its grants; --allow-execute grants what the lane asks; deny-all nothing', async () => {
    const hash = snapshotPluginPackage(PLUGIN).hash;
    const store = createConsentStore(join(tempDir(), 'plugin-consent.json'));
    const confirmed = confirmedConsent([{ realPath: PLUGIN.realPath, hash, grants: { worker: true } }], store);
    expect(await decideConsent(PLUGIN, confirmed)).toMatchObject({ granted: true, grants: { worker: true } });
    expect(await decideConsent(PLUGIN, confirmedConsent([{ realPath: PLUGIN.realPath, hash }], store))).toMatchObject({
      granted: true,
      grants: {},
      grantsAsRequested: false,
    });
    expect(await decideConsent(PLUGIN, allowExecuteConsent())).toMatchObject({ grants: {}, grantsAsRequested: true });
    expect(await decideConsent(PLUGIN, denyAllConsent())).toMatchObject({ granted: false });
  });

  it('names the grants a lane asks for that a consent lacks', () => {
    expect(missingHostGrants({ childProcess: true, worker: true }, { worker: true })).toEqual(['child-process']);
    expect(missingHostGrants({ childProcess: true }, { childProcess: true, worker: true })).toEqual([]);
    expect(missingHostGrants(undefined, {})).toEqual([]);
  });
});

describe('the plan for one engine host', () => {
  const entryDir = join(tempDir(), 'app', 'out', 'node');
  mkdirSync(entryDir, { recursive: true });
  const entry = { entry: join(entryDir, 'engine-host.mjs'), execArgv: [], shimDir: join(entryDir, 'plugin-sdk') };
  const node20: NodePermissionSupport = {
    flag: '--experimental-permission',
    version: 'v20.20.2',
    flags: ['--experimental-permission', '--allow-fs-read', '--disable-warning'],
  };
  const node24: NodePermissionSupport = { flag: '--permission', version: 'v24.21.0', flags: ['--permission'] };
  const input = {
    entry,
    pluginDirs: ['/plugins/p', '/real/p'],
    linkedPaths: ['/shared/lib'],
    laneDirs: ['/lane/home', '/lane/home/.openclaw', '/lane/tmp', '/lane/work'],
    transpileCacheDir: '/cache/ts-plugins/plugins/abc',
    extraRead: ['/run/lane', '/run/lane_*'],
    grants: {},
  };

  it('reads the plugin folder, its linked targets, the host code, the lane folders and transcripts; writes only the lane folders and its cache', () => {
    const planned = planHostSandbox({ ...input, support: node24 });
    if (!('plan' in planned)) throw new Error(planned.unconfined);
    const { plan } = planned;
    expect(plan.write).toEqual([...input.laneDirs, input.transpileCacheDir]);
    for (const path of [
      ...input.pluginDirs,
      ...input.linkedPaths,
      entryDir,
      entry.shimDir,
      ...input.extraRead,
      ...plan.write,
    ])
      expect(plan.read).toContain(path);
    expect(plan.read).not.toContain('/');
    expect(permissionArgv(plan)).toEqual([
      '--permission',
      ...plan.read.map((p) => `--allow-fs-read=${p}`),
      ...plan.write.map((p) => `--allow-fs-write=${p}`),
    ]);
  });

  it('Node 20: --experimental-permission with its warning silenced; grants add --allow-child-process / --allow-worker', () => {
    const planned = planHostSandbox({ ...input, support: node20, grants: { childProcess: true, worker: true } });
    if (!('plan' in planned)) throw new Error(planned.unconfined);
    const argv = permissionArgv(planned.plan);
    expect(argv[0]).toBe('--experimental-permission');
    expect(argv.slice(-3)).toEqual([
      '--allow-child-process',
      '--allow-worker',
      '--disable-warning=ExperimentalWarning',
    ]);
  });

  it('no plan for the TypeScript source host (tsx) or a Node without the model, each saying why', () => {
    const source = {
      entry: '/src/plugins/host/engineHostMain.ts',
      execArgv: ['--import', 'file:///tsx.mjs'],
      shimDir: '/s',
    };
    expect(planHostSandbox({ ...input, entry: source, support: node24 })).toEqual({
      unconfined: expect.stringContaining('runs from its TypeScript source through tsx'),
    });
    expect(
      planHostSandbox({
        ...input,
        support: { flags: [], version: 'v18.20.0', why: 'its Node (v18.20.0) has no permission model' },
      }),
    ).toEqual({
      unconfined: 'its Node (v18.20.0) has no permission model',
    });
  });
});
