/**
 * Streaming replay figures (not a pass/fail test), in headless Chromium against the built app (browser mode): a
 * generated session (default 1,000 turns) replayed through legacy from the Sessions view. Per run it measures, from
 * the click on Start replay, when the first timeline row is on screen and when the finished Recording is (the
 * header reads "<turns> turns" and the progress strip is gone), and the largest WebSocket frame the page received.
 * The times are taken in the page, on its clock: the click by a capturing listener, the first row at the first
 * animation frame it has a box, the end by a DOM observer. (Playwright's own waits poll at up to 500 ms intervals,
 * which added up to half a second to either figure.)
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
    await page.evaluate(`(${PAGE_TIMES})(${JSON.stringify(`^${count} turns? · `)})`);
    await page.getByRole('button', { name: 'Start replay' }).click();
    await page.getByTestId('timeline-row').first().waitFor({ timeout: 600_000 });
    // the header's count of the finished recording ("1,000 turns · 1 lane · …")
    await page
      .locator('.replay-view__meta', { hasText: new RegExp(`^${count} turns? · `) })
      .waitFor({ timeout: 1_800_000 });
    await page.getByTestId('replay-streaming').waitFor({ state: 'detached', timeout: 600_000 });
    await page.waitForFunction(() => (window as { __times?: PageTimes }).__times?.finished, undefined, {
      timeout: 60_000,
    });
    const { clicked, firstRow, finished } = await page.evaluate(
      () => (window as { __times?: PageTimes }).__times as Required<PageTimes>,
    );
    return { firstMs: firstRow - clicked, totalMs: finished - clicked, maxFrame };
  } finally {
    await app.stop();
  }
}

interface PageTimes {
  clicked?: number;
  firstRow?: number;
  finished?: number;
}

/**
 * Installed in the page before the click (a function source: no bundler helpers inside): records on the page's
 * clock the click, the first animation frame at which a timeline row has a box, and the first DOM change after which
 * the header shows the finished count and the progress strip is gone.
 */
const PAGE_TIMES = `(finishedPattern) => {
  const times = {};
  window.__times = times;
  document.addEventListener('click', () => { times.clicked ??= performance.now(); }, { capture: true });
  const firstRow = () => {
    const row = document.querySelector('[data-testid="timeline-row"]');
    const box = row && row.getBoundingClientRect();
    if (times.clicked !== undefined && box && box.width > 0 && box.height > 0) times.firstRow = performance.now();
    else requestAnimationFrame(firstRow);
  };
  requestAnimationFrame(firstRow);
  const pattern = new RegExp(finishedPattern);
  const observer = new MutationObserver(() => {
    const meta = document.querySelector('.replay-view__meta');
    if (times.firstRow === undefined || !meta || !pattern.test(meta.textContent || '')) return;
    if (document.querySelector('[data-testid="replay-streaming"]')) return;
    times.finished = performance.now();
    observer.disconnect();
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
}`;

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
