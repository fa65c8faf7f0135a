/**
 * Streaming replay figures (not a pass/fail test), in headless Chromium against the built app (browser mode): a
 * generated session (default 1,000 turns) replayed through legacy from the Sessions view. Per run it measures, from
 * the click on Start replay, when the first timeline row is on screen and when the finished Recording is (the
 * header reads "<turns> turns" and the progress strip is gone), and the largest WebSocket frame the page received.
 * Target: first turn visible ≤ 15 % of the replay's time; no frame over 1 MB.
 *
 * Run: npm run bench -- --only streamReplay   (options: --turns N, --runs N; needs the built app and Chromium)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSession, writeGeneratedSessions } from '../src/transcripts';
import { findChromium, loadSessionFolder, startApp } from '../test/e2e/helpers';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

interface RunFigures {
  firstMs: number;
  totalMs: number;
  maxFrame: number;
}

async function oneRun(chromium: string, dir: string, turns: number): Promise<RunFigures> {
  const app = await startApp(chromium, {}, { viewport: { width: 1400, height: 900 } });
  try {
    const { page } = app;
    let maxFrame = 0;
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        maxFrame = Math.max(maxFrame, Buffer.byteLength(payload));
      }),
    );
    // the bridge socket opened before this listener: reload so its frames are seen
    await page.reload();
    await page.getByTestId('runtime-status').filter({ hasText: 'connected' }).waitFor();
    await loadSessionFolder(page, dir);
    const count = turns.toLocaleString('en-US');
    await page.locator('[data-testid="session-row"]', { hasText: count }).first().click();
    const plugin = page.getByRole('checkbox', { name: /plugin:recent-window/ });
    if ((await plugin.count()) > 0 && (await plugin.isChecked())) await plugin.uncheck();
    const started = performance.now();
    await page.getByRole('button', { name: 'Start replay' }).click();
    await page.getByTestId('timeline-row').first().waitFor({ timeout: 600_000 });
    const firstMs = performance.now() - started;
    // the header's count of the finished recording ("1,000 turns · 1 lane · …")
    await page
      .locator('.replay-view__meta', { hasText: new RegExp(`^${count} turns? · `) })
      .waitFor({ timeout: 1_800_000 });
    await page.getByTestId('replay-streaming').waitFor({ state: 'detached', timeout: 600_000 });
    return { firstMs, totalMs: performance.now() - started, maxFrame };
  } finally {
    await app.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const range = (values: number[], digits: number, unit = '') =>
  `median ${median(values).toFixed(digits)}${unit} (range ${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}${unit})`;

async function main(): Promise<void> {
  const chromium = findChromium();
  if (!chromium.path) {
    console.log(`streaming replay: skipped (${chromium.reason})`);
    return;
  }
  const turns = option('--turns', 1000);
  const runs = option('--runs', 3);
  const dir = mkdtempSync(join(tmpdir(), 'cs-bench-stream-'));
  try {
    await writeGeneratedSessions(generateSession({ turns, seed: 'bench-stream', contextWindow: 200_000 }), dir);
    const figures: RunFigures[] = [];
    for (let i = 0; i < runs; i++) {
      const run = await oneRun(chromium.path, dir, turns);
      figures.push(run);
      const ratio = run.firstMs / run.totalMs;
      console.log(
        `run ${i + 1}: first turn ${(run.firstMs / 1000).toFixed(1)} s of ${(run.totalMs / 1000).toFixed(1)} s (${(ratio * 100).toFixed(1)} %), largest frame ${(run.maxFrame / 1024).toFixed(0)} KiB`,
      );
    }
    const ratios = figures.map((f) => (f.firstMs / f.totalMs) * 100);
    const frames = figures.map((f) => f.maxFrame / 1024);
    console.log(`streaming replay, ${turns} turns, legacy, ${runs} runs (headless Chromium, built app):`);
    console.log(`  first-turn-visible ÷ replay time: ${range(ratios, 1, ' %')} — target ≤ 15 %`);
    console.log(
      `  replay time: ${range(
        figures.map((f) => f.totalMs / 1000),
        1,
        ' s',
      )}`,
    );
    console.log(`  largest WebSocket frame: ${range(frames, 0, ' KiB')} — target < 1,024 KiB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
