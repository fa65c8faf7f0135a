/** The batch.* handlers behind the real dispatcher: schemas both ways, and errors a client can act on. */
import { describe, expect, it } from 'vitest';
import { batchMethods, createDispatcherFor } from '../../../../src/bridge';
import { createBatchHandlers } from '../../../../main/batchHandlers';
import { writeBatchStateDir } from './batchStateDir';

describe('batch.* over the dispatcher', () => {
  it('answers with schema-valid rows and says why a row cannot be opened', async () => {
    const dir = await writeBatchStateDir({ jsonl: 0, sqlite: 0, broken: true });
    const bridge = createDispatcherFor(batchMethods, createBatchHandlers(), { validateResponses: true });
    const started = await bridge.call('batch.start', { stateDir: dir.stateDir, lanes: ['legacy'], workers: 1 });
    expect(started).toMatchObject({ ok: true, result: { total: 1, workers: 1 } });
    const { batchId } = (started as { result: { batchId: string } }).result;
    type Got = { ok: boolean; result: { status: string; rows: { status: string }[] } };
    let got = (await bridge.call('batch.get', { batchId })) as Got;
    while (got.ok && got.result.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 50)); // the pool's messages arrive as macrotasks
      got = (await bridge.call('batch.get', { batchId })) as Got;
    }
    expect(got.ok).toBe(true);
    expect(got.result.rows.map((r) => r.status)).toEqual(['failed']);
    expect(await bridge.call('batch.recording', { batchId, index: 0 })).toMatchObject({
      ok: false,
      error: {
        code: 'not_ready',
        path: '/index',
        message: expect.stringMatching(/broken-session has no recording \(failed: /),
      },
    });
    expect(await bridge.call('batch.recording', { batchId, index: 5 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await bridge.call('batch.get', { batchId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found', path: '/batchId' },
    });
    expect(await bridge.call('batch.start', { stateDir: dir.stateDir, lanes: ['plugin:'] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', path: '/lanes' },
    });
    // a bridge caller cannot ask for plugin code to run
    expect(
      await bridge.call('batch.start', { stateDir: dir.stateDir, lanes: ['legacy'], allowExecute: true }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
  });
});
