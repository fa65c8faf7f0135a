/**
 * Batches as a service for the shells (bridge `batch.*`): start one over a state dir in the background, read its
 * rows as sessions finish, open one session's Recording, cancel. Each batch writes its Recordings into a private
 * temporary folder (a bridge caller never names a file to write); the oldest finished batches are forgotten, and
 * their folders removed, once more than `maxBatches` are held.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Recording } from '../../contract/recording';
import { errorMessage } from '../../common/errorText';
import { importRecording } from '../recording/importRecording';
import { checkReplayRequest, type ReplayRequest } from '../plan/replayPlan';
import { batchTotals } from './batchTotals';
import { defaultWorkerCount, runBatchPool } from './batchPool';
import type { ConfirmedPlugin } from '../../plugins/consent';
import type { BatchRequest, BatchRow, BatchTotals } from './batchTypes';
import { planBatchLanes } from './planBatch';
import { pendingRow } from './runBatchJob';
import { planStateDir } from './runBatch';

export type BatchStatus = 'running' | 'done' | 'cancelled';

/** A batch the shell starts: the shared replay request over a state dir, and the plugins the main process confirmed. */
export interface StartBatchRequest extends ReplayRequest {
  stateDir: string;
  /** worker threads (default: one per core) */
  workers?: number;
  /** plugins the app's main process confirmed for this batch only (besides those in the consent file) */
  confirmed?: ConfirmedPlugin[];
}

export interface BatchSnapshot {
  batchId: string;
  status: BatchStatus;
  stateDir: string;
  workers: number;
  /** every planned session, in plan order: queued, running, done or failed */
  rows: BatchRow[];
  totals: BatchTotals;
  skipped: { subagents: number; archived: number };
  elapsedMs: number;
}

export class BatchNotFoundError extends Error {
  readonly code = 'not_found';
  constructor(batchId: string) {
    super(`No batch "${batchId}" (it never existed or was forgotten; only the latest batches are kept).`);
  }
}

interface BatchEntry {
  snapshot: Omit<BatchSnapshot, 'totals' | 'elapsedMs'>;
  dir: string;
  startedAt: number;
  endedAt?: number;
  controller: AbortController;
  finished: Promise<void>;
}

export interface BatchService {
  start(request: StartBatchRequest): Promise<{ batchId: string; total: number; workers: number }>;
  get(batchId: string): BatchSnapshot;
  wait(batchId: string): Promise<BatchSnapshot>;
  /** the Recording of the row at `index`, once that session is done */
  recording(batchId: string, index: number): Recording;
  cancel(batchId: string): boolean;
}

export interface BatchServiceOptions {
  maxBatches?: number;
  /** the consent file the app's Plugins view writes */
  consentFile?: string;
  /** the worker to start (tests; default: resolveBatchWorkerEntry()) */
  workerEntry?: string;
}

function batchRequestOf(request: StartBatchRequest, consentFile: string | undefined): BatchRequest {
  const { workers: _workers, confirmed, ...replay } = request;
  // anything a person can get wrong fails here, before the batch gets an id
  checkReplayRequest({ ...replay, lanes: planBatchLanes(replay.lanes).lanes });
  return {
    ...replay,
    plugins: {
      // a bridge caller cannot ask for plugin code to run: only folders approved in the consent file, or confirmed
      // by the main process for this batch, run
      allowExecute: false,
      ...(consentFile ? { consentFile } : {}),
      ...(confirmed?.length ? { confirmed } : {}),
    },
  };
}

/** Plans the state dir into a fresh folder and starts the pool; the entry's rows change as sessions finish. */
async function startEntry(request: StartBatchRequest, options: BatchServiceOptions): Promise<BatchEntry> {
  const batchRequest = batchRequestOf(request, options.consentFile);
  const dir = mkdtempSync(join(tmpdir(), 'contextscope-batch-'));
  let plan;
  try {
    plan = await planStateDir(request.stateDir, dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`Cannot list the sessions of ${request.stateDir}: ${errorMessage(error)}`, { cause: error });
  }
  const workers = Math.max(1, Math.min(request.workers ?? defaultWorkerCount(), plan.jobs.length || 1));
  const controller = new AbortController();
  const rows = plan.jobs.map((job) => pendingRow(job));
  const entry: BatchEntry = {
    snapshot: {
      batchId: randomUUID(),
      status: 'running',
      stateDir: plan.stateDir,
      workers,
      rows,
      skipped: plan.skipped,
    },
    dir,
    startedAt: performance.now(),
    controller,
    finished: Promise.resolve(),
  };
  entry.finished = runBatchPool(plan.jobs, batchRequest, {
    workers,
    signal: controller.signal,
    ...(options.workerEntry ? { workerEntry: options.workerEntry } : {}),
    onStart: (job) => (rows[job.index] = pendingRow(job, 'running')),
    onRow: (row) => (rows[row.index] = row),
  }).then(() => {
    entry.endedAt = performance.now();
    entry.snapshot.status = controller.signal.aborted ? 'cancelled' : 'done';
  });
  return entry;
}

export function createBatchService(options: BatchServiceOptions = {}): BatchService {
  const maxBatches = options.maxBatches ?? 4;
  const batches = new Map<string, BatchEntry>();
  const entryOf = (batchId: string) => {
    const found = batches.get(batchId);
    if (!found) throw new BatchNotFoundError(batchId);
    return found;
  };
  const forgetOld = () => {
    for (const [id, b] of batches) {
      if (batches.size <= maxBatches) break;
      if (b.snapshot.status === 'running') continue;
      rmSync(b.dir, { recursive: true, force: true });
      batches.delete(id);
    }
  };
  const snapshotOf = (b: BatchEntry): BatchSnapshot => ({
    ...b.snapshot,
    rows: [...b.snapshot.rows],
    totals: batchTotals(b.snapshot.rows),
    elapsedMs: (b.endedAt ?? performance.now()) - b.startedAt,
  });

  return {
    async start(request) {
      const entry = await startEntry(request, options);
      batches.set(entry.snapshot.batchId, entry);
      forgetOld();
      return { batchId: entry.snapshot.batchId, total: entry.snapshot.rows.length, workers: entry.snapshot.workers };
    },
    get: (batchId) => snapshotOf(entryOf(batchId)),
    async wait(batchId) {
      await entryOf(batchId).finished;
      return snapshotOf(entryOf(batchId));
    },
    recording(batchId, index) {
      const row = entryOf(batchId).snapshot.rows[index];
      if (!row) throw new BatchNotFoundError(`${batchId}#${index}`);
      if (row.status !== 'done' || !row.recordingFile) {
        throw new Error(
          `Session ${row.key ?? row.sessionId} has no recording${row.status === 'failed' ? `: ${row.error ?? 'it failed'}` : ` yet (it is ${row.status})`}.`,
        );
      }
      return importRecording(readFileSync(row.recordingFile, 'utf8'), row.recordingFile);
    },
    cancel(batchId) {
      const b = entryOf(batchId);
      if (b.snapshot.status !== 'running') return false;
      b.controller.abort();
      return true;
    },
  };
}
