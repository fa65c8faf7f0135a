/**
 * Where a benchmark's CPU time went, from Linux's /proc: this process's main thread, its other threads (V8's
 * compiler and GC helpers, libuv), threads that ended in between (a replay's tokenizer worker), and child
 * processes that exited and were reaped in between (engine hosts). Wall time alone hides whether a run is
 * waiting or saturating the cores; this tells which. Undefined where /proc is not readable.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export interface CpuSnapshot {
  /** per live thread id: user + system ms */
  threads: Map<string, number>;
  /** this process, threads that ended included */
  processMs: number;
  /** reaped child processes */
  childrenMs: number;
}

export interface CpuBreakdown {
  mainThreadMs: number;
  otherThreadsMs: number;
  endedThreadsMs: number;
  childProcessesMs: number;
  totalMs: number;
  cores: number;
}

let tickMs: number | undefined;
function msPerTick(): number {
  if (tickMs === undefined) {
    const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    const hz = Number(out.stdout?.trim());
    tickMs = Number.isFinite(hz) && hz > 0 ? 1000 / hz : 10;
  }
  return tickMs;
}

/** utime, stime, cutime, cstime of a /proc stat line (fields after the parenthesised command name) */
function statTimes(path: string): [number, number, number, number] {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [Number(fields[11]), Number(fields[12]), Number(fields[13]), Number(fields[14])];
}

export function cpuSnapshot(): CpuSnapshot | undefined {
  try {
    const tick = msPerTick();
    const threads = new Map<string, number>();
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        const [user, system] = statTimes(`/proc/self/task/${tid}/stat`);
        threads.set(tid, (user + system) * tick);
      } catch {
        // the thread ended while listing
      }
    }
    const [user, system, childUser, childSystem] = statTimes('/proc/self/stat');
    return { threads, processMs: (user + system) * tick, childrenMs: (childUser + childSystem) * tick };
  } catch {
    return undefined;
  }
}

export function cpuBreakdown(before: CpuSnapshot, after: CpuSnapshot): CpuBreakdown {
  const mainTid = String(process.pid);
  const mainThreadMs = (after.threads.get(mainTid) ?? 0) - (before.threads.get(mainTid) ?? 0);
  let liveThreadsMs = 0;
  for (const [tid, ms] of after.threads) if (tid !== mainTid) liveThreadsMs += ms - (before.threads.get(tid) ?? 0);
  // what is left of the process's time: threads that ended (their time after `before` is in both totals)
  const processDelta = after.processMs - before.processMs;
  const endedThreadsMs = Math.max(0, processDelta - mainThreadMs - liveThreadsMs);
  const childProcessesMs = after.childrenMs - before.childrenMs;
  return {
    mainThreadMs,
    otherThreadsMs: liveThreadsMs,
    endedThreadsMs,
    childProcessesMs,
    totalMs: processDelta + childProcessesMs,
    cores: availableParallelism(),
  };
}
