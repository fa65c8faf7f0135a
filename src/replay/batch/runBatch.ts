/** A whole batch: list the state dir's sessions, plan them, replay them on the pool, total the rows. */
import { mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { listSessions } from '../listSessions';
import { batchTotals } from './batchTotals';
import { defaultWorkerCount, runBatchPool, type BatchPoolOptions } from './batchPool';
import type { BatchRequest, BatchRow, BatchTotals } from './batchTypes';
import { planBatch, type BatchPlan } from './planBatch';

export interface BatchResult {
  plan: BatchPlan & { stateDir: string };
  rows: BatchRow[];
  totals: BatchTotals;
  elapsedMs: number;
  workers: number;
}

/** The plan of a state dir: its sessions as the Sessions view lists them, made into jobs. */
export async function planStateDir(stateDir: string, outDir?: string): Promise<BatchPlan & { stateDir: string }> {
  const listed = await listSessions(resolve(stateDir));
  return {
    ...planBatch(listed.sessions, outDir ? { outDir: resolve(outDir) } : {}),
    stateDir: listed.stateDir,
  };
}

export async function runBatch(
  request: BatchRequest,
  options: BatchPoolOptions & { outDir?: string; onPlan?: (plan: BatchPlan) => void } = {},
): Promise<BatchResult> {
  const started = performance.now();
  const plan = await planStateDir(request.stateDir, options.outDir);
  if (options.outDir) mkdirSync(resolve(options.outDir), { recursive: true });
  options.onPlan?.(plan);
  const workers = Math.max(1, Math.min(options.workers ?? defaultWorkerCount(), plan.jobs.length || 1));
  const rows = await runBatchPool(plan.jobs, request, options);
  return { plan, rows, totals: batchTotals(rows), elapsedMs: performance.now() - started, workers };
}
