/**
 * The budget chart at 1,000 turns (browser mode, Chromium): a generated session replayed through legacy and
 * recent-window by the CLI, kept in the app's recent recordings and opened from the Overview. The chart shows the
 * whole recording with markers grouped where they are dense and legend counts in turns, its y axis scaled to the
 * figures (the window line on demand); the brush and the wheel zoom it to a range, and the y axis follows the turns
 * shown; a compaction turn shows the estimate it was decided on above the threshold, as its cause line says; equal
 * lanes do not hide each other; a click on the plot selects the turn under the pointer; it saves as SVG and PNG.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Recording } from '../../src/replay';
import { describeWithChromium, saveScreenshot, saveScreenshotsAtSizes, SCREENSHOT_SIZES } from './helpers';
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

const chartTop = async (page: Page) => Number(await page.getByTestId('budget-chart').getAttribute('data-top'));

/** The lanes the chart draws, in order. */
const LANES = ['legacy', 'recent-window'];

/** The highest figure the chart draws (precheck measure) on turns [start, end]: estimates and those compactions were decided on. */
function highestFigure(recording: Recording, start: number, end: number): number {
  let highest = 0;
  for (const lane of LANES) {
    for (const record of recording.turns[lane]!.slice(start, end + 1)) {
      highest = Math.max(highest, record.precheck.estimatedTokens);
      for (const event of record.events)
        if (event.type === 'compaction' && event.cause?.measure === 'precheck')
          highest = Math.max(highest, event.cause.tokens);
    }
  }
  return highest;
}

const compacted = (record: Recording['turns'][string][number]) => record.events.some((e) => e.type === 'compaction');

/** The plot area (the grid's box) and the x of a turn in the range shown. */
async function plotBox(page: Page) {
  const grid = (await page.locator('.budget-chart .recharts-cartesian-grid').boundingBox())!;
  const [start, end] = await chartRange(page);
  return { ...grid, xOf: (turn: number) => grid.x + ((turn - start!) / Math.max(1, end! - start!)) * grid.width };
}

/** Wheel steps over the plot at `x` until `done` (a real wheel event each, Chromium's own). */
async function wheelUntil(page: Page, x: number, deltaY: number, done: () => Promise<boolean>) {
  const grid = await plotBox(page);
  // a turn outside the range shown: the plot's nearest edge
  await page.mouse.move(Math.min(grid.x + grid.width - 1, Math.max(grid.x + 1, x)), grid.y + grid.height / 2);
  for (let step = 0; step < 40 && !(await done()); step++) {
    const before = (await chartRange(page)).join('-');
    await page.mouse.wheel(0, deltaY);
    await expect.poll(async () => (await chartRange(page)).join('-')).not.toBe(before);
  }
  expect(await done()).toBe(true);
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
    // the y axis is scaled to the figures drawn, not to the window (200,000): the window line is off
    const highest = highestFigure(recording, 0, LONG_RECORDING_TURNS - 1);
    expect(await chartTop(page)).toBeGreaterThanOrEqual(highest);
    expect(await chartTop(page)).toBeLessThan(highest * 1.3);
    expect(await page.locator('.budget-chart__window').count()).toBe(0);
    const screenshots = await saveScreenshotsAtSizes(page, 'budget-chart-1000-turns');
    expect(screenshots[0]).toMatch(/budget-chart-1000-turns-1280x800\.png$/);
  });

  it('draws the window line on demand, the y axis then reaching the window', async () => {
    const toggle = page.getByRole('checkbox', { name: 'window line' });
    // at each size: the switch, like the zoom, starts again where the workspace lays the chart out anew
    await atEachSize('budget-chart-1000-turns-window', async () => {
      await toggle.check();
      // a horizontal line has no height: attached, not "visible" to Playwright
      await page.locator('.budget-chart__window line').waitFor({ state: 'attached' });
      expect(await chartTop(page)).toBeGreaterThanOrEqual(200_000);
    });
    await toggle.uncheck();
    await expect.poll(() => page.locator('.budget-chart__window').count()).toBe(0);
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
    // the y axis follows the turns shown
    const highest = highestFigure(recording, start!, end!);
    expect(await chartTop(page)).toBeGreaterThanOrEqual(highest);
    expect(await chartTop(page)).toBeLessThan(highest * 1.3);
    await saveScreenshot(page, 'budget-chart-1000-turns-brushed');
  });

  /** Out to the whole recording with the wheel, then in around `anchor` until `done`. */
  async function wheelZoom(anchor: number, done: (start: number, end: number) => boolean) {
    let grid = await plotBox(page);
    const whole = `0-${LONG_RECORDING_TURNS - 1}`;
    await wheelUntil(page, grid.x + grid.width / 2, 400, async () => (await chartRange(page)).join('-') === whole);
    grid = await plotBox(page);
    await wheelUntil(page, grid.xOf(anchor), -300, async () => {
      const [start, end] = await chartRange(page);
      return done(start!, end!);
    });
    return grid;
  }

  /**
   * At each screenshot size, `check` and a screenshot: the zoom is set again at each size (the Replay workspace lays
   * the chart out anew when the width changes its orientation, and the chart's zoom starts again from everything).
   */
  async function atEachSize(name: string, check: () => Promise<void>) {
    const before = page.viewportSize()!;
    for (const size of SCREENSHOT_SIZES) {
      await page.setViewportSize(size);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await check();
      await saveScreenshot(page, `${name}-${size.width}x${size.height}`);
    }
    await page.setViewportSize(before);
  }

  it('zooms with the wheel around the pointer and rescales the y axis to the turns shown', async () => {
    // around a turn before either lane compacts: the turn under the pointer stays under it
    const firstCompaction = Math.min(...LANES.map((lane) => recording.turns[lane]!.findIndex(compacted)));
    const anchor = Math.floor(firstCompaction / 4);
    expect(anchor).toBeGreaterThan(5);
    await atEachSize('budget-chart-1000-turns-zoomed', async () => {
      const wholeTop = await wheelZoom(0, () => true).then(() => chartTop(page));
      const grid = await wheelZoom(anchor, (start, end) => end - start <= anchor - 2);
      const x = grid.xOf(anchor);
      const [start, end] = await chartRange(page);
      // (within 3 turns: where the whole recording is shown a px is more than a turn; a zoom about the centre or an
      // edge would put hundreds of turns or the whole anchor's offset there)
      expect(Math.abs(start! + ((x - grid.x) / grid.width) * (end! - start!) - anchor)).toBeLessThanOrEqual(3);
      // the first turns' figures are far below the whole recording's: the axis comes down to them
      const highest = highestFigure(recording, start!, end!);
      expect(await chartTop(page), `${start}-${end}: ${highest}`).toBeLessThan(wholeTop);
      expect(await chartTop(page)).toBeGreaterThanOrEqual(highest);
      expect(await chartTop(page)).toBeLessThan(highest * 1.3);
      // the brush follows the wheel: its first traveller where the range starts (recharts' brush scale runs over
      // its width less a traveller's)
      const brush = (await page.locator('.budget-chart .recharts-brush > rect').first().boundingBox())!;
      const traveller = (await page.locator('.budget-chart .recharts-brush-traveller').first().boundingBox())!;
      const startX = brush.x + (start! / (LONG_RECORDING_TURNS - 1)) * (brush.width - traveller.width);
      expect(Math.abs(traveller.x - startX)).toBeLessThan(3);
    });
  });

  it('shows both lanes where their figures are the same', async () => {
    // the first turns (before either lane compacts) are the same in both lanes
    const [start, end] = await chartRange(page);
    expect(end! - start!).toBeLessThan(LONG_RECORDING_TURNS - 1);
    for (let turn = start!; turn <= end!; turn++)
      expect(recording.turns['recent-window']![turn]!.precheck.estimatedTokens).toBe(
        recording.turns.legacy![turn]!.precheck.estimatedTokens,
      );
    // the later lane is dashed, its gaps over the first lane's dashes: both colours show along the same line
    const strokes = await page
      .locator('.budget-chart .recharts-line:not(.budget-chart__before-compaction) path.recharts-curve')
      .evaluateAll((paths) =>
        paths.map((p) => [
          // the colour the lane is drawn in (a hover or tooltip state can restyle both lines alike for a moment)
          p.getAttribute('stroke'),
          p.getAttribute('stroke-dasharray'),
          p.getAttribute('stroke-dashoffset'),
        ]),
      );
    expect(strokes.map(([, dash, offset]) => [dash, offset])).toEqual([
      [null, null],
      ['8 8', '8'],
    ]);
    expect(new Set(strokes.map(([stroke]) => stroke)).size).toBe(2);
  });

  it('plots a compaction turn as its cause line says: the estimate it was decided on, above the threshold', async () => {
    const legacy = recording.turns.legacy!;
    const turn = legacy.findIndex((r) =>
      r.events.some((e) => e.type === 'compaction' && e.cause?.measure === 'precheck'),
    );
    const event = legacy[turn]!.events.find((e) => e.type === 'compaction')!;
    if (event.type !== 'compaction' || event.cause?.measure !== 'precheck') throw new Error('no precheck compaction');
    const cause = event.cause;
    const n = (value: number) => value.toLocaleString('en-US');
    await atEachSize('budget-chart-compaction-turn', async () => {
      // zoomed in around the compaction turn, which a click selects
      await wheelZoom(turn, (start, end) => end - start <= 12 && start <= turn && end >= turn);
      const grid = await plotBox(page);
      await page.mouse.click(grid.xOf(turn), grid.y + grid.height * 0.9);
      await expect.poll(() => selectedTurn(page)).toBe(String(turn));
      expect(await page.getByTestId('compaction-cause').first().textContent()).toContain(
        `precheck estimate ${n(cause.tokens)} (assembled messages + system prompt + prompt) > compaction threshold ${n(cause.limit)}`,
      );
      // the chart at that turn: legacy's dot at the estimate before the compaction, above the threshold line, and a
      // line from it down to the estimate after it, which legacy's line plots
      const top = await chartTop(page);
      // px from the top of the page where the y axis puts `value` (within a px: the plot is 70 px tall or more)
      const yOf = (value: number) => grid.y + grid.height * (1 - value / top);
      const near = (y: number, value: number) => expect(Math.abs(y - yOf(value))).toBeLessThan(1.5);
      const svg = (await page.locator('.budget-chart svg.recharts-surface').boundingBox())!;
      const dot = page.locator(`.budget-chart__before-compaction-dot[data-lane="legacy"][data-turn="${turn}"]`);
      expect(Number(await dot.getAttribute('data-tokens'))).toBe(cause.tokens);
      const cx = Number(await dot.getAttribute('cx'));
      const cy = Number(await dot.getAttribute('cy'));
      expect(Math.abs(cx + svg.x - grid.xOf(turn))).toBeLessThan(2);
      near(cy + svg.y, cause.tokens);
      const threshold = Number(await page.locator('.budget-chart__threshold line').getAttribute('y1'));
      near(threshold + svg.y, cause.limit);
      expect(cy).toBeLessThan(threshold);
      const drops = await page
        .locator('.budget-chart__drop line')
        .evaluateAll((lines) => lines.map((l) => ['x1', 'y1', 'x2', 'y2'].map((a) => Number(l.getAttribute(a)))));
      const drop = drops.find(([x1, y1]) => Math.abs(x1! - cx) < 1 && Math.abs(y1! - cy) < 1)!;
      near(drop[3]! + svg.y, legacy[turn]!.precheck.estimatedTokens);
    });
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
