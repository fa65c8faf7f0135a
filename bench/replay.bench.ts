/**
 * Replay figures (not a pass/fail test). On a generated session of 1,000 turns (and one of 100 turns, same seed)
 * replayed through two lanes — legacy at a 32k window and the bundled summary-tree plugin — it prints wall time,
 * ms per turn, peak RSS of this process and of the engine host, the tokenizer cache hit rate, and the ratio to
 * the **limit**: the time to parse the JSONL and tokenize its unique text once, measured in the same run.
 * Targets: ≤ 2× the limit, ≤ 10 s, t(1000)/t(100) ≤ 12, peak RSS ≤ 700 MB.
 *
 * Run: npm run bench -- --only replay   (options: --turns N, --small N, --no-plugin, --window N, --plugin-in-process,
 * --repeat N, --host-entry <engine-host.mjs>). The cost ratios of the plugin lanes are replayLanes.bench.ts.
 *
 * `--repeat N` runs each size N times and reports medians with their ranges: on a shared VM single figures (the
 * limit included) can drift by half between consecutive runs.
 *
 * `--plugin-in-process` runs summary-tree in this process as an in-process engine (no engine host, no isolation):
 * not how the app runs plugins, but it measures what the process boundary costs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  exportRecordingJson,
  importRecording,
  replaySession,
  type Recording,
  type ReplayLaneConfig,
} from '../src/replay';
import { cpuBreakdown, cpuSnapshot, type CpuBreakdown } from './cpuTimes';
import { generateSession, writeGeneratedSessions } from '../src/transcripts';
import {
  arg,
  childPeakRssBytes,
  childPids,
  childrenExited,
  HOST_ENTRY,
  mb,
  measureLimit,
  median,
  summaryTreeInProcess,
} from './replayBenchSupport';

const TURNS = arg('--turns', 1000);
const SMALL = arg('--small', 100);
const WINDOW = arg('--window', 32000);
const WITH_PLUGIN = !process.argv.includes('--no-plugin');
const PLUGIN_IN_PROCESS = WITH_PLUGIN && process.argv.includes('--plugin-in-process');
const REPEAT = Math.max(1, Math.floor(arg('--repeat', 1)));

const TARGET = { limitRatio: 2, wallMs: 10_000, scaling: 12, rssMb: 700 };

interface Run {
  turns: number;
  messages: number;
  chars: number;
  limitMs: number;
  parseMs: number;
  tokenizeMs: number;
  wallMs: number;
  hitRate: number;
  /** characters of the limit's unique texts, and characters the replay's tokenizer ran on */
  limitChars: number;
  replayChars?: number;
  hostPeakRss?: number;
  cpu?: CpuBreakdown;
  /** per-lane summary (see laneLine) */
  lanes: string;
  /** kept for the last run only (the export/import figures); earlier runs drop theirs so memory figures stay honest */
  recording?: Recording;
}

async function runOnce(turns: number): Promise<Run> {
  const set = generateSession({ turns, seed: 'bench', subagents: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'cs-replay-bench-'));
  try {
    const written = await writeGeneratedSessions(set, dir);
    const file = written.files[0]!;

    const limit = await measureLimit(file);

    const lanes: ReplayLaneConfig[] = [
      { engine: { kind: 'legacy' }, contextWindow: WINDOW, label: `legacy@${WINDOW}` },
    ];
    if (PLUGIN_IN_PROCESS)
      lanes.push({
        engine: await summaryTreeInProcess(dir),
        contextWindow: WINDOW,
        label: 'summary-tree (in process)',
      });
    else if (WITH_PLUGIN)
      lanes.push({ engine: { kind: 'plugin', plugin: 'summary-tree' }, contextWindow: WINDOW, label: 'summary-tree' });

    globalThis.gc?.();
    let hostPeakRss: number | undefined;
    const childrenBefore = childPids() ?? [];
    const cpuBefore = cpuSnapshot();
    const t = performance.now();
    const recording = await replaySession({
      session: file,
      lanes,
      plugins: { allowExecute: true, ...(HOST_ENTRY ? { hostEntry: HOST_ENTRY } : {}) },
      onProgress: (p) => {
        if (!WITH_PLUGIN || PLUGIN_IN_PROCESS) return; // no engine host (other children, e.g. esbuild's service, are not hosts)
        if (p.turn === p.total - 1 || p.turn % 100 === 99)
          hostPeakRss = Math.max(hostPeakRss ?? 0, childPeakRssBytes() ?? 0) || hostPeakRss;
      },
    });
    const wallMs = performance.now() - t;
    await childrenExited(childrenBefore);
    const cpuAfter = cpuSnapshot();
    const { hits, misses } = recording.stats.tokenizer;
    return {
      turns,
      messages: limit.messages,
      chars: set.stats.chars,
      limitMs: limit.parseMs + limit.tokenizeMs,
      parseMs: limit.parseMs,
      tokenizeMs: limit.tokenizeMs,
      wallMs,
      hitRate: hits + misses > 0 ? hits / (hits + misses) : 0,
      limitChars: limit.chars,
      ...(recording.stats.tokenizer.charsTokenized !== undefined
        ? { replayChars: recording.stats.tokenizer.charsTokenized }
        : {}),
      ...(hostPeakRss ? { hostPeakRss } : {}),
      ...(cpuBefore && cpuAfter ? { cpu: cpuBreakdown(cpuBefore, cpuAfter) } : {}),
      lanes: laneLine(recording),
      recording,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function laneLine(recording: Recording): string {
  return recording.lanes
    .map((lane) => {
      const turns = recording.turns[lane.id] ?? [];
      const calls = turns.flatMap((t) => t.calls);
      const engineMs = calls.reduce((s, c) => s + c.durationMs, 0);
      const compactions = turns.flatMap((t) => t.events).filter((e) => e.type === 'compaction' && e.compacted).length;
      return `${lane.label}: ${turns.length} turns, ${compactions} compactions, engine calls ${engineMs.toFixed(0)} ms${lane.error ? ` (${lane.error})` : ''}`;
    })
    .join(' | ');
}

function forget(run: Run): Run {
  delete run.recording;
  return run;
}

/** The run with the median replay time, carrying the median limit of all runs (one run: itself). */
function representative(runs: Run[]): Run {
  if (runs.length === 1) return runs[0]!;
  const byWall = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  const middle = byWall[(byWall.length - 1) >> 1]!;
  return {
    ...middle,
    wallMs: median(runs.map((r) => r.wallMs)),
    limitMs: median(runs.map((r) => r.limitMs)),
    parseMs: median(runs.map((r) => r.parseMs)),
    tokenizeMs: median(runs.map((r) => r.tokenizeMs)),
  };
}

/** Where the replay's CPU time went: the limit is one thread's work, the replay spreads over processes and threads. */
function cpuLine(run: Run): string {
  const cpu = run.cpu!;
  const s = (ms: number) => (ms / 1000).toFixed(1);
  return (
    `CPU (${run.turns} turns): ${s(cpu.totalMs)} s in ${s(run.wallMs)} s of wall time on ${cpu.cores} cores — ` +
    `main thread ${s(cpu.mainThreadMs)}, tokenizer worker (threads that ended) ${s(cpu.endedThreadsMs)}, ` +
    `V8 compiler/GC and libuv threads ${s(cpu.otherThreadsMs)}, engine host processes ${s(cpu.childProcessesMs)}`
  );
}

function benchmarkTitle(): string {
  return `replay benchmark: lanes legacy@${WINDOW}${
    PLUGIN_IN_PROCESS
      ? ' + summary-tree in this process (no engine host)'
      : WITH_PLUGIN
        ? ` + summary-tree (engine host: ${HOST_ENTRY ? 'built engine-host.mjs' : 'TypeScript source via tsx'})`
        : ''
  }; Node ${process.version}`;
}

/** REPEAT runs of each size; only the last large run keeps its recording. */
async function runBothSizes(): Promise<{ smallRuns: Run[]; largeRuns: Run[] }> {
  const smallRuns: Run[] = [];
  for (let i = 0; i < REPEAT; i++) smallRuns.push(forget(await runOnce(SMALL)));
  const largeRuns: Run[] = [];
  for (let i = 0; i < REPEAT; i++) {
    for (const earlier of largeRuns) forget(earlier);
    largeRuns.push(await runOnce(TURNS));
  }
  return { smallRuns, largeRuns };
}

/** The figures of both sizes side by side: [what, small, large]. */
function figureRows(small: Run, large: Run): [string, string, string][] {
  return [
    [
      'session',
      `${small.turns} turns, ${small.messages} msgs, ${mb(small.chars).toFixed(1)} MB`,
      `${large.turns} turns, ${large.messages} msgs, ${mb(large.chars).toFixed(1)} MB`,
    ],
    [
      'limit (parse + tokenize once)',
      `${small.limitMs.toFixed(0)} ms (${small.parseMs.toFixed(0)} + ${small.tokenizeMs.toFixed(0)})`,
      `${large.limitMs.toFixed(0)} ms (${large.parseMs.toFixed(0)} + ${large.tokenizeMs.toFixed(0)})`,
    ],
    ['replay wall time', `${small.wallMs.toFixed(0)} ms`, `${large.wallMs.toFixed(0)} ms`],
    ['ms per turn', (small.wallMs / small.turns).toFixed(2), (large.wallMs / large.turns).toFixed(2)],
    ['ratio to the limit', (small.wallMs / small.limitMs).toFixed(2), (large.wallMs / large.limitMs).toFixed(2)],
    [
      'chars tokenized: limit / replay',
      `${mb(small.limitChars).toFixed(1)} / ${mb(small.replayChars ?? 0).toFixed(1)} MB`,
      `${mb(large.limitChars).toFixed(1)} / ${mb(large.replayChars ?? 0).toFixed(1)} MB`,
    ],
    ['tokenizer cache hit rate', `${(small.hitRate * 100).toFixed(1)} %`, `${(large.hitRate * 100).toFixed(1)} %`],
    [
      'engine host peak RSS',
      small.hostPeakRss ? `${mb(small.hostPeakRss).toFixed(0)} MB` : 'n/a',
      large.hostPeakRss ? `${mb(large.hostPeakRss).toFixed(0)} MB` : 'n/a',
    ],
  ];
}

function printColumns(rows: readonly [string, string, string][]): void {
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  for (const [a, b, c] of rows) console.log(`${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
}

/** Size of the recording as JSON, and how long export and validated import take. */
function recordingLine(recording: Recording, turns: number): string {
  let t = performance.now();
  const json = exportRecordingJson(recording);
  const exportMs = performance.now() - t;
  t = performance.now();
  importRecording(json);
  const importMs = performance.now() - t;
  return `recording (${turns} turns): ${mb(Buffer.byteLength(json)).toFixed(1)} MB JSON, export ${exportMs.toFixed(0)} ms, validated import ${importMs.toFixed(0)} ms`;
}

function rangesLine(largeRuns: Run[], turns: number): string {
  const range = (runs: Run[], pick: (r: Run) => number) =>
    `${Math.min(...runs.map(pick)).toFixed(0)}–${Math.max(...runs.map(pick)).toFixed(0)} ms`;
  return (
    `medians of ${REPEAT} runs (the ratio is median replay / median limit); ranges for ${turns} turns: ` +
    `replay ${range(largeRuns, (r) => r.wallMs)}, limit ${range(largeRuns, (r) => r.limitMs)}`
  );
}

/** Each target: its name, whether it was met, and the figure it was judged on. */
function targetChecks(small: Run, large: Run, parentPeak: number): [string, boolean, string][] {
  const scaling = large.wallMs / small.wallMs;
  return [
    [
      `replay ≤ ${TARGET.limitRatio}× the limit`,
      large.wallMs <= TARGET.limitRatio * large.limitMs,
      `${(large.wallMs / large.limitMs).toFixed(2)}×`,
    ],
    [`replay ≤ ${TARGET.wallMs / 1000} s`, large.wallMs <= TARGET.wallMs, `${(large.wallMs / 1000).toFixed(2)} s`],
    [`t(${large.turns})/t(${small.turns}) ≤ ${TARGET.scaling}`, scaling <= TARGET.scaling, scaling.toFixed(2)],
    [
      `peak RSS ≤ ${TARGET.rssMb} MB`,
      mb(parentPeak) <= TARGET.rssMb && (large.hostPeakRss === undefined || mb(large.hostPeakRss) <= TARGET.rssMb),
      `${mb(parentPeak).toFixed(0)} MB parent${large.hostPeakRss ? `, ${mb(large.hostPeakRss).toFixed(0)} MB host` : ''}`,
    ],
  ];
}

async function main(): Promise<void> {
  console.log(benchmarkTitle());
  const { smallRuns, largeRuns } = await runBothSizes();
  const parentPeak = process.resourceUsage().maxRSS * 1024;
  const small = representative(smallRuns);
  const large = representative(largeRuns);
  const lastRecording = largeRuns[largeRuns.length - 1]!.recording!;

  printColumns(figureRows(small, large));
  console.log(`parent peak RSS (whole run): ${mb(parentPeak).toFixed(0)} MB`);
  console.log(recordingLine(lastRecording, large.turns));
  console.log(`lanes (${large.turns} turns): ${large.lanes}`);
  if (large.cpu) console.log(cpuLine(large));
  if (REPEAT > 1) console.log(rangesLine(largeRuns, large.turns));

  console.log('\ntargets:');
  for (const [name, met, value] of targetChecks(small, large, parentPeak))
    console.log(`  ${met ? 'met   ' : 'MISSED'}  ${name.padEnd(28)} ${value}`);
}

await main();
