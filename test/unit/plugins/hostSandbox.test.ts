/**
 * Least-privilege engine hosts (src/plugins/host/hostPermissions.ts): the built engine host runs under Node's
 * permission model. Real engine-host processes (the built `out/node/engine-host.mjs`: run `npm run build` first) and
 * real fixture plugins: a plugin that reads a file outside its folder (a fake ~/.ssh/id_rsa under a temp HOME of the
 * app), writes outside its state dir or starts a process is refused with the path named, and the replay shows an
 * `access-denied` finding on its lane; a granted child process runs; the bundled plugins, an engine that reads the
 * lane transcripts (its subagent lane's too) and an engine that keeps a SQLite database in its state dir (node:sqlite,
 * on a Node ≥ 22.5) replay exactly as they do unconfined; an ESM engine's default imports of builtins and CommonJS
 * work confined on Node 20, where the host loads ESM through jiti.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContextRuntime } from '../../../src/engines';
import { allowExecuteConsent, createConsentStore } from '../../../src/plugins/consent';
import type { EngineHostTransportFactory } from '../../../src/plugins/host/transport';
import { forkTransport } from '../../../src/plugins/host/transport';
import { loadPlugin } from '../../../src/plugins/loadPlugin';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';
import { laneConfigFromSpec, replaySession, type Recording } from '../../../src/replay';
import { openReplaySession } from '../../../src/replay/session/resolveSessionInput';
import { generateSession, writeGeneratedSessions, type LoadedSession } from '../../../src/transcripts';

const ROOT = resolve(import.meta.dirname, '../../..');
const BUILT_HOST = join(ROOT, 'out', 'node', 'engine-host.mjs');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'plugins');
const BUNDLED = join(ROOT, 'resources', 'plugins');
/** the lanes' window: the generated session's spawn turn fits it on 2026.7.35, so its subagent lanes run */
const WINDOW = 64_000;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

const temps: string[] = [];
function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The app's HOME for these tests: a fake ~/.ssh/id_rsa the plugins must not read. */
let appHome: string;
let secretFile: string;
let session: LoadedSession;

beforeAll(async () => {
  if (!existsSync(BUILT_HOST))
    throw new Error(`${BUILT_HOST} is missing: run \`npm run build\` before this test (it runs the built engine host)`);
  appHome = tempDir('cs-sandbox-apphome-');
  mkdirSync(join(appHome, '.ssh'), { mode: 0o700 });
  secretFile = join(appHome, '.ssh', 'id_rsa');
  writeFileSync(secretFile, '-----BEGIN OPENSSH PRIVATE KEY-----\nFAKE-KEY-MATERIAL\n', { mode: 0o600 });
  const stateDir = tempDir('cs-sandbox-state-');
  const written = await writeGeneratedSessions(
    generateSession({ turns: 6, seed: 'host-sandbox', subagents: 1, contextWindow: 32_000 }),
    stateDir,
  );
  ({ loaded: session } = await openReplaySession(written.files[0]!));
}, 60_000);

/** A lane spec for a plugin folder with its config as percent-encoded JSON5. */
function spec(folder: string, config?: Record<string, unknown>, options = ''): string {
  const query = [
    ...(config ? [`configJson5=${encodeURIComponent(JSON.stringify(config))}`] : []),
    ...(options ? [options] : []),
  ];
  return `plugin:${folder}${query.length ? `?${query.join('&')}` : ''}`;
}

function replay(
  lanes: string[],
  plugins: { nodePath?: string; sandbox?: false; transport?: EngineHostTransportFactory } = {},
  extra: { workDir?: string } = {},
): Promise<Recording> {
  return replaySession({
    session,
    lanes: lanes.map((s) => laneConfigFromSpec(s, { contextWindow: WINDOW })),
    plugins: { allowExecute: true, hostEntry: { entry: BUILT_HOST }, ...plugins },
    openclawVersion: '2026.7.35',
    manualCompactions: [{ turn: 3 }],
    ...(extra.workDir ? { workDir: extra.workDir, keepWorkDir: true } : {}),
  });
}

const rootLane = (recording: Recording, prefix: string) =>
  recording.lanes.find((l) => l.id.startsWith(prefix) && !l.id.includes('/'))!;
const findingsOf = (recording: Recording, lane: string, code: string) =>
  recording.findings.filter((f) => f.lane === lane && f.code === code);
const quarantineReasons = (recording: Recording, lane: string) =>
  (recording.turns[lane] ?? []).flatMap((t) => t.events.flatMap((e) => (e.type === 'quarantine' ? [e.reason] : [])));

describe('an engine host under the permission model refuses what is not the plugin’s', () => {
  it('reading a file outside the plugin folder (~/.ssh/id_rsa of the app): refused naming the path, an access-denied finding on the lane', async () => {
    const recording = await replay(['legacy', spec(join(FIXTURES, 'sandbox-read-secret'), { secretFile })]);
    const lane = rootLane(recording, 'sandbox-read-secret').id;
    expect(rootLane(recording, 'sandbox-read-secret').error).toBeUndefined();
    const denied = findingsOf(recording, lane, 'access-denied');
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ severity: 'error', turn: 0 });
    expect(denied[0]!.message).toContain(`read ${secretFile} (FileSystemRead, during engine.assemble)`);
    // the error the plugin's call failed with names the path too: it is the quarantine reason
    expect(quarantineReasons(recording, lane)).toEqual([expect.stringContaining(`reading ${secretFile} was refused`)]);
    expect(JSON.stringify(recording)).not.toContain('FAKE-KEY-MATERIAL');
    expect(findingsOf(recording, lane, 'host-unconfined')).toEqual([]);
  }, 120_000);

  it('writing outside its state dir: the state dir write lands, the outside one is refused naming the path', async () => {
    const outsideFile = join(appHome, 'written-by-plugin.txt');
    const workDir = tempDir('cs-sandbox-work-');
    const recording = await replay([spec(join(FIXTURES, 'sandbox-write-outside'), { outsideFile })], {}, { workDir });
    const lane = rootLane(recording, 'sandbox-write-outside').id;
    expect(existsSync(outsideFile)).toBe(false);
    const notes = join(workDir, lane, 'plugin', 'home', '.openclaw', 'notes.txt');
    expect(readFileSync(notes, 'utf8')).toMatch(/^\d+\n$/); // written (temp file, fsync, rename) before the refused write
    const denied = findingsOf(recording, lane, 'access-denied');
    expect(denied.map((f) => [f.turn, f.message.slice(0, f.message.indexOf(':'))])).toEqual([
      [
        0,
        `The engine host refused the plugin's attempt to write ${outsideFile} (FileSystemWrite, during engine.assemble)`,
      ],
    ]);
    expect(quarantineReasons(recording, lane)).toEqual([expect.stringContaining(`writing ${outsideFile} was refused`)]);
  }, 120_000);

  it('starting a process: refused without a grant; with allow=child-process (and --allow-execute) it runs and the lane says it is not confined', async () => {
    const plugin = join(FIXTURES, 'sandbox-spawn');
    const refused = await replay([spec(plugin)]);
    const lane = rootLane(refused, 'sandbox-spawn').id;
    expect(findingsOf(refused, lane, 'access-denied').map((f) => [f.turn, f.message])).toEqual([
      [
        0,
        expect.stringMatching(
          /^The engine host refused the plugin's attempt to start a process.* \(ChildProcess, during engine\.assemble\)/,
        ),
      ],
    ]);
    expect(quarantineReasons(refused, lane)).toEqual([expect.stringContaining('starting a process')]);

    const granted = await replay([spec(plugin, undefined, 'allow=child-process')]);
    const grantedLane = rootLane(granted, 'sandbox-spawn').id;
    expect(granted.turns[grantedLane]!.map((t) => t.systemPromptAddition)).toEqual(
      granted.turns[grantedLane]!.map(() => 'child ran'),
    );
    expect(findingsOf(granted, grantedLane, 'access-denied')).toEqual([]);
    expect(findingsOf(granted, grantedLane, 'host-unconfined').map((f) => f.message)).toEqual([
      expect.stringContaining('but child processes are granted to the plugin'),
    ]);
  }, 120_000);

  it('a grant comes from the consent: remembered with it, or the plugin does not run when the lane asks for more', async () => {
    const plugin = readPluginPackage(join(FIXTURES, 'sandbox-spawn'), 'linked');
    const store = createConsentStore(join(tempDir('cs-sandbox-consent-'), 'plugin-consent.json'));
    store.grant(plugin);
    const runtime = createContextRuntime({ logger: quiet });
    const base = { runtime, consent: store, hostEntry: { entry: BUILT_HOST }, logger: quiet };

    const asked = await loadPlugin(plugin, { ...base, grants: { childProcess: true } });
    expect(asked.status).toBe('not-executed');
    expect(asked.statusMessage).toContain('asks for child processes (allow=child-process), which the consent for');
    expect(asked.host).toBeUndefined();

    store.grant(plugin, undefined, { childProcess: true });
    const remembered = await loadPlugin(plugin, base);
    try {
      expect(remembered.status).toBe('running');
      expect(remembered.sandbox).toMatchObject({ confined: true, grants: { childProcess: true } });
      const engine = await runtime.resolveContextEngine({ plugins: { slots: { contextEngine: 'sandbox-spawn' } } });
      const result = await engine.assemble({ sessionId: 's', messages: [], tokenBudget: 1000 } as never);
      expect(result.systemPromptAddition).toBe('child ran');
    } finally {
      await remembered.close();
    }
  }, 60_000);

  it('a transport that cannot apply the model (Electron’s utility process) runs the host unconfined and the lane says why', async () => {
    const reason = 'it runs in a test transport that drops the flags';
    const dropping: EngineHostTransportFactory = (specOf) => {
      const { permissionArgv: _dropped, ...rest } = specOf;
      return Object.assign(forkTransport(rest), { unconfinedReason: reason });
    };
    const secret = await replay([spec(join(FIXTURES, 'sandbox-read-secret'), { secretFile })], { transport: dropping });
    const lane = rootLane(secret, 'sandbox-read-secret').id;
    expect(findingsOf(secret, lane, 'host-unconfined').map((f) => f.message)).toEqual([
      `This lane's engine host runs without Node's permission model: ${reason}. The plugin can read and write what your user account can, and start processes.`,
    ]);
    expect(findingsOf(secret, lane, 'access-denied')).toEqual([]);
  }, 120_000);
});

/** A lane's turns without timings and `seq` (events are numbered across all lanes of a recording). */
const comparable = (recording: Recording, lane: string) =>
  JSON.parse(
    JSON.stringify(recording.turns[lane], (key, value: unknown) =>
      ['startedAtMs', 'durationMs', 'wallMs', 'seq'].includes(key) ? 0 : value,
    ),
  ) as unknown;

function expectSameReplay(confined: Recording, unconfined: Recording): void {
  expect(confined.lanes.map((l) => [l.id, l.error])).toEqual(unconfined.lanes.map((l) => [l.id, l.error]));
  for (const lane of confined.lanes) expect(comparable(confined, lane.id)).toEqual(comparable(unconfined, lane.id));
  const ignored = new Set(['host-unconfined']);
  const findings = (r: Recording) => r.findings.filter((f) => !ignored.has(f.code));
  expect(findings(confined)).toEqual(findings(unconfined));
  expect(confined.findings.filter((f) => f.code === 'access-denied' || f.code === 'host-unconfined')).toEqual([]);
  expect(unconfined.findings.filter((f) => f.code === 'host-unconfined')).toHaveLength(
    unconfined.lanes.filter((l) => l.source === 'plugin' && !l.parentLane).length,
  );
}

describe('what engines do within their rights replays unchanged', () => {
  it('the bundled plugins and an engine reading the lane transcripts (its subagent lane’s too)', async () => {
    const lanes = [
      `plugin:${join(BUNDLED, 'recent-window')}`,
      `plugin:${join(BUNDLED, 'summary-tree')}`,
      `plugin:${join(BUNDLED, 'faulty-engines')}?engine=faulty-assemble-throws`,
      `plugin:${join(FIXTURES, 'transcript-reader')}`,
    ];
    const confined = await replay(lanes);
    const unconfined = await replay(lanes, { sandbox: false });
    expect(confined.lanes.filter((l) => l.parentLane).length).toBeGreaterThanOrEqual(lanes.length);
    expectSameReplay(confined, unconfined);
    const reader = rootLane(confined, 'transcript-reader').id;
    expect(confined.turns[reader]!.every((t) => t.systemPromptAddition?.startsWith('transcript-reader read:'))).toBe(
      true,
    );
  }, 240_000);

  it('an engine keeping a SQLite database (node:sqlite, WAL) in its state dir, on a Node ≥ 22.5', async () => {
    const nodePath = modernNode();
    const workDir = tempDir('cs-sandbox-sqlite-');
    const lane = `plugin:${join(FIXTURES, 'sqlite-state')}`;
    const confined = await replay([lane], { nodePath }, { workDir });
    const unconfined = await replay([lane], { nodePath, sandbox: false });
    expectSameReplay(confined, unconfined);
    const id = rootLane(confined, 'sqlite-state').id;
    const additions = confined.turns[id]!.map((t) => t.systemPromptAddition);
    expect(additions[0]).toBe('sqlite-state (wal): 0 turns, 0 messages stored');
    expect(additions.at(-1)).toMatch(/^sqlite-state \(wal\): [1-9]\d* turns, \d+ messages stored$/);
    expect(readdirSync(join(workDir, id, 'plugin', 'home', '.openclaw', 'sqlite-state'))).toContain('engine.sqlite');
  }, 240_000);

  it('an ESM engine with default imports of node:fs, node:path and a CommonJS module, on this Node (20: through jiti)', async () => {
    const workDir = tempDir('cs-sandbox-esm-');
    const confined = await replay([`plugin:${join(FIXTURES, 'esm-default-imports')}`], {}, { workDir });
    const id = rootLane(confined, 'esm-default-imports').id;
    expect(quarantineReasons(confined, id)).toEqual([]);
    const additions = confined.turns[id]!.map((t) => t.systemPromptAddition);
    expect(additions[0]).toBe('esm-default-imports: 0 messages');
    expect(additions.at(-1)).toMatch(/^esm-default-imports: [1-9]\d* messages$/);
    const note = join(workDir, id, 'plugin', 'home', '.openclaw', 'esm-default-imports', 'last-count.txt');
    expect(readFileSync(note, 'utf8')).toMatch(/^[1-9]\d*\n$/);
  }, 120_000);
});

describe('the flag per Node version', () => {
  it('Node 20 runs the host with --experimental-permission, Node 22+ with --permission; both report the model on', async () => {
    const nodes = [process.execPath, modernNode()];
    for (const nodePath of nodes) {
      const runtime = createContextRuntime({ logger: quiet });
      const loaded = await loadPlugin(readPluginPackage(join(BUNDLED, 'recent-window'), 'linked'), {
        runtime,
        consent: allowExecuteConsent(),
        hostEntry: { entry: BUILT_HOST },
        nodePath,
        logger: quiet,
      });
      try {
        expect(loaded.status).toBe('running');
        expect(loaded.sandbox?.confined).toBe(true);
        const major = Number(loaded.host!.node!.slice(1).split('.')[0]);
        const args = readFileSync(`/proc/${loaded.host!.pid}/cmdline`, 'utf8').split('\0');
        expect(args).toContain(major >= 22 ? '--permission' : '--experimental-permission');
        expect(args).not.toContain('--allow-child-process');
        expect(args).not.toContain('--allow-worker');
        expect(args.filter((a) => a.startsWith('--allow-fs-write='))).toEqual(
          loaded.sandbox!.write.map((p) => `--allow-fs-write=${p}`),
        );
        // no stderr noise from the model (Node 20's experimental warning is silenced)
        expect(loaded.logs.filter((l) => l.level === 'stderr')).toEqual([]);
      } finally {
        await loaded.close();
      }
    }
  }, 120_000);
});

/**
 * A Node ≥ 22.5 for node:sqlite: CONTEXTSCOPE_TEST_MODERN_NODE, else one cached by the OpenClaw differential tests,
 * else the registry's `node@24` installed once into the cache folder.
 */
function modernNode(): string {
  const ok = (path: string) => {
    const out = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    const [major, minor] = (out.stdout ?? '').trim().split('.').map(Number);
    return out.status === 0 && (major! > 22 || (major === 22 && minor! >= 5));
  };
  const cache =
    process.env.CONTEXTSCOPE_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'contextscope');
  const candidates = [process.env.CONTEXTSCOPE_TEST_MODERN_NODE ?? ''];
  const openclaw = join(cache, 'openclaw');
  if (existsSync(openclaw))
    for (const version of readdirSync(openclaw).sort().reverse())
      candidates.push(join(openclaw, version, 'node_modules', '.bin', 'node'));
  const own = join(cache, 'test-node-24');
  candidates.push(join(own, 'node_modules', '.bin', 'node'));
  for (const candidate of candidates) if (candidate && existsSync(candidate) && ok(candidate)) return candidate;
  mkdirSync(own, { recursive: true });
  writeFileSync(join(own, 'package.json'), '{"name":"contextscope-test-node-24","private":true}\n');
  const installed = spawnSync('npm', ['i', '--no-audit', '--no-fund', 'node@24'], { cwd: own, encoding: 'utf8' });
  const node = join(own, 'node_modules', '.bin', 'node');
  if (installed.status !== 0 || !ok(node))
    throw new Error(`no Node ≥ 22.5 for node:sqlite (npm i node@24 in ${own}: ${installed.stderr?.slice(-500)})`);
  return node;
}
