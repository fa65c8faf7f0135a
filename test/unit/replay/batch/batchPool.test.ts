import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBatchPool, type BatchJob } from '../../../../src/replay/batch';

const CRASHING = join(import.meta.dirname, 'crashingWorker.mjs');

function jobs(ids: string[]): BatchJob[] {
  return ids.map((sessionId, index) => ({
    index,
    sessionId,
    agentId: 'main',
    storage: 'jsonl',
    file: `/s/${sessionId}.jsonl`,
  }));
}

describe('runBatchPool', () => {
  it('a worker that dies fails only its own job; a new worker takes the rest', async () => {
    const started: string[] = [];
    const rows = await runBatchPool(
      jobs(['a', 'crash', 'b', 'c', 'd']),
      { stateDir: '/s', lanes: ['legacy'] },
      {
        workers: 2,
        workerEntry: CRASHING,
        onStart: (job) => started.push(job.sessionId),
      },
    );
    expect(rows.map((r) => r.status)).toEqual(['done', 'failed', 'done', 'done', 'done']);
    expect(rows[1]!.error).toBe('The batch worker stopped while replaying this session: it exited with code 7');
    expect(rows.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(started.sort()).toEqual(['a', 'b', 'c', 'crash', 'd']);
  });

  it('a worker that cannot start fails the queue with why instead of restarting forever', async () => {
    const rows = await runBatchPool(
      jobs(['a', 'b', 'c']),
      { stateDir: '/s', lanes: ['legacy'] },
      {
        workers: 1,
        workerEntry: join(import.meta.dirname, 'no-such-worker.mjs'),
      },
    );
    expect(rows.every((r) => r.status === 'failed')).toBe(true);
    expect(rows[0]!.error).toMatch(/The batch worker could not start: .*no-such-worker\.mjs/);
  });

  it('has nothing to do for no jobs', async () => {
    expect(await runBatchPool([], { stateDir: '/s', lanes: [] })).toEqual([]);
  });
});
