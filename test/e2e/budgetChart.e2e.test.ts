/**
 * The budget chart at 1,000 turns (browser mode, Chromium): a generated session replayed through legacy and
 * recent-window by the CLI, kept in the app's recent recordings and opened from the Overview. The chart shows the
 * whole recording with markers grouped where they are dense and legend counts in turns; the brush zooms it to a
 * range; a click on the plot selects the turn under the pointer; it saves as SVG and PNG.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRecentRecordings } from '../../main/recentRecordings';
import { importRecording, type Recording } from '../../src/replay';
import { describeWithChromium, PROJECT_ROOT, saveScreenshot, startApp, type RunningApp } from './helpers';

const TURNS = 1000;

const selectedTurn = (page: Page) =>
  page.locator('[data-testid="timeline-row"][aria-selected="true"]').getAttribute('data-turn');
const chartRange = async (page: Page) =>
  ((await page.getByTestId('budget-chart').getAttribute('data-range')) ?? '').split('-').map(Number);

/** Turns where at least one lane has an event of `type`. */
function turnsWith(recording: Recording, type: string): number {
  const turns = new Set<number>();
  for (const records of Object.values(recording.turns)) {
    records.forEach((record, turn) => record.events.some((e) => e.type === type) && turns.add(turn));
  }
  return turns.size;
}

describeWithChromium('browser mode: the budget chart at 1,000 turns', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let dirs: string[];
  let recording: Recording;

  beforeAll(async () => {
    dirs = ['cs-e2e-config-', 'cs-e2e-state-', 'cs-e2e-gen-'].map((p) => mkdtempSync(path.join(tmpdir(), p)));
    const cli = path.join(PROJECT_ROOT, 'out', 'node', 'cli.mjs');
    const sessions = path.join(dirs[2]!, 'sessions');
    const out = path.join(dirs[2]!, 'recording.json');
    execFileSync(process.execPath, [cli, 'generate', '--turns', String(TURNS), '--seed', '7', '--out', sessions]);
    const lanes = ['--lane', 'legacy', '--lane', 'plugin:recent-window', '--allow-execute', '--no-subagents'];
    execFileSync(process.execPath, [cli, 'replay', sessions, ...lanes, '--json', out], { stdio: 'ignore' });
    const text = readFileSync(out, 'utf8');
    recording = importRecording(text);
    // in the recent list beforehand: a dropped file goes up the WebSocket in one message, too big at this length
    createRecentRecordings({ dir: path.join(dirs[0]!, 'recordings') }).add(recording, text, {
      title: 'long',
      origin: 'file',
    });
    app = await startApp(
      chromiumPath(),
      { CONTEXTSCOPE_CONFIG_DIR: dirs[0], OPENCLAW_STATE_DIR: dirs[1] },
      { viewport: { width: 1600, height: 1000 } },
    );
    page = app.page;
    await page.getByTestId('recent-recording').first().getByRole('button').first().click();
    await page.getByTestId('timeline').waitFor({ timeout: 120_000 });
    await page.locator('.budget-chart .recharts-line').first().waitFor();
  }, 300_000);

  afterAll(async () => {
    await app?.stop();
    for (const dir of dirs ?? []) rmSync(dir, { recursive: true, force: true });
  });

  it('shows every turn, markers grouped where dense, and legend counts in turns', async () => {
    expect(await chartRange(page)).toEqual([0, TURNS - 1]);
    const compactions = turnsWith(recording, 'compaction');
    expect(compactions).toBeGreaterThan(0);
    expect(await page.getByTestId('legend-compactions').textContent()).toBe(`◆ compaction (${compactions} turns)`);
    const markers = page.locator('.budget-chart [data-marker="compaction"]');
    const grouped = await markers.evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-turns'))));
    // every compaction turn is in exactly one marker, and fewer markers are drawn than there are turns to mark
    expect(grouped.reduce((a, b) => a + b, 0)).toBe(compactions);
    expect(grouped.length).toBeLessThan(compactions);
    const screenshot = await saveScreenshot(page, 'budget-chart-1000-turns');
    expect(screenshot).toMatch(/budget-chart-1000-turns\.png$/);
  });

  it('zooms to a range with the brush and selects the turn clicked on', async () => {
    const traveller = page.locator('.budget-chart .recharts-brush-traveller').first();
    const from = (await traveller.boundingBox())!;
    const brush = (await page.locator('.budget-chart .recharts-brush').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(brush.x + brush.width * 0.6, from.y + from.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await chartRange(page))[0]).toBeGreaterThan(500);
    const [start, end] = await chartRange(page);
    expect(end).toBe(TURNS - 1);
    const grid = (await page.locator('.budget-chart .recharts-cartesian-grid').boundingBox())!;
    const x = grid.x + grid.width * 0.25;
    await page.mouse.click(x, grid.y + grid.height * 0.5);
    const expected = start! + Math.round(0.25 * (end! - start!));
    await expect.poll(async () => Number(await selectedTurn(page))).toBeGreaterThanOrEqual(expected - 1);
    const chosen = Number(await selectedTurn(page));
    expect(chosen).toBeLessThanOrEqual(expected + 1);
    expect(await page.getByTestId('budget-chart-cursor').getAttribute('data-turn')).toBe(String(chosen));
    await saveScreenshot(page, 'budget-chart-1000-turns-zoomed');
  });

  it('saves the chart as SVG and as PNG', async () => {
    const saved = async (name: string) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('group', { name: 'Save chart' }).getByRole('button', { name }).click(),
      ]);
      // saveAs, as the other download tests do: path() does not settle for a persistent context's download here
      const file = path.join(dirs[2]!, download.suggestedFilename());
      await download.saveAs(file);
      return readFileSync(file);
    };
    const svg = (await saved('SVG')).toString('utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('recharts-line');
    const png = await saved('PNG');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.length).toBeGreaterThan(5000);
    expect(app.problems).toEqual([]);
  });
});
