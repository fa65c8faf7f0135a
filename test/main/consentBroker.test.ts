/**
 * Consent is granted by the main process: a request's own flag runs nothing, a nonce from plugins.requestConsent
 * works once, for its purpose, for the content that was confirmed, and the Electron shell's dialog can decline.
 * Real plugin folders, the real bridge dispatcher and handler table, real engine hosts for the runs.
 */
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers } from '../../main/handlers';
import type { ConsentPrompt } from '../../src/app';
import { createBridgeDispatcher, type BridgeOutcome } from '../../src/bridge';
import { defaultDemoSessionsDir, type Recording } from '../../src/replay';

const FIXTURES = join(import.meta.dirname, '../fixtures/plugins');
const SHORT = join(
  defaultDemoSessionsDir()!,
  'agents',
  'main',
  'sessions',
  'db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl',
);
const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cs-broker-')));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function plugin(): string {
  const dir = join(tempDir(), 'recent-window');
  cpSync(resolve('resources/plugins/recent-window'), dir, { recursive: true });
  return dir;
}

function setup(confirm?: (prompt: ConsentPrompt) => Promise<boolean>) {
  const consentFile = join(tempDir(), 'plugin-consent.json');
  const log: string[] = [];
  const dispatcher = createBridgeDispatcher(
    createHandlers({
      shell: 'browser',
      runtimeHost: 'node',
      consentFile,
      log: (line) => log.push(line),
      ...(confirm ? { confirmConsent: confirm } : {}),
    }),
    { validateResponses: true },
  );
  return { dispatcher, consentFile, log };
}

function ok<T>(outcome: BridgeOutcome): T {
  if (!outcome.ok) throw new Error(`bridge call failed: ${JSON.stringify(outcome.error)}`);
  return outcome.result as T;
}

async function nonceFor(d: ReturnType<typeof setup>['dispatcher'], path: string, purpose: 'approve' | 'run') {
  return ok<{ nonce: string }>(await d.call('plugins.requestConsent', { paths: [path], purpose })).nonce;
}

async function replayLane(d: ReturnType<typeof setup>['dispatcher'], path: string, consentNonce?: string) {
  const started = await d.call('replay.start', {
    sessionPath: SHORT,
    lanes: [`plugin:${path}`],
    window: 200000,
    ...(consentNonce !== undefined ? { consentNonce } : {}),
  });
  if (!started.ok) return started;
  const { replayId } = started.result as { replayId: string };
  for (;;) {
    const snapshot = ok<{ status: string; recording: Recording }>(await d.call('replay.get', { replayId }));
    if (snapshot.status !== 'running') return { ok: true as const, lane: snapshot.recording.lanes[0]! };
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('consent comes from the main process', () => {
  it('refuses allowExecute in replay.start and doctor.run: a request cannot grant itself consent', async () => {
    const { dispatcher } = setup();
    const path = plugin();
    const replay = await dispatcher.call('replay.start', {
      sessionPath: SHORT,
      lanes: [`plugin:${path}`],
      window: 200000,
      allowExecute: true,
    });
    expect(replay).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    const doctor = await dispatcher.call('doctor.run', { stateDir: tempDir(), allowExecute: true });
    expect(doctor).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
  });

  it('refuses a made-up nonce', async () => {
    const { dispatcher } = setup();
    const outcome = await replayLane(dispatcher, plugin(), 'f'.repeat(48));
    expect(outcome).toMatchObject({ ok: false, error: { code: 'consent_required', path: '/consentNonce' } });
  });

  it('a run nonce runs the plugin once, logs what ran, and is used up', async () => {
    const { dispatcher, consentFile, log } = setup();
    const path = plugin();
    const nonce = await nonceFor(dispatcher, path, 'run');
    expect(log).toEqual([
      expect.stringMatching(
        new RegExp(
          `^consent \\(run once\\): plugin "recent-window" at ${path}, content hash [0-9a-f]{12}, \\d+ files$`,
        ),
      ),
    ]);
    const first = await replayLane(dispatcher, path, nonce);
    expect(first).toMatchObject({ ok: true, lane: { pluginId: 'recent-window' } });
    expect((first as { lane: { error?: string } }).lane.error).toBeUndefined();
    expect(existsSync(consentFile)).toBe(false); // run once remembers nothing
    const again = await replayLane(dispatcher, path, nonce);
    expect(again).toMatchObject({ ok: false, error: { code: 'consent_required' } });
  }, 60_000);

  it('a run nonce does not approve, and an approve nonce is used up by approving', async () => {
    const { dispatcher, consentFile } = setup();
    const path = plugin();
    const run = await nonceFor(dispatcher, path, 'run');
    expect(await dispatcher.call('plugins.approve', { nonce: run })).toMatchObject({
      ok: false,
      error: { code: 'consent_required', path: '/nonce' },
    });
    const approve = await nonceFor(dispatcher, path, 'approve');
    const approved = ok<{ plugins: { consent: { state: string } }[] }>(
      await dispatcher.call('plugins.approve', { nonce: approve }),
    );
    expect(approved.plugins.map((p) => p.consent.state)).toEqual(['granted']);
    expect(Object.keys(JSON.parse(readFileSync(consentFile, 'utf8')).grants)).toEqual([path]);
    expect(await dispatcher.call('plugins.approve', { nonce: approve })).toMatchObject({
      ok: false,
      error: { code: 'consent_required' },
    });
  });

  it('binds the nonce to the content confirmed: a plugin edited afterwards is neither approved nor run', async () => {
    const { dispatcher, consentFile } = setup();
    const path = plugin();
    const approve = await nonceFor(dispatcher, path, 'approve');
    const run = await nonceFor(dispatcher, path, 'run');
    appendFileSync(join(path, 'index.js'), '\n// edited after the confirmation\n');
    expect(await dispatcher.call('plugins.approve', { nonce: approve })).toMatchObject({
      ok: false,
      error: { code: 'consent_stale', message: expect.stringContaining('nothing was approved') },
    });
    expect(existsSync(consentFile)).toBe(false);
    const outcome = await replayLane(dispatcher, path, run);
    expect((outcome as { lane: { error?: string } }).lane.error).toContain('changed since consent was confirmed');
  }, 60_000);

  it('doctor.run with a run nonce drives the confirmed plugin and no other', async () => {
    const { dispatcher } = setup();
    const stateDir = tempDir();
    const path = join(stateDir, 'extensions', 'loader-cjs');
    cpSync(join(FIXTURES, 'loader-cjs'), path, { recursive: true });
    const nonce = await nonceFor(dispatcher, path, 'run');
    const report = ok<{ executed: boolean; plugins: { id: string; status: string }[] }>(
      await dispatcher.call('doctor.run', { stateDir, consentNonce: nonce }),
    );
    expect(report.plugins.find((p) => p.id === 'loader-cjs')!.status).toBe('executed');
    expect(report.plugins.find((p) => p.id === 'recent-window')!.status).toBe('not-executed');
    expect(await dispatcher.call('doctor.run', { stateDir, consentNonce: nonce })).toMatchObject({
      ok: false,
      error: { code: 'consent_required' },
    });
  }, 60_000);

  it('the shell’s dialog decides: declined, no nonce is issued', async () => {
    const prompts: ConsentPrompt[] = [];
    const { dispatcher } = setup(async (prompt) => {
      prompts.push(prompt);
      return false;
    });
    const path = plugin();
    const outcome = await dispatcher.call('plugins.requestConsent', { paths: [path], purpose: 'approve' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'consent_declined' } });
    expect(prompts).toEqual([
      { purpose: 'approve', plugins: [expect.objectContaining({ pluginId: 'recent-window', realPath: path })] },
    ]);
  });
});
