/**
 * The bounded worker pool of a batch: `workers` worker threads (default one per core, never more than the jobs),
 * each replaying one session at a time; a worker takes the next job as soon as it answers. A worker that dies
 * (a crash, an out-of-memory) turns its job into a failed row and is replaced while jobs remain. Cancelling
 * aborts the running jobs (their rows say so) and fails the queued ones without starting them.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../../common/errorText';
import type { FromWorker, ToWorker } from './batchProtocol';
import type { BatchJob, BatchRequest, BatchRow } from './batchTypes';
import { failedRow } from './runBatchJob';
import { resolveBatchWorkerEntry, type BatchWorkerEntry } from './workerEntry';

export interface BatchPoolOptions {
  /** worker threads (default: one per core) */
  workers?: number;
  /** the worker to start (default: resolveBatchWorkerEntry()) */
  workerEntry?: string;
  signal?: AbortSignal;
  /** a job was handed to a worker */
  onStart?: (job: BatchJob) => void;
  /** a job's row is final */
  onRow?: (row: BatchRow) => void;
}

export function defaultWorkerCount(): number {
  return Math.max(1, availableParallelism());
}

export const CANCELLED_BEFORE_START = 'Cancelled before it started.';

function startWorker(entry: BatchWorkerEntry): Worker {
  return 'file' in entry ? new Worker(entry.file) : new Worker(entry.eval, { eval: true });
}

/** Runs every job; resolves with one row per job, in job order. */
export function runBatchPool(
  jobs: readonly BatchJob[],
  request: BatchRequest,
  options: BatchPoolOptions = {},
): Promise<BatchRow[]> {
  const entry = resolveBatchWorkerEntry(options.workerEntry);
  const size = Math.max(1, Math.min(options.workers ?? defaultWorkerCount(), jobs.length));
  const rows: (BatchRow | undefined)[] = new Array(jobs.length);
  const queue = [...jobs];
  const live = new Map<Worker, BatchJob | null>();
  let finished = 0;
  let startFailures = 0;

  return new Promise((resolveAll) => {
    const settle = (row: BatchRow) => {
      if (rows[row.index]) return;
      rows[row.index] = row;
      finished++;
      options.onRow?.(row);
      if (finished === jobs.length) {
        for (const worker of live.keys()) void worker.terminate();
        live.clear();
        resolveAll(rows as BatchRow[]);
      }
    };
    const feed = (worker: Worker) => {
      const job = options.signal?.aborted ? undefined : queue.shift();
      live.set(worker, job ?? null);
      if (!job) return;
      options.onStart?.(job);
      const message: ToWorker = { type: 'job', job, request };
      worker.postMessage(message);
    };
    const spawn = () => {
      const worker = startWorker(entry);
      let ready = false;
      live.set(worker, null);
      worker.on('message', (message: FromWorker) => {
        ready = true;
        if (message.type === 'row') settle(message.row);
        feed(worker);
      });
      const lost = (why: string) => {
        const job = live.get(worker);
        if (!live.delete(worker)) return;
        if (job) settle(failedRow(job, `The batch worker stopped while replaying this session: ${why}`));
        // a worker that cannot even start would be replaced forever: after 3 in a row the queue fails with why
        if (!ready && ++startFailures >= 3) {
          for (const queued of queue.splice(0)) settle(failedRow(queued, `The batch worker could not start: ${why}`));
        }
        if (queue.length > 0 && !options.signal?.aborted) spawn();
      };
      worker.on('error', (error) => lost(errorMessage(error)));
      worker.on('exit', (code) => lost(`it exited with code ${code}`));
    };
    if (jobs.length === 0) {
      resolveAll([]);
      return;
    }
    options.signal?.addEventListener(
      'abort',
      () => {
        for (const job of queue.splice(0)) settle(failedRow(job, CANCELLED_BEFORE_START));
        const cancel: ToWorker = { type: 'cancel' };
        for (const worker of live.keys()) worker.postMessage(cancel);
      },
      { once: true },
    );
    for (let i = 0; i < size; i++) spawn();
  });
}
