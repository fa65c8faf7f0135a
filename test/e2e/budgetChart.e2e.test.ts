/**
 * The budget chart at 1,000 turns (browser mode, Chromium): a generated session replayed through legacy and
 * recent-window by the CLI, kept in the app's recent recordings and opened from the Overview. The chart shows the
 * whole recording with markers grouped where they are dense and legend counts in turns; the brush zooms it to a
 * range; a click on the plot selects the turn under the pointer; it saves as SVG and PNG.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Recording } from '../../src/replay';
import { describeWithChromium, saveScreenshot } from './helpers';
import { LONG_RECORDING_TURNS } from './longRecording';
import { openLongRecording, type LongRecordingApp } from './longRecordingApp';

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
  let app: LongRecordingApp;
  let page: Page;
  let recording: Recording;

  beforeAll(async () => {
    app = await openLongRecording(chromiumPath(), { width: 1600, height: 1000 });
    page = app.page;
    recording = app.recording;
  }, 300_000);

  afterAll(async () => {
    await app?.close();
  });

  it('shows every turn, markers grouped where dense, and legend counts in turns', async () => {
    expect(await chartRange(page)).toEqual([0, LONG_RECORDING_TURNS - 1]);
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
    expect(end).toBe(LONG_RECORDING_TURNS - 1);
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
      const file = path.join(app.workDir, download.suggestedFilename());
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
