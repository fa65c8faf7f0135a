/**
 * The Replay view's split at real length (browser mode, Chromium): a generated 1,000-turn session replayed through
 * legacy and recent-window by the CLI, opened from the recent recordings at 1280×800, then 1400×900 and 1920×1080.
 * At each size the timeline shows a usable number of whole rows in its scroll viewport, the chart reads, and the
 * selected turn's detail keeps part of the window (screenshots in test-results/).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chartLayout, readabilityProblems } from './chartLayout';
import { describeWithChromium, saveScreenshot } from './helpers';
import { openLongRecording, type LongRecordingApp } from './longRecordingApp';

/** the plot area's least height (px) at which its axis labels, band labels and markers read */
const MIN_PLOT_HEIGHT = 72;

/**
 * The timeline rows wholly on screen: inside the timeline's scroller below its sticky head, inside the master pane
 * (which scrolls when it is too short) and inside the window.
 */
async function visibleTimelineRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const scroller = document.querySelector('[data-testid="timeline"]')!;
    const head = scroller.querySelector('thead')!.getBoundingClientRect();
    const box = scroller.getBoundingClientRect();
    const pane = document.querySelector('[data-testid="pane-master"]')!.getBoundingClientRect();
    const top = Math.max(head.bottom, pane.top, 0);
    const bottom = Math.min(box.top + scroller.clientHeight, pane.bottom, window.innerHeight);
    const rows = [...scroller.querySelectorAll('[data-testid="timeline-row"]')].map((row) =>
      row.getBoundingClientRect(),
    );
    return rows.filter((row) => row.top >= top - 0.5 && row.bottom <= bottom + 0.5).length;
  });
}

/** The selected turn's heading is in the detail pane and on screen, with room below it. */
async function detailRoom(page: Page): Promise<{ heading: number; pane: { y: number; height: number } }> {
  return page.evaluate(() => {
    const pane = document.querySelector('[data-testid="pane-detail"]')!.getBoundingClientRect();
    const heading = document.querySelector('[data-testid="turn-view"] h2')!.getBoundingClientRect();
    return { heading: Math.min(pane.bottom, window.innerHeight) - heading.bottom, pane: pane };
  });
}

const settled = (page: Page) =>
  page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

describeWithChromium('browser mode: the replay split at 1,000 turns', (chromiumPath) => {
  let app: LongRecordingApp;
  let page: Page;

  /**
   * Opens the recording afresh in a window of this size (a reload: the first split follows the window, no split was
   * moved) and reports what the workspace shows there.
   */
  async function layoutAt(width: number, height: number) {
    await page.setViewportSize({ width, height });
    await page.reload();
    await page.getByTestId('timeline').waitFor({ timeout: 60_000 });
    await expect.poll(async () => (await chartLayout(page)).yTicks.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await settled(page);
    const layout = await chartLayout(page);
    const rows = await visibleTimelineRows(page);
    const detail = await detailRoom(page);
    const orientation = await page.getByTestId('replay-workspace').getAttribute('data-orientation');
    console.log(
      `${width}×${height} (${orientation}): ${rows} timeline rows in view; plot ${Math.round(layout.plot.height)} px; ` +
        `master ${Math.round(layout.master.height)} px (content ${layout.master.scrollHeight}); detail from y ` +
        `${Math.round(detail.pane.y)}, ${Math.round(detail.pane.height)} px, ${Math.round(detail.heading)} px below its heading`,
    );
    return { layout, rows, detail, orientation };
  }

  beforeAll(async () => {
    app = await openLongRecording(chromiumPath(), { width: 1280, height: 800 });
    page = app.page;
  }, 300_000);

  afterAll(async () => {
    await app?.close();
  });

  it('at 1280×800 the timeline shows at least 8 whole rows, the chart reads and the turn detail keeps room', async () => {
    const { layout, rows, detail } = await layoutAt(1280, 800);
    await saveScreenshot(page, 'replay-split-1000-turns-1280x800');
    expect(rows).toBeGreaterThanOrEqual(8);
    expect(readabilityProblems(layout, MIN_PLOT_HEIGHT)).toEqual([]);
    // the master pane fits its content: nothing of the chart or the timeline is scrolled out of it
    expect(layout.master.scrollHeight).toBeLessThanOrEqual(layout.master.clientHeight + 1);
    // the turn's heading, its prompt and the message search are in view
    expect(detail.pane.height).toBeGreaterThanOrEqual(150);
    expect(detail.heading).toBeGreaterThanOrEqual(100);
  });

  it('at 1400×900 and 1920×1080 the timeline shows no fewer rows and the chart still reads', async () => {
    let before = 8;
    for (const [width, height, name] of [
      [1400, 900, 'replay-split-1000-turns-1400x900'],
      [1920, 1080, 'replay-split-1000-turns-1920x1080'],
    ] as const) {
      const { layout, rows, detail } = await layoutAt(width, height);
      await saveScreenshot(page, name);
      expect(rows).toBeGreaterThanOrEqual(before);
      expect(readabilityProblems(layout, MIN_PLOT_HEIGHT)).toEqual([]);
      expect(detail.pane.height).toBeGreaterThanOrEqual(150);
      expect(detail.heading).toBeGreaterThanOrEqual(100);
      before = rows;
    }
    expect(app.problems).toEqual([]);
  });
});
