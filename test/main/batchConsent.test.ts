/**
 * "Replay all sessions" with a plugin lane the person did not approve: the main process confirms it for this batch
 * only (plugins.requestConsent purpose "run" → batch.start {consentNonce}), the batch's worker threads run it, and
 * nothing is remembered. Without a nonce the lane does not run; a used nonce is refused. Real handlers, real worker
 * pool, real engine hosts.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../main/handlers';
import { createBridgeDispatcher } from '../../src/bridge';
import type { Recording } from '../../src/replay';
import { writeBatchStateDir } from '../unit/replay/batch/batchStateDir';
import { tempDir } from '../unit/replay/sessionBuilder';

const PLUGIN = resolve('resources/plugins/recent-window');

function dispatcher(consentFile: string) {
  return createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node', consentFile }), {
    validateResponses: true,
  });
}
type Dispatcher = ReturnType<typeof dispatcher>;

async function runOnceNonce(d: Dispatcher): Promise<string> {
  const offer = await d.call('plugins.requestConsent', { paths: [PLUGIN], purpose: 'run' });
  if (!offer.ok) throw new Error(offer.error.message);
  return (offer.result as { nonce: string }).nonce;
}

/** Runs a batch to its end and returns the plugin lane of its one session's Recording. */
async function pluginLaneOfBatch(d: Dispatcher, stateDir: string, consentNonce?: string) {
  const started = await d.call('batch.start', {
    stateDir,
    lanes: [`plugin:${PLUGIN}`],
    workers: 1,
    ...(consentNonce !== undefined ? { consentNonce } : {}),
  });
  if (!started.ok) throw new Error(started.error.message);
  const { batchId } = started.result as { batchId: string };
  for (;;) {
    const got = await d.call('batch.get', { batchId });
    if (!got.ok) throw new Error(got.error.message);
    if ((got.result as { status: string }).status !== 'running') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const opened = await d.call('batch.recording', { batchId, index: 0 });
  if (!opened.ok) throw new Error(opened.error.message);
  // a small session's recording comes whole (a long one would be `paged`)
  const recording = (opened.result as { recording: Recording }).recording;
  const lane = recording.lanes.find((l) => l.source === 'plugin')!;
  return { lane, engines: new Set(recording.turns[lane.id]!.map((t) => t.engine.engineId)) };
}

describe('batch.start runs an unapproved plugin once when the main process confirmed it', () => {
  it('without a nonce the lane falls back; with one it runs; the nonce is used up and nothing is remembered', async () => {
    const { stateDir } = await writeBatchStateDir({ jsonl: 1, sqlite: 0, turns: 4 });
    const consentFile = join(tempDir(), 'plugin-consent.json');
    const d = dispatcher(consentFile);

    const refused = await pluginLaneOfBatch(d, stateDir);
    expect(refused.lane.error).toMatch(/not executed: no consent for .*recent-window/);
    expect([...refused.engines]).toEqual(['legacy']);

    const nonce = await runOnceNonce(d);
    const confirmed = await pluginLaneOfBatch(d, stateDir, nonce);
    expect(confirmed.lane.error).toBeUndefined();
    expect([...confirmed.engines]).toEqual(['recent-window']);

    expect(await d.call('batch.start', { stateDir, lanes: [`plugin:${PLUGIN}`], consentNonce: nonce })).toMatchObject({
      ok: false,
      error: { code: 'consent_required', path: '/consentNonce' },
    });
    // run once: the next batch without a nonce does not run it
    expect((await pluginLaneOfBatch(d, stateDir)).lane.error).toMatch(/not executed: no consent/);
  }, 120_000);
});
