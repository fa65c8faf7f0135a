/**
 * The Replay view's layout with three lanes (browser mode, Chromium, 1280×800 then 1920×1080): a generated 300-turn
 * session with subagents replayed through legacy, recent-window and summary-tree from the Sessions form. While it
 * streams and once it is done, the timeline shows at least 8 whole rows above a turn detail of at least 150 px; the
 * three lanes fit the table's width (a click never scrolls it sideways under the Turn column); the rows scrolled under
 * the sticky head never show through it; dragging the split up never hides the table. Screenshots in test-results/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSession, writeGeneratedSessions } from '../../src/transcripts';
import { describeWithChromium, saveScreenshot, saveScreenshotsAtSizes, startApp, type RunningApp } from './helpers';

/** The timeline rows wholly on screen: below the sticky head, inside the scroller, the master pane and the window. */
async function visibleTimelineRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const scroller = document.querySelector('[data-testid="timeline"]')!;
    const head = scroller.querySelector('thead')!.getBoundingClientRect();
    const box = scroller.getBoundingClientRect();
    const pane = document.querySelector('[data-testid="pane-master"]')!.getBoundingClientRect();
    const top = Math.max(head.bottom, pane.top, 0);
    const bottom = Math.min(box.top + scroller.clientHeight, pane.bottom, window.innerHeight);
    return [...scroller.querySelectorAll('[data-testid="timeline-row"]')]
      .map((row) => row.getBoundingClientRect())
      .filter((row) => row.top >= top - 0.5 && row.bottom <= bottom + 0.5).length;
  });
}

/** The detail pane's height on screen, and the room below the selected turn's heading in it. */
async function detailRoom(page: Page): Promise<{ height: number; belowHeading: number }> {
  return page.evaluate(() => {
    const pane = document.querySelector('[data-testid="pane-detail"]')!.getBoundingClientRect();
    const heading = document.querySelector('[data-testid="turn-view"] h2')!.getBoundingClientRect();
    const bottom = Math.min(pane.bottom, window.innerHeight);
    return { height: bottom - pane.top, belowHeading: bottom - heading.bottom };
  });
}

/** What of the timeline lies beyond its width (px it could scroll sideways) and how far it is scrolled. */
function sideways(page: Page): Promise<{ overflow: number; scrollLeft: number }> {
  return page
    .getByTestId('timeline')
    .evaluate((t) => ({ overflow: t.scrollWidth - t.clientWidth, scrollLeft: t.scrollLeft }));
}

/**
 * Points across the sticky head (each head row, every 12 px) where the topmost element is not part of the head:
 * a row scrolled under it (its text or a pill) showing through.
 */
function headSeeThrough(page: Page): Promise<string[]> {
  return page.getByTestId('timeline').evaluate((scroller) => {
    const head = scroller.querySelector('thead')!;
    const box = scroller.getBoundingClientRect();
    const through: string[] = [];
    for (const row of head.querySelectorAll('tr')) {
      const r = row.getBoundingClientRect();
      for (const y of [r.top + 2, r.top + r.height / 2, r.bottom - 2]) {
        for (let x = box.left + 2; x < box.left + scroller.clientWidth - 2; x += 12) {
          const hit = document.elementFromPoint(x, y);
          if (hit && !head.contains(hit))
            through.push(`${hit.tagName}.${hit.className} at ${Math.round(x)},${Math.round(y)}`);
        }
      }
    }
    return through;
  });
}

const settled = (page: Page) =>
  page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

describeWithChromium('browser mode: the replay layout with three lanes', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-layout-lanes-'));
    await writeGeneratedSessions(generateSession({ turns: 300, seed: '7', subagents: 3 }), stateDir);
    app = await startApp(chromiumPath(), { OPENCLAW_STATE_DIR: stateDir }, { viewport: { width: 1280, height: 800 } });
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('at 1280×800 shows 8 timeline rows and a readable detail while streaming and after', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Sessions' }).click();
    await page.locator('[data-testid="session-row"]', { hasText: 'agent:main:main' }).first().click();
    const form = page.getByRole('form', { name: 'Replay settings' });
    for (const lane of [/^legacy/, /plugin:recent-window/, /plugin:summary-tree/]) {
      const box = form.getByRole('checkbox', { name: lane });
      await expect.poll(() => box.count(), { timeout: 30_000 }).toBe(1);
      if (!(await box.isChecked())) await box.check();
    }
    await form.getByRole('button', { name: 'Start replay' }).click();
    // one consent per plugin (run once), then the replay streams
    const streaming = page.getByTestId('replay-streaming');
    const dialog = page.getByRole('dialog', { name: 'Run plugin code?' });
    while ((await streaming.count()) === 0) {
      if ((await dialog.count()) > 0) await dialog.getByRole('button', { name: 'Run once' }).click();
      await new Promise((r) => setTimeout(r, 200));
    }
    await expect.poll(() => page.getByTestId('timeline-row').count(), { timeout: 60_000 }).toBeGreaterThan(12);
    // the runtime held still while the page is measured, so the replay cannot end first
    const runtime = app.server.child.pid!;
    process.kill(runtime, 'SIGSTOP');
    try {
      await settled(page);
      expect(await streaming.count()).toBe(1);
      const rows = await visibleTimelineRows(page);
      const detail = await detailRoom(page);
      console.log(`streaming: ${rows} rows, detail ${Math.round(detail.height)} px`);
      await saveScreenshot(page, 'replay-three-lanes-streaming-1280x800', { fullPage: false });
      expect(rows).toBeGreaterThanOrEqual(8);
      expect(detail.height).toBeGreaterThanOrEqual(150);
      expect(detail.belowHeading).toBeGreaterThanOrEqual(90);
    } finally {
      process.kill(runtime, 'SIGCONT');
    }
    await streaming.waitFor({ state: 'detached', timeout: 300_000 });
    await settled(page);
    const rows = await visibleTimelineRows(page);
    const detail = await detailRoom(page);
    console.log(`done: ${rows} rows, detail ${Math.round(detail.height)} px`);
    expect(rows).toBeGreaterThanOrEqual(8);
    expect(detail.height).toBeGreaterThanOrEqual(150);
    expect(detail.belowHeading).toBeGreaterThanOrEqual(90);
  }, 420_000);

  it('fits three lanes in the width: a click on a row with events does not scroll the table sideways', async () => {
    expect((await sideways(page)).overflow).toBeLessThanOrEqual(0);
    const row = page.locator('[data-testid="timeline-row"]', { has: page.locator('[data-testid="cell-events"] .tag') });
    await page.getByTestId('timeline').evaluate((t) => (t.scrollTop = 30 * 28));
    await row.first().waitFor();
    // a click where a person clicks (the last lane's events), not Playwright's scroll-into-view
    const cell = (await row.first().getByTestId('cell-events').last().boundingBox())!;
    await page.mouse.click(cell.x + cell.width / 2, cell.y + cell.height / 2);
    await settled(page);
    expect(await sideways(page)).toEqual({ overflow: 0, scrollLeft: 0 });
    // the first lane's head is in view beside the Turn column
    const [turnHead, firstLane] = await page
      .locator('.timeline__turn-head, .timeline__lane-head')
      .evaluateAll((heads) => heads.slice(0, 2).map((h) => h.getBoundingClientRect().toJSON() as DOMRect));
    expect(firstLane!.left).toBeGreaterThanOrEqual(turnHead!.right - 1);
  });

  it('shows nothing of the rows scrolled under the sticky head, at both sizes', async () => {
    for (const size of [
      { width: 1280, height: 800 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      await settled(page);
      // half a row under the head: the rows' text and pills lie behind it
      await page.getByTestId('timeline').evaluate((t) => (t.scrollTop = 36 * 28 + 14));
      await settled(page);
      expect(await headSeeThrough(page)).toEqual([]);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await saveScreenshotsAtSizes(page, 'replay-three-lanes', { fullPage: false });
  });

  it('keeps the chart and a few timeline rows when the split is dragged up', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await settled(page);
    const separator = (await page.locator('.replay-workspace__separator').boundingBox())!;
    await page.mouse.move(separator.x + separator.width / 2, separator.y + separator.height / 2);
    await page.mouse.down();
    await page.mouse.move(separator.x + separator.width / 2, 80, { steps: 8 });
    await page.mouse.up();
    await settled(page);
    const rows = await visibleTimelineRows(page);
    console.log(`split dragged up: ${rows} rows`);
    await saveScreenshot(page, 'replay-three-lanes-split-dragged-1280x800', { fullPage: false });
    expect(rows).toBeGreaterThanOrEqual(3);
    expect(app.problems).toEqual([]);
  });
});
