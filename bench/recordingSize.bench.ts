/**
 * Recording size and peak memory (issue 17 item 7), not a pass/fail test. Two sessions, each replayed through the
 * legacy lane in its own Node process (so one case's heap never colours the other's peak RSS):
 * - the thin chain: 5,000 turns of one short user and one short assistant message (10,000 entries, about 2 MB) at a
 *   200k window, so legacy sends the whole history every turn (turn 5,000 assembles 9,998 messages);
 * - a generated 1,000-turn session (tool calls, compactions; `generateSession`) at a 32k window.
 * It prints the recording's size (written as `replay --json` writes it: streamed, lists as deltas), bytes per
 * turn, the ratio to the session file, the peak RSS (VmHWM) of the process after the replay and the write, and
 * again after re-importing the file (the replay's Recording released first), and the times of the replay, the write
 * and the re-import. Targets: size ≤ 8× the session file, peak RSS of replay + write ≤ 768 MB on the thin chain.
 *
 * Run: npm run bench -- --only recordingSize   (options: --thin-turns N, --turns N)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importRecording, replaySession, writeRecordingFile, type Recording } from '../src/replay';
import { generateSession, writeGeneratedSessions } from '../src/transcripts';

const TARGET = { sizeRatio: 8, thinPeakRssMb: 768 };

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
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

function peakRssBytes(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : process.memoryUsage().rss;
}

interface CaseFigures {
  name: string;
  turns: number;
  sessionBytes: number;
  recordingBytes: number;
  assembledRefs: number;
  /** VmHWM after the replay and the write */
  replayPeakRssBytes: number;
  /** VmHWM after the re-import too */
  peakRssBytes: number;
  replayMs: number;
  writeMs: number;
  importMs: number;
}

async function sessionFile(name: string, dir: string): Promise<{ file: string; window: number; turns: number }> {
  if (name === 'thin') {
    const turns = arg('--thin-turns', 5000);
    const file = join(dir, 'thin-chain.jsonl');
    writeFileSync(file, thinChainJsonl(turns));
    return { file, window: 200_000, turns };
  }
  const turns = arg('--turns', 1000);
  const written = await writeGeneratedSessions(generateSession({ turns, seed: 'bench', subagents: 0 }), dir);
  return { file: written.files[0]!, window: 32_000, turns };
}

/** One case, in this process (the child). */
async function runCase(name: string): Promise<CaseFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'contextscope-recording-size-'));
  try {
    const { file, window, turns } = await sessionFile(name, dir);
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
    const replayPeakRssBytes = peakRssBytes();
    recording = undefined; // the re-import's peak is its own (a fresh app reading the file)
    globalThis.gc?.();
    t = performance.now();
    const back = importRecording(readFileSync(out, 'utf8'));
    const importMs = performance.now() - t;
    const assembledRefs = Object.values(back.turns).reduce(
      (s, l) => s + l.reduce((n, r) => n + r.assembled.length, 0),
      0,
    );
    return {
      name: name === 'thin' ? `thin chain, ${turns} turns` : `generated, ${turns} turns`,
      turns,
      sessionBytes: statSync(file).size,
      recordingBytes: bytes,
      assembledRefs,
      replayPeakRssBytes,
      peakRssBytes: peakRssBytes(),
      replayMs,
      writeMs,
      importMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => `${(bytes / (1 << 20)).toFixed(1)} MB`;

function print(f: CaseFigures): void {
  const ratio = f.recordingBytes / f.sessionBytes;
  console.log(
    `${f.name}: session ${mb(f.sessionBytes)}, recording ${mb(f.recordingBytes)} (${Math.round(f.recordingBytes / f.turns)} B/turn, ` +
      `${ratio.toFixed(2)}× the session; ${f.assembledRefs.toLocaleString('en')} assembled refs in its turns), ` +
      `peak RSS ${mb(f.replayPeakRssBytes)} (replay + write; ${mb(f.peakRssBytes)} with the re-import); replay ${(f.replayMs / 1000).toFixed(1)} s, write ${(f.writeMs / 1000).toFixed(2)} s, ` +
      `re-import ${(f.importMs / 1000).toFixed(2)} s`,
  );
  const thin = f.name.startsWith('thin');
  const sizeOk = ratio <= TARGET.sizeRatio;
  const rssOk = !thin || f.replayPeakRssBytes <= TARGET.thinPeakRssMb * (1 << 20);
  console.log(
    `  target: size ≤ ${TARGET.sizeRatio}× the session ${sizeOk ? 'met' : 'MISSED'}` +
      (thin ? `, peak RSS of replay + write ≤ ${TARGET.thinPeakRssMb} MB ${rssOk ? 'met' : 'MISSED'}` : ''),
  );
}

const caseAt = process.argv.indexOf('--case');
if (caseAt > 0) {
  const figures = await runCase(process.argv[caseAt + 1]!);
  console.log(`FIGURES ${JSON.stringify(figures)}`);
} else {
  for (const name of ['thin', 'generated']) {
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', import.meta.filename, '--case', name, ...process.argv.slice(2)],
      { encoding: 'utf8', maxBuffer: 1 << 26 },
    );
    const line = child.stdout.split('\n').find((l) => l.startsWith('FIGURES '));
    if (!line) {
      console.log(
        `${name}: the case failed (exit ${child.status ?? child.signal}): ${child.stderr.trim().slice(-2000)}`,
      );
      continue;
    }
    print(JSON.parse(line.slice('FIGURES '.length)) as CaseFigures);
  }
}
