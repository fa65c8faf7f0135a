/**
 * Issue 34 in the built app: a lane keeps its colour from the streaming replay to the finished one, into a
 * subagent's view (a subagent lane in the colour of the lane it descends from) and into the exported HTML report;
 * and a garbage `.jsonl` beside the sessions says in its row why it cannot be replayed (the form says it before
 * Start). Screenshots at 1280×800 and 1920×1080.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSession, writeGeneratedSessions } from '../../src/transcripts';
import { describeWithChromium, loadSessionFolder, saveScreenshotsAtSizes, startApp, type RunningApp } from './helpers';

/** Each lane's colour as the timeline's head shows it: lane label → computed swatch colour. */
async function timelineColors(page: Page): Promise<Record<string, string>> {
  return page
    .locator('.timeline__lane-head')
    .evaluateAll((heads) =>
      Object.fromEntries(
        heads.map((head) => [
          head.querySelector('.mono')!.textContent!,
          getComputedStyle(head.querySelector('.legend-swatch')!).backgroundColor,
        ]),
      ),
    );
}

/** Each lane's colour in the HTML report: its chart line (title "<label> assembled tokens") → computed stroke. */
async function reportColors(page: Page): Promise<Record<string, string>> {
  return page
    .locator('svg.chart polyline.line')
    .evaluateAll((lines) =>
      Object.fromEntries(
        lines.map((line) => [
          line.querySelector('title')!.textContent!.replace(/ assembled tokens$/, ''),
          getComputedStyle(line).stroke,
        ]),
      ),
    );
}

describeWithChromium('browser mode: one colour per lane, and a garbage .jsonl in the list', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-colours-'));
    // long enough to be read while it streams; its subagent lanes join as their spawns are reached
    await writeGeneratedSessions(
      generateSession({ turns: 400, seed: 'e2e-lane-colours', subagents: 2, contextWindow: 64_000 }),
      stateDir,
    );
    writeFileSync(
      path.join(stateDir, 'agents', 'main', 'sessions', 'garbage.jsonl'),
      'this is not json\n{"broken": \n',
    );
    app = await startApp(chromiumPath());
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('lists the garbage .jsonl with why it cannot be replayed, and the form says it before Start', async () => {
    await loadSessionFolder(page, stateDir);
    const row = page.locator('[data-testid="session-row"]', { hasText: 'garbage' });
    const problem = row.getByTestId('session-problem');
    await expect
      .poll(() => problem.textContent(), { timeout: 60_000 })
      .toBe(
        'cannot replay garbage.jsonl is not an OpenClaw session transcript: none of its 2 line(s) is a session header ' +
          'or entry (2 problem(s); the first, line 1: first line is not a valid session header (not valid JSON: ' +
          'Unexpected token)).',
      );
    expect(await row.getByTestId('session-turns').textContent()).toBe('—');
    await row.click();
    const form = page.getByRole('form', { name: 'Replay settings' });
    await expect
      .poll(() => form.getByTestId('replay-session-problem').textContent())
      .toMatch(/^This session cannot be replayed: garbage\.jsonl is not an OpenClaw session transcript/);
    expect(await form.getByRole('button', { name: 'Start replay' }).isDisabled()).toBe(true);
    await saveScreenshotsAtSizes(page, 'sessions-garbage-row', { reveal: row });
  });

  it('draws each lane in one colour: streaming, finished, in a subagent’s view and in the HTML report', async () => {
    await page.locator('[data-testid="session-row"]', { hasText: 'agent:main:main' }).first().click();
    const form = page.getByRole('form', { name: 'Replay settings' });
    const plugin = form.getByRole('checkbox', { name: /plugin:recent-window/ });
    if ((await plugin.count()) > 0 && (await plugin.isChecked())) await plugin.uncheck();
    const legacy = form.getByRole('checkbox', { name: /^legacy/ });
    if (!(await legacy.isChecked())) await legacy.check();
    await form.getByLabel('More lanes (lane specs, space-separated)').fill('legacy?window=100000&label=w100k');
    await form.getByRole('button', { name: 'Start replay' }).click();

    const streaming = page.getByTestId('replay-streaming');
    await streaming.waitFor({ timeout: 60_000 });
    await expect.poll(() => page.locator('.timeline__lane-head').count(), { timeout: 60_000 }).toBe(2);
    const whileStreaming = await timelineColors(page);
    // read while the replay still ran (the progress strip shows only then)
    expect(await streaming.count()).toBe(1);
    expect(Object.keys(whileStreaming)).toEqual(['legacy', 'w100k']);
    expect(new Set(Object.values(whileStreaming)).size).toBe(2);
    await saveScreenshotsAtSizes(page, 'lane-colours-streaming');

    await streaming.waitFor({ state: 'detached', timeout: 600_000 });
    await expect.poll(() => page.locator('.replay-view__meta').textContent()).toMatch(/replayed in/);
    expect(await timelineColors(page)).toEqual(whileStreaming);
    await saveScreenshotsAtSizes(page, 'lane-colours-finished');

    // each subagent's view (its title names it): its lanes named after the lanes they descend from, in their colours
    const pick = page.locator('.replay-view__session-pick select');
    const subagents = await pick
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).slice(1));
    expect(subagents.length).toBeGreaterThan(0);
    const heading = page.getByRole('heading', { level: 1 });
    const childLanes: string[] = [];
    for (const sessionId of subagents) {
      await pick.selectOption(sessionId);
      await expect.poll(() => heading.textContent()).toMatch(/^Replay subagent [0-9a-f]{8} · child of /);
      for (const [label, color] of Object.entries(await timelineColors(page))) {
        childLanes.push(label);
        expect([label, color]).toEqual([label, whileStreaming[label]]);
      }
    }
    // both lanes replayed the subagents (in the streaming replay their lanes were appended after both root lanes)
    expect(new Set(childLanes)).toEqual(new Set(['legacy', 'w100k']));
    await saveScreenshotsAtSizes(page, 'lane-colours-subagent');

    // the HTML report: each lane's chart line (the subagent charts' too) in the app's colour
    const [download] = await Promise.all([
      // the export is built on the Node side from the whole recording: slow on a loaded machine
      page.waitForEvent('download', { timeout: 180_000 }),
      page.getByRole('button', { name: 'Export HTML report' }).click(),
    ]);
    const file = path.join(stateDir, download.suggestedFilename());
    await download.saveAs(file);
    const report = await app.browser.context.newPage();
    await report.setContent(readFileSync(file, 'utf8'));
    const inReport = await reportColors(report);
    // the report names a subagent lane as the recording does, "legacy › agent:main:subagent:…"
    expect(Object.keys(inReport).filter((label) => label.includes(' › ')).length).toBe(childLanes.length);
    for (const [label, color] of Object.entries(inReport))
      expect([label, color]).toEqual([label, whileStreaming[label.split(' › ')[0]!]]);
    // the report's head, lane table and charts (the whole report is tens of thousands of pixels tall)
    await saveScreenshotsAtSizes(report, 'lane-colours-html-report', {
      fullPage: false,
      reveal: report.locator('svg.chart').first(),
    });
    await report.close();
    expect(app.problems).toEqual([]);
  }, 900_000);
});
