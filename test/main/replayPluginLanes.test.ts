import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../main/handlers';
import { createBridgeDispatcher } from '../../src/bridge';
import { forkTransport, type EngineHostSpawnSpec, type EngineHostTransportFactory } from '../../src/plugins';
import { defaultDemoSessionsDir, type Recording } from '../../src/replay';
import { tempDir } from '../unit/replay/sessionBuilder';

const PLUGIN = resolve('resources/plugins/recent-window');
const SHORT = join(
  defaultDemoSessionsDir()!,
  'agents',
  'main',
  'sessions',
  'db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl',
);

/** The real fork transport, counting the engine hosts it starts (what the Electron shell's utilityProcess adapter stands in for). */
function countingTransport(): { factory: EngineHostTransportFactory; spawned: EngineHostSpawnSpec[] } {
  const spawned: EngineHostSpawnSpec[] = [];
  return {
    spawned,
    factory: (spec) => {
      spawned.push(spec);
      return forkTransport(spec);
    },
  };
}

function dispatcherWith(transport: EngineHostTransportFactory, consentFile: string) {
  return createBridgeDispatcher(
    createHandlers({ shell: 'electron', runtimeHost: 'electron-main', engineHostTransport: transport, consentFile }),
    {
      validateResponses: true,
    },
  );
}

async function askConsent(d: ReturnType<typeof dispatcherWith>, purpose: 'approve' | 'run'): Promise<string> {
  const offer = await d.call('plugins.requestConsent', { paths: [PLUGIN], purpose });
  if (!offer.ok) throw new Error(offer.error.message);
  return (offer.result as { nonce: string }).nonce;
}

async function replay(
  d: ReturnType<typeof dispatcherWith>,
  consentNonce?: string,
): Promise<{ status: string; error?: string; recording: Recording }> {
  const started = await d.call('replay.start', {
    sessionPath: SHORT,
    lanes: [`plugin:${PLUGIN}`],
    window: 200000,
    ...(consentNonce !== undefined ? { consentNonce } : {}),
  });
  if (!started.ok) throw new Error(started.error.message);
  const { replayId } = started.result as { replayId: string };
  for (;;) {
    const got = await d.call('replay.get', { replayId });
    if (!got.ok) throw new Error(got.error.message);
    const snapshot = got.result as { status: string; error?: string; recording: Recording };
    if (snapshot.status !== 'running') return snapshot;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('plugin lanes of replay.start use the shell’s engine-host transport and the app’s consent store', () => {
  it('with consent granted through plugins.approve, the lane runs the plugin in a host started by the injected transport', async () => {
    const consentFile = join(tempDir(), 'plugin-consent.json');
    const transport = countingTransport();
    const d = dispatcherWith(transport.factory, consentFile);
    const approved = await d.call('plugins.approve', { nonce: await askConsent(d, 'approve') });
    expect(approved.ok).toBe(true);

    const done = await replay(d);
    expect(done.status).toBe('done');
    const [lane] = done.recording.lanes;
    expect(lane).toMatchObject({ source: 'plugin', requestedEngineId: 'recent-window', pluginId: 'recent-window' });
    expect(lane!.error).toBeUndefined();
    expect(done.recording.turns[lane!.id]!.map((t) => t.engine.engineId)).toEqual(Array(12).fill('recent-window'));
    expect(transport.spawned).toHaveLength(1);
    expect(transport.spawned[0]!.entry).toMatch(/engine-?[hH]ost/);
  });

  it('a run-once nonce from plugins.requestConsent runs the plugin without a remembered consent', async () => {
    const transport = countingTransport();
    const d = dispatcherWith(transport.factory, join(tempDir(), 'plugin-consent.json'));
    const done = await replay(d, await askConsent(d, 'run'));
    expect(done.status).toBe('done');
    expect(done.recording.lanes[0]!.error).toBeUndefined();
    expect(transport.spawned).toHaveLength(1);
  });

  it('without consent nothing is started: the replay finishes and the lane says "not executed: no consent"', async () => {
    const transport = countingTransport();
    const done = await replay(dispatcherWith(transport.factory, join(tempDir(), 'plugin-consent.json')));
    expect(done.status).toBe('done');
    expect(transport.spawned).toHaveLength(0);
    const [lane] = done.recording.lanes;
    expect(lane!.error).toMatch(
      /^Plugin "recent-window" \(.*recent-window\): not executed: no consent for .*recent-window; run with --allow-execute or approve it in the app\. The lane ran on legacy instead\.$/,
    );
    expect(done.recording.turns[lane!.id]!.every((t) => t.engine.engineId === 'legacy')).toBe(true);
  });
});
