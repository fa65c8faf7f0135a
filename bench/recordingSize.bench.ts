/**
 * Recording size and peak memory (issue 17 item 7), not a pass/fail test. Sessions, each replayed through the legacy
 * lane in its own Node process (so one case's heap never colours the other's peak RSS):
 * - the thin chain at two lengths (default 2,500 and 5,000 turns): one short user and one short assistant message
 *   per turn (5,000 turns: 10,000 entries, about 2 MB) at a 200k window, so legacy sends the whole history every
 *   turn (turn 5,000 assembles thousands of messages: the lists read over all turns hold turns × context refs);
 * - a generated 1,000-turn session (tool calls, compactions; `generateSession`) at a 32k window.
 * Per case: the recording's size (written as `replay --json` writes it: streamed, lists as deltas), bytes per turn,
 * the ratio to the session file, the peak RSS (VmHWM) after the replay and the write, that peak above the process's
 * RSS before the replay (modules, tokenizer), the peak again after re-importing the file (the replay's Recording
 * released first), what the turn lists hold in memory (pool items + run numbers, against the refs they read as),
 * and the times. Each case runs `--runs` times (default 2); medians are printed. Then the ratios of the thin chain's
 * two lengths: a session twice as long should cost about twice (not four times) in file size and memory.
 * Targets: size ≤ 8× the session file; peak RSS of replay + write ≤ 352 MB at 5,000 thin turns; for twice the
 * turns, file size and the peak above the start ≤ 2.5×.
 *
 * Run: npm run bench -- --only recordingSize   (options: --thin-turns N[,M], --turns N, --runs R)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importRecording, replaySession, writeRecordingFile, type Recording } from '../src/replay';
import { generateSession, writeGeneratedSessions } from '../src/transcripts';
import { pooledAssembled, pooledMessages } from '../src/view/sharedTurnLists';

const TARGET = { sizeRatio: 8, thinPeakRssMb: 352, thinTurns: 5000, growthForTwice: 2.5 };

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1]! : fallback;
}

/** A JSONL session of `turns` short user/assistant pairs, one chain. */
export function thinChainJsonl(turns: number): string {
  const base = Date.parse('2026-03-02T09:00:00.000Z');
  const header = {
    type: 'session',
    version: 3,
    id: 'thin-chain',
    timestamp: new Date(base).toISOString(),
    cwd: '/work',
  };
  const lines = [JSON.stringify(header)];
  let parentId: string | null = null;
  for (let i = 0, n = 0; i < turns; i++) {
    for (const role of ['user', 'assistant'] as const) {
      const ms = base + ++n * 1000;
      const id = `m${String(n).padStart(6, '0')}`;
      const message =
        role === 'user'
          ? { role, content: `question ${i}`, timestamp: ms }
          : {
              role,
              content: [{ type: 'text', text: `answer ${i}` }],
              provider: 'openai',
              model: 'gpt-5',
              stopReason: 'stop',
              timestamp: ms,
            };
      lines.push(JSON.stringify({ type: 'message', id, parentId, timestamp: new Date(ms).toISOString(), message }));
      parentId = id;
    }
  }
  return lines.join('\n') + '\n';
}

function rssBytes(field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : process.memoryUsage().rss;
}

interface CaseFigures {
  name: string;
  turns: number;
  sessionBytes: number;
  recordingBytes: number;
  /** references the turns' lists read as (assembled and as sent), summed over turns */
  listedRefs: number;
  /** what holds them in memory: pool items and run numbers */
  heldNumbers: number;
  /** VmRSS before the replay */
  startRssBytes: number;
  /** VmHWM after the replay and the write */
  replayPeakRssBytes: number;
  /** VmHWM after the re-import too */
  peakRssBytes: number;
  replayMs: number;
  writeMs: number;
  importMs: number;
}

async function sessionFile(name: string, dir: string): Promise<{ file: string; window: number; turns: number }> {
  const [kind, count] = name.split(':') as [string, string];
  const turns = Number(count);
  if (kind === 'thin') {
    const file = join(dir, 'thin-chain.jsonl');
    writeFileSync(file, thinChainJsonl(turns));
    return { file, window: 200_000, turns };
  }
  const written = await writeGeneratedSessions(generateSession({ turns, seed: 'bench', subagents: 0 }), dir);
  return { file: written.files[0]!, window: 32_000, turns };
}

function listFootprint(recording: Recording): { listedRefs: number; heldNumbers: number } {
  let listedRefs = 0;
  let heldNumbers = 0;
  for (const records of Object.values(recording.turns)) {
    const pools = new Set<{ size: number }>();
    for (const r of records) {
      listedRefs += r.assembled.length + (r.asSent?.messages.length ?? 0);
      for (const shared of [pooledAssembled(r), r.asSent && pooledMessages(r.asSent)]) {
        if (!shared) continue;
        pools.add(shared.pool);
        heldNumbers += shared.list.runs.length;
      }
    }
    for (const pool of pools) heldNumbers += pool.size;
  }
  return { listedRefs, heldNumbers };
}

/** One case, in this process (the child). */
async function runCase(name: string): Promise<CaseFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'contextscope-recording-size-'));
  try {
    const { file, window, turns } = await sessionFile(name, dir);
    globalThis.gc?.();
    const startRssBytes = rssBytes('VmRSS');
    let t = performance.now();
    let recording: Recording | undefined = await replaySession({
      session: file,
      lanes: [{ engine: { kind: 'legacy' }, contextWindow: window }],
      transcriptFiles: 'none',
    });
    const replayMs = performance.now() - t;
    const out = join(dir, 'recording.json');
    if (!recording) throw new Error('no recording');
    t = performance.now();
    const { bytes } = writeRecordingFile(out, recording);
    const writeMs = performance.now() - t;
    const replayPeakRssBytes = rssBytes('VmHWM');
    const footprint = listFootprint(recording);
    recording = undefined; // the re-import's peak is its own (a fresh app reading the file)
    globalThis.gc?.();
    t = performance.now();
    importRecording(readFileSync(out, 'utf8'));
    const importMs = performance.now() - t;
    return {
      name: name.startsWith('thin') ? `thin chain, ${turns} turns` : `generated, ${turns} turns`,
      turns,
      sessionBytes: statSync(file).size,
      recordingBytes: bytes,
      ...footprint,
      startRssBytes,
      replayPeakRssBytes,
      peakRssBytes: rssBytes('VmHWM'),
      replayMs,
      writeMs,
      importMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => `${(bytes / (1 << 20)).toFixed(1)} MB`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The median of each figure over the runs of one case. */
function medianFigures(runs: CaseFigures[]): CaseFigures {
  const out = { ...runs[0]! };
  for (const key of Object.keys(out) as (keyof CaseFigures)[]) {
    if (typeof out[key] === 'number') (out as Record<string, unknown>)[key] = median(runs.map((r) => r[key] as number));
  }
  return out;
}

const grown = (f: CaseFigures) => f.replayPeakRssBytes - f.startRssBytes;

function print(f: CaseFigures, runs: CaseFigures[]): void {
  const ratio = f.recordingBytes / f.sessionBytes;
  const peaks = runs.map((r) => mb(r.replayPeakRssBytes)).join(', ');
  console.log(
    `${f.name}: session ${mb(f.sessionBytes)}, recording ${mb(f.recordingBytes)} (${Math.round(f.recordingBytes / f.turns)} B/turn, ` +
      `${ratio.toFixed(2)}× the session); turn lists read as ${f.listedRefs.toLocaleString('en')} refs, held as ` +
      `${f.heldNumbers.toLocaleString('en')} pool items and run numbers\n` +
      `  peak RSS ${mb(f.replayPeakRssBytes)} (replay + write; median of ${peaks}), ${mb(grown(f))} above the ` +
      `${mb(f.startRssBytes)} before the replay; ${mb(f.peakRssBytes)} with the re-import; replay ` +
      `${(f.replayMs / 1000).toFixed(1)} s, write ${(f.writeMs / 1000).toFixed(2)} s, re-import ${(f.importMs / 1000).toFixed(2)} s`,
  );
  const thin = f.name.startsWith('thin') && f.turns === TARGET.thinTurns;
  const rssOk = f.replayPeakRssBytes <= TARGET.thinPeakRssMb * (1 << 20);
  console.log(
    `  target: size ≤ ${TARGET.sizeRatio}× the session ${ratio <= TARGET.sizeRatio ? 'met' : 'MISSED'}` +
      (thin ? `, peak RSS of replay + write ≤ ${TARGET.thinPeakRssMb} MB ${rssOk ? 'met' : 'MISSED'}` : ''),
  );
}

function printGrowth(short: CaseFigures, long: CaseFigures): void {
  const turns = long.turns / short.turns;
  const size = long.recordingBytes / short.recordingBytes;
  const peak = grown(long) / grown(short);
  const listed = long.listedRefs / short.listedRefs;
  const held = long.heldNumbers / short.heldNumbers;
  const cap = TARGET.growthForTwice;
  const ok = (r: number) => (r <= cap ? 'met' : 'MISSED');
  console.log(
    `thin chain ${short.turns} → ${long.turns} turns (${turns.toFixed(1)}× the session): recording ${size.toFixed(2)}×, ` +
      `peak RSS above the start ${peak.toFixed(2)}× (whole peak ${(long.replayPeakRssBytes / short.replayPeakRssBytes).toFixed(2)}×), ` +
      `turn lists held ${held.toFixed(2)}× (read as ${listed.toFixed(2)}×: turns × context)`,
  );
  if (turns === 2) console.log(`  target: ≤ ${cap}× for twice the turns: size ${ok(size)}, peak RSS ${ok(peak)}`);
}

function runChild(name: string): CaseFigures | string {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, '--case', name], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith('FIGURES '));
  if (!line) return `the case failed (exit ${child.status ?? child.signal}): ${child.stderr.trim().slice(-2000)}`;
  return JSON.parse(line.slice('FIGURES '.length)) as CaseFigures;
}

const caseAt = process.argv.indexOf('--case');
if (caseAt > 0) {
  const figures = await runCase(process.argv[caseAt + 1]!);
  console.log(`FIGURES ${JSON.stringify(figures)}`);
} else {
  const thinTurns = arg('--thin-turns', '2500,5000').split(',').map(Number);
  const repetitions = Number(arg('--runs', '2'));
  const cases = [...thinTurns.map((n) => `thin:${n}`), `generated:${arg('--turns', '1000')}`];
  const thin: CaseFigures[] = [];
  for (const name of cases) {
    const runs: CaseFigures[] = [];
    for (let i = 0; i < repetitions; i++) {
      const result = runChild(name);
      if (typeof result === 'string') console.log(`${name}: ${result}`);
      else runs.push(result);
    }
    if (runs.length === 0) continue;
    const figures = medianFigures(runs);
    print(figures, runs);
    if (name.startsWith('thin')) thin.push(figures);
  }
  if (thin.length >= 2) printGrowth(thin[0]!, thin[thin.length - 1]!);
}
