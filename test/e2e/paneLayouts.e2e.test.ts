/**
 * Issue 34, pane layouts at 1920×1080 and 1280×800 (browser mode, Chromium): a generated 60-turn session with
 * subagents, replayed through legacy, recent-window and summary-tree from the Sessions form. A subagent's key is one
 * line in the Sessions list; beside the timeline the assembled context's Content column reads a phrase; a subagent's
 * view names its lanes after the lanes they descend from (their tabs on one line) and its title names the subagent
 * and its parent; Compare shows its three lanes whole with the message column taking the rest. Screenshots of each
 * at both sizes in test-results/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSession, writeGeneratedSessions } from '../../src/transcripts';
import { describeWithChromium, saveScreenshotsAtSizes, startApp, type RunningApp } from './helpers';

const WIDE = { width: 1920, height: 1080 };
const LAPTOP = { width: 1280, height: 800 };

const settled = (page: Page) =>
  page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await settled(page);
}

/** Each session key in the Sessions list and the lines it takes (its height over its line height). */
function sessionKeyLines(page: Page): Promise<Record<string, number>> {
  return page
    .locator('.session-cell__title')
    .evaluateAll((titles) =>
      Object.fromEntries(
        titles.map((title) => [
          title.textContent!,
          Math.round(title.getBoundingClientRect().height / parseFloat(getComputedStyle(title).lineHeight)),
        ]),
      ),
    );
}

/** Px the timeline could scroll sideways (0: its lanes fit the pane). */
function timelineOverflow(page: Page): Promise<number> {
  return page.getByTestId('timeline').evaluate((t) => t.scrollWidth - t.clientWidth);
}

describeWithChromium('browser mode: pane layouts at 1920×1080 and 1280×800', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-pane-layouts-'));
    await writeGeneratedSessions(generateSession({ turns: 60, seed: '7', subagents: 3 }), stateDir);
    app = await startApp(chromiumPath(), { OPENCLAW_STATE_DIR: stateDir }, { viewport: WIDE });
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('lists each session key on one line at 1920 px, a subagent’s too', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Sessions' }).click();
    await page.locator('[data-testid="session-row"]', { hasText: 'agent:main:main' }).first().click();
    await expect.poll(() => page.locator('.session-cell__title').count(), { timeout: 30_000 }).toBe(3);
    const lines = await sessionKeyLines(page);
    console.log(`1920: session key lines ${JSON.stringify(lines)}`);
    expect(Object.keys(lines).filter((key) => key.startsWith('agent:main:subagent:'))).toHaveLength(2);
    expect(Object.values(lines)).toEqual([1, 1, 1]);
    await saveScreenshotsAtSizes(page, 'sessions-subagent-keys', { fullPage: false });
  });

  it('gives the assembled context’s Content column a phrase beside three lanes at 1920 px', async () => {
    const form = page.getByRole('form', { name: 'Replay settings' });
    for (const lane of [/^legacy/, /plugin:recent-window/, /plugin:summary-tree/]) {
      const box = form.getByRole('checkbox', { name: lane });
      await expect.poll(() => box.count(), { timeout: 30_000 }).toBe(1);
      if (!(await box.isChecked())) await box.check();
    }
    await form.getByRole('button', { name: 'Start replay' }).click();
    // one consent per plugin (run once), then the replay streams until it ends
    const dialog = page.getByRole('dialog', { name: 'Run plugin code?' });
    const meta = page.locator('.replay-view__meta');
    while (!/replayed in/.test((await meta.count()) > 0 ? ((await meta.textContent()) ?? '') : '')) {
      if ((await dialog.count()) > 0) await dialog.getByRole('button', { name: 'Run once' }).click();
      await new Promise((r) => setTimeout(r, 250));
    }
    // a late turn: a long assembled context
    await page.getByTestId('timeline-row').last().click();
    await page.getByTestId('messages-assembled').waitFor();
    await resize(page, WIDE);
    const content = await page
      .locator('.messages__content-head')
      .first()
      .evaluate((h) => h.getBoundingClientRect().width);
    console.log(`1920: Content column ${Math.round(content)} px`);
    // about 25 characters of the message (two to seven before)
    expect(content).toBeGreaterThanOrEqual(180);
    // the master still holds the three lanes without scrolling sideways
    expect(await timelineOverflow(page)).toBeLessThanOrEqual(0);
    await saveScreenshotsAtSizes(page, 'replay-detail-content', { fullPage: false });
  }, 300_000);

  it('names a subagent’s lanes after their parents’ (tabs on one line) and the subagent in its title', async () => {
    const pick = page.locator('.replay-view__session-pick select');
    const subagent = (await pick.locator('option').nth(1).getAttribute('value'))!;
    await pick.selectOption(subagent);
    try {
      const heading = page.getByRole('heading', { level: 1 });
      await expect
        .poll(() => heading.textContent())
        .toMatch(/^Replay subagent [0-9a-f]{8} · child of agent:main:main$/);
      // the whole key in the title's tooltip
      expect(await heading.locator('[title]').getAttribute('title')).toMatch(
        /^subagent agent:main:subagent:[0-9a-f-]{36} · child of agent:main:main$/,
      );
      const laneNames = ['legacy', 'recent-window', 'summary-tree'];
      expect(await page.locator('.timeline__lane-head .mono').allTextContents()).toEqual(laneNames);
      const tabs = page.getByRole('tablist', { name: 'Lane' }).getByRole('tab');
      expect(await tabs.allTextContents()).toEqual(laneNames);
      for (const size of [WIDE, LAPTOP]) {
        await resize(page, size);
        const tops = await tabs.evaluateAll((all) => all.map((tab) => Math.round(tab.getBoundingClientRect().top)));
        expect([size.width, new Set(tops).size]).toEqual([size.width, 1]);
        expect(await timelineOverflow(page)).toBeLessThanOrEqual(0);
      }
      await saveScreenshotsAtSizes(page, 'replay-subagent-view', { fullPage: false });
    } finally {
      // back to the main session, which Compare shows next
      await pick.selectOption({ index: 0 });
    }
  });

  it('shows Compare’s three lanes whole at 1280 px, and gives the messages the room at 1920 px', async () => {
    await resize(page, LAPTOP);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Compare' }).click();
    // a turn where the lanes differ (rows every lane agrees on fold into one line): the strip shows only those
    const onlyDiffering = page.getByRole('checkbox', { name: /^Only turns where lanes differ/ });
    await onlyDiffering.check();
    await page.locator('[data-testid="compare-turn"][data-differs="true"]').last().click();
    await onlyDiffering.uncheck();
    await expect.poll(() => page.getByTestId('aligned-row').count()).toBeGreaterThan(0);
    const grid = () =>
      page.getByTestId('aligned-table').evaluate((table) => {
        const box = table.getBoundingClientRect();
        const heads = [...table.querySelectorAll('.aligned-head')].map((h) => h.getBoundingClientRect());
        const message = table.querySelector('.aligned__message')!.getBoundingClientRect();
        return {
          sideways: table.scrollWidth - table.clientWidth,
          lanes: heads.length,
          lastLaneInside: heads[heads.length - 1]!.right <= box.right,
          message: Math.round(message.width),
        };
      });
    const laptop = await grid();
    console.log(`1280: ${JSON.stringify(laptop)}`);
    expect(laptop).toMatchObject({ sideways: 0, lanes: 3, lastLaneInside: true });
    expect(laptop.message).toBeGreaterThanOrEqual(240);
    // opened at 1280, then the window grows: the grid follows it
    await resize(page, WIDE);
    const wide = await grid();
    console.log(`1920: ${JSON.stringify(wide)}`);
    expect(wide).toMatchObject({ sideways: 0, lanes: 3, lastLaneInside: true });
    expect(wide.message).toBeGreaterThanOrEqual(500);
    await saveScreenshotsAtSizes(page, 'compare-three-lanes', { fullPage: false });
    expect(app.problems).toEqual([]);
  });
});
