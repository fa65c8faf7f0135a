/**
 * Batch replay figures (not a pass/fail test): one engine over every session of a generated state dir
 * (`replay --state-dir <dir> --all`), on the worker pool of src/replay/batch running the built batch-worker.mjs
 * (as the CLI and the app do). It prints sessions per second on 1 and 2 workers and the linearity of the cost:
 * the time for 2N sessions over the time for N sessions, and the seconds each added session costs ((t(2N) − t(N)) / N),
 * each the median of --repeat runs with its range.
 * Target: linear, 2N/N ≤ 2.2.
 *
 * Run: npm run bench -- --only batch   (options: --sessions N (the 2N, default 16), --turns N (default 40),
 * --repeat N (default 3), --lane <spec> (default plugin:recent-window; a legacy baseline is added))
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBatch, type BatchRequest } from '../src/replay/batch';
import { generateSession, writeGeneratedSessions } from '../src/transcripts';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1]! : fallback;
}
const SESSIONS = Math.max(2, Math.floor(Number(option('--sessions', '16')) / 2) * 2);
const TURNS = Number(option('--turns', '40'));
const REPEAT = Math.max(1, Number(option('--repeat', '3')));
const LANE = option('--lane', 'plugin:recent-window');
const WINDOW = 32_000;
const TARGET_LINEARITY = 2.2;

const BUILT_WORKER = join(import.meta.dirname, '..', 'out', 'node', 'batch-worker.mjs');
const WORKER = existsSync(BUILT_WORKER) ? BUILT_WORKER : undefined;

/** `count` sessions, a quarter of them in SQLite (another agent), the rest JSONL. */
async function writeStateDir(count: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'cs-bench-batch-'));
  const sqlite = Math.floor(count / 4);
  for (let i = 0; i < count; i++) {
    const inSqlite = i < sqlite;
    const set = generateSession({
      turns: TURNS,
      seed: `batch-${i}`,
      contextWindow: WINDOW,
      ...(inSqlite ? { agentId: 'ops', sessionKey: `agent:ops:s${i}` } : { sessionKey: `agent:main:s${i}` }),
    });
    await writeGeneratedSessions(set, dir, inSqlite ? { storage: 'sqlite' } : {});
  }
  return dir;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function range(values: number[], digits: number): string {
  const f = (v: number) => v.toFixed(digits);
  return `${f(median(values))} (${f(Math.min(...values))}–${f(Math.max(...values))})`;
}

async function timeBatch(stateDir: string, workers: number): Promise<number> {
  const outDir = mkdtempSync(join(tmpdir(), 'cs-bench-batch-out-'));
  const request: BatchRequest = {
    stateDir,
    lanes: [LANE],
    window: WINDOW,
    plugins: { allowExecute: true },
  };
  try {
    const result = await runBatch(request, { workers, outDir, ...(WORKER ? { workerEntry: WORKER } : {}) });
    const failed = result.rows.filter((r) => r.status !== 'done');
    if (failed.length > 0) throw new Error(`${failed.length} session(s) failed: ${failed[0]!.error}`);
    return result.elapsedMs;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const half = await writeStateDir(SESSIONS / 2);
const full = await writeStateDir(SESSIONS);
console.log(
  `batch replay: ${SESSIONS} sessions (N = ${SESSIONS / 2}; a quarter SQLite) × ${TURNS} turns, lane ${LANE}${LANE === 'legacy' ? ' (its own baseline)' : ' + legacy baseline'}, window ${WINDOW}, ${WORKER ? 'built batch-worker.mjs' : 'TypeScript source (no build)'}; ${REPEAT} run(s) each`,
);
const perWorkers: Record<number, { rate: number[]; ratio: number[]; marginal: number[] }> = {};
try {
  for (let run = 0; run < REPEAT; run++) {
    for (const workers of [1, 2]) {
      const nMs = await timeBatch(half, workers);
      const fullMs = await timeBatch(full, workers);
      const figures = (perWorkers[workers] ??= { rate: [], ratio: [], marginal: [] });
      figures.rate.push((SESSIONS / fullMs) * 1000);
      figures.ratio.push(fullMs / nMs);
      figures.marginal.push((fullMs - nMs) / (SESSIONS / 2) / 1000);
    }
  }
} finally {
  rmSync(half, { recursive: true, force: true });
  rmSync(full, { recursive: true, force: true });
}
// t(2N)/t(N) is below 2 when the fixed part (worker start, first-session warm-up) is a visible share of t(N)
console.log('workers  sessions/s (2N)      t(2N)/t(N)           s per added session   (median (range))');
for (const workers of [1, 2]) {
  const { rate, ratio, marginal } = perWorkers[workers]!;
  const ok = median(ratio) <= TARGET_LINEARITY ? 'ok' : 'over';
  console.log(
    `${String(workers).padEnd(9)}${range(rate, 2).padEnd(21)}${range(ratio, 2).padEnd(21)}${range(marginal, 2).padEnd(22)}target t(2N)/t(N) ≤ ${TARGET_LINEARITY}: ${ok}`,
  );
}
const speedUp = perWorkers[2]!.rate.map((r, i) => r / perWorkers[1]!.rate[i]!);
console.log(`2 workers vs 1: ${range(speedUp, 2)}× the sessions per second (2 cores, shared with other work)`);
