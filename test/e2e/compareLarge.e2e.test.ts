/**
 * The Compare view on a long generated session (browser mode, Chromium): a turn with over 1,000 aligned messages
 * renders and scrolls with only the rows in view in the DOM. The wall times (to render the turn, unfold the largest
 * message, scroll to its end) are written to test-results/compare-timing.json for the record, not asserted: they
 * follow the machine's load.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithChromium,
  PROJECT_ROOT,
  saveScreenshot,
  TEST_RESULTS_DIR,
  startApp,
  type RunningApp,
} from './helpers';

const TURNS = 130;

/** ms from clicking `selector` until the browser has painted what the click rendered. */
async function timeClick(page: Page, selector: string): Promise<number> {
  return page.evaluate(async (sel) => {
    const target = document.querySelector<HTMLElement>(sel)!;
    const start = performance.now();
    target.click();
    await new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    return performance.now() - start;
  }, selector);
}

describeWithChromium('browser mode: Compare on a long session', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let dirs: string[];

  beforeAll(async () => {
    dirs = ['cs-e2e-config-', 'cs-e2e-state-', 'cs-e2e-gen-'].map((p) => mkdtempSync(path.join(tmpdir(), p)));
    const cli = path.join(PROJECT_ROOT, 'out', 'node', 'cli.mjs');
    execFileSync(process.execPath, [cli, 'generate', '--turns', String(TURNS), '--seed', '7', '--out', dirs[2]!]);
    app = await startApp(
      chromiumPath(),
      { CONTEXTSCOPE_CONFIG_DIR: dirs[0], OPENCLAW_STATE_DIR: dirs[1] },
      { viewport: { width: 1600, height: 1000 }, colorScheme: 'dark' },
    );
    page = app.page;
  });

  afterAll(async () => {
    await app?.stop();
    for (const dir of dirs ?? []) rmSync(dir, { recursive: true, force: true });
  });

  it('replays the generated session through legacy and recent-window', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Sessions' }).click();
    await page.getByLabel(/OpenClaw state dir or folder of transcripts/).fill(dirs[2]!);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    // the rows are the bundled demos' until the generated folder is listed
    await page.locator('p.muted', { hasText: `Listing ${dirs[2]!}` }).waitFor();
    await page.getByTestId('session-row').first().click();
    const pluginLane = page.getByRole('checkbox', { name: /plugin:recent-window/ });
    if (!(await pluginLane.isChecked())) await pluginLane.check();
    await page.getByRole('button', { name: 'Start replay' }).click();
    await page.getByRole('dialog', { name: 'Run plugin code?' }).getByRole('button', { name: 'Run once' }).click();
    await page.getByTestId('timeline').waitFor({ timeout: 120_000 });
    // the timeline shows at the first streamed turn: wait for the whole replay (the strip below needs every turn)
    await page.getByTestId('replay-streaming').waitFor({ state: 'detached', timeout: 120_000 });
  });

  it('renders a turn of over 1,000 aligned messages and scrolls it windowed', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Compare' }).click();
    await page.getByTestId('compare-view').waitFor();
    const last = TURNS - 1;
    // the turn strip is windowed too: bring the last turn into it first
    const selector = `[data-testid="compare-turn"][data-turn="${last}"]`;
    // scrolled again until it shows: the strip may still be laying out (and growing) when first scrolled
    await expect
      .poll(
        async () => {
          await page.getByTestId('compare-turns').evaluate((el) => (el.scrollLeft = el.scrollWidth));
          return page.locator(selector).count();
        },
        { timeout: 60_000 },
      )
      .toBeGreaterThan(0);
    const renderMs = await timeClick(page, selector);
    expect(await page.locator('.compare-view__turn-title').textContent()).toBe(`Turn ${TURNS} of ${TURNS}`);
    const table = page.getByTestId('aligned-table');
    const rows = Number(await table.getAttribute('data-aligned-rows'));
    expect(rows).toBeGreaterThanOrEqual(1000);
    // open every fold, so the table lists every aligned row (the largest fold is timed); only the folds in view are
    // in the DOM, so the body is scrolled down a page at a time until none is left anywhere
    let unfoldMs = 0;
    const body = page.getByTestId('aligned-body');
    await body.evaluate((el) => (el.scrollTop = 0));
    for (let guard = 0; guard < 500; guard++) {
      if ((await page.getByTestId('aligned-fold').count()) > 0) {
        const sizes = await page
          .getByTestId('aligned-fold')
          .evaluateAll((folds) => folds.map((f) => Number(/^… (\d+)/.exec(f.textContent ?? '')?.[1] ?? 0)));
        const largest = sizes.indexOf(Math.max(...sizes));
        await page
          .getByTestId('aligned-fold')
          .nth(largest)
          .evaluate((f) => f.setAttribute('data-timed', 'yes'));
        unfoldMs = Math.max(unfoldMs, await timeClick(page, '[data-timed="yes"]'));
        continue;
      }
      const atEnd = await body.evaluate(async (el) => {
        const end = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
        el.scrollTop += el.clientHeight;
        await new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
        return end;
      });
      if (atEnd) break;
    }
    expect(Number(await table.getAttribute('aria-rowcount')) - 1).toBe(rows);
    const inDom = await page.getByTestId('aligned-row').count();
    expect(inDom).toBeLessThan(80);

    const scrollMs = await page.getByTestId('aligned-body').evaluate(async (body) => {
      const start = performance.now();
      body.scrollTop = body.scrollHeight;
      await new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
      return performance.now() - start;
    });
    const lastRowId = await page.getByTestId('aligned-row').last().getAttribute('data-row-id');
    expect(await page.locator(`[data-testid="aligned-row"][data-row-id="${lastRowId}"]`).isVisible()).toBe(true);
    expect(await page.getByTestId('aligned-row').count()).toBeLessThan(80);

    const figures = {
      turn: TURNS,
      alignedRows: rows,
      rowsInDom: inDom,
      renderTurnMs: Math.round(renderMs),
      unfoldLargestMs: Math.round(unfoldMs),
      scrollToEndMs: Math.round(scrollMs),
    };
    mkdirSync(TEST_RESULTS_DIR, { recursive: true });
    writeFileSync(path.join(TEST_RESULTS_DIR, 'compare-timing.json'), `${JSON.stringify(figures, null, 2)}\n`);
    // wall times are figures, not assertions (they follow the machine's load; the brief keeps targets in bench/)
    console.log(`Compare view timing: ${JSON.stringify(figures)}`);
    await saveScreenshot(page, 'compare-large-dark');
  });

  it('loaded with no console errors, page errors or failed requests', () => {
    expect(app.problems).toEqual([]);
  });
});
