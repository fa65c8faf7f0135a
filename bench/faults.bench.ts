/**
 * Bounded resources against a runaway plugin (issue 17 item 2), not a pass/fail test: a 10-turn session replayed
 * through legacy + the oversized-result fixture, whose assemble returns one 50 MB message on every turn. It prints
 * the wall time, the peak RSS of this process and of the engine host, and how the lane ended, once with the default
 * message cap (64 MiB: the result is taken) and once with a cap below it (16 MiB: the lane is quarantined at the
 * first result, which is never parsed). Before the cap the same replay aborted with a heap OOM after 128 s at 4.4 GB.
 * Each case runs in its own Node process, so one's peak RSS is not the other's. Measured on the loaded 2-core VM
 * (20 turns): 64 MiB cap 238 s, peak RSS 1445 MB app / 1434 MB host (taken every turn); 16 MiB cap 7.0 s, 247 MB /
 * 193 MB, quarantined at turn 1 ("assemble result of 50 MB is over the 16 MB cap").
 *
 * Run: npm run bench -- --only faults   (options: --result-mb N (default 50), --turns N (default 10))
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { replaySession, laneConfigFromSpec } from '../src/replay';
import { generateSession, writeGeneratedSessions } from '../src/transcripts';
import { arg, childPeakRssBytes, mb } from './replayBenchSupport';

const RESULT_MB = arg('--result-mb', 50);
const TURNS = arg('--turns', 10);
const FIXTURE = resolve(import.meta.dirname, '..', 'test', 'fixtures', 'plugins', 'oversized-result');
const CASE_FLAG = '--case-cap-mb';

/** One replay with a `capMb` cap; prints one line of figures. */
async function runCase(capMb: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cs-faults-bench-'));
  try {
    const set = generateSession({ turns: TURNS, seed: 'faults', subagents: 0 });
    const file = (await writeGeneratedSessions(set, dir)).files[0]!;
    const config = encodeURIComponent(JSON.stringify({ resultBytes: Math.round(RESULT_MB * (1 << 20)) }));
    const spec = `plugin:${FIXTURE}?configJson5=${config}&maxResultMb=${capMb}`;
    let hostPeak = 0;
    const t = performance.now();
    const recording = await replaySession({
      session: file,
      lanes: [
        { engine: { kind: 'legacy' }, contextWindow: 200_000, label: 'legacy' },
        laneConfigFromSpec(spec, { contextWindow: 200_000 }),
      ],
      plugins: { allowExecute: true },
      onProgress: () => (hostPeak = Math.max(hostPeak, childPeakRssBytes() ?? 0)),
    });
    const wallMs = performance.now() - t;
    const plugin = recording.lanes[1]!.id;
    const quarantine = (recording.turns[plugin] ?? [])
      .flatMap((turn) => turn.events)
      .find((e) => e.type === 'quarantine');
    const outcome =
      quarantine?.type === 'quarantine'
        ? `quarantined: ${quarantine.operation}: ${quarantine.reason}`
        : 'taken every turn';
    const parentPeak = process.resourceUsage().maxRSS * 1024;
    console.log(
      `cap ${String(capMb).padStart(3)} MB: ${(wallMs / 1000).toFixed(1)} s, peak RSS ${mb(parentPeak).toFixed(0)} MB (this process), ` +
        `${hostPeak ? `${mb(hostPeak).toFixed(0)} MB` : 'n/a'} (engine host) — ${outcome}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const at = process.argv.indexOf(CASE_FLAG);
  if (at > 0) return runCase(Number(process.argv[at + 1]));
  console.log(`runaway plugin: ${TURNS} turns, one ${RESULT_MB} MB message per assemble; Node ${process.version}`);
  for (const capMb of [64, 16]) {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', import.meta.filename, ...process.argv.slice(2), CASE_FLAG, String(capMb)],
      { stdio: 'inherit' },
    );
    if (child.status !== 0)
      console.log(`cap ${capMb} MB: the replay process ended with ${child.status ?? child.signal}`);
  }
}

await main();
