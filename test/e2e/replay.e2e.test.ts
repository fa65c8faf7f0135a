/**
 * The replay workflow in the built app (browser mode, Chromium): open the bundled short demo, replay it through
 * legacy + the bundled recent-window plugin with consent given in the UI, and read the result off the page.
 * The numbers are checked against the recording the app itself exports (Export JSON).
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ReplayGetResponse } from '../../src/bridge';
import {
  describeWithChromium,
  PROJECT_ROOT,
  saveScreenshot,
  TEST_RESULTS_DIR,
  chooseSession,
  startApp,
  type RunningApp,
} from './helpers';
import { importRecording } from '../../src/replay';

type Recording = NonNullable<ReplayGetResponse['recording']>;

const PLUGIN_DIR = realpathSync(path.join(PROJECT_ROOT, 'resources', 'plugins', 'recent-window'));
const count = (n: number) => n.toLocaleString('en-US');

/** Scrolls the app's main panel so `testId` is at the top (the panel scrolls, not the page). */
async function scrollMainTo(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).evaluate((element) => element.scrollIntoView({ block: 'start' }));
}

describeWithChromium('browser mode: replaying the demo session', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let configDir: string;
  let stateDir: string;
  let recording: Recording;

  beforeAll(async () => {
    configDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-config-'));
    stateDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-state-'));
    app = await startApp(chromiumPath(), { CONTEXTSCOPE_CONFIG_DIR: configDir, OPENCLAW_STATE_DIR: stateDir });
    page = app.page;
  });

  afterAll(async () => {
    await app?.stop();
    for (const dir of [configDir, stateDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('Sessions lists the short demo; chosen, its lanes are legacy and plugin:recent-window', async () => {
    await chooseSession(page, 'demo-short');
    const pluginLane = page.getByRole('checkbox', { name: /plugin:recent-window/ });
    await expect.poll(() => pluginLane.isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /legacy/ }).isChecked()).toBe(true);
    const selected = page.locator('[data-testid="session-row"][aria-selected="true"]');
    expect(await selected.locator('.session-cell__title').textContent()).toBe('agent:main:demo-short');
  });

  it('asks before running the plugin, remembers the approval in the config dir, and runs the replay to the end', async () => {
    await page.getByRole('button', { name: 'Start replay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run plugin code?' });
    expect(await dialog.getByTestId('consent-request').textContent()).toBe(`Run plugin code from ${PLUGIN_DIR}?`);
    await dialog.getByRole('button', { name: 'Approve and run' }).click();
    await page.getByTestId('timeline').waitFor({ timeout: 60_000 });
    const consent = JSON.parse(readFileSync(path.join(configDir, 'plugin-consent.json'), 'utf8')) as {
      grants: Record<string, { pluginId: string }>;
    };
    expect(Object.entries(consent.grants).map(([p, g]) => [p, g.pluginId])).toEqual([[PLUGIN_DIR, 'recent-window']]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Replay agent:main:demo-short');
  });

  it('exports the recording as JSON through the Export button', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('contextscope-agent-main-demo-short.recording.json');
    const file = path.join(TEST_RESULTS_DIR, download.suggestedFilename());
    await download.saveAs(file);
    // the file's lists are deltas against each lane's previous turn (format 2): read it as the app does
    recording = importRecording(readFileSync(file, 'utf8')) as Recording;
    expect(recording.lanes.map((lane) => [lane.id, lane.source])).toEqual([
      ['legacy', 'legacy'],
      ['recent-window', 'plugin'],
    ]);
    expect(recording.lanes[1]!.error).toBeUndefined();
  });

  it('shows one timeline row per turn with the token numbers of the recording', async () => {
    const legacy = recording.turns.legacy!;
    const plugin = recording.turns['recent-window']!;
    const rows = page.getByTestId('timeline-row');
    expect(legacy.length).toBe(12);
    // the timeline is virtualized: the rows in view are rendered, from the first turn on
    expect(await rows.count()).toBeGreaterThanOrEqual(5);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-turn'))))).toEqual(
      legacy.map((_, i) => i).slice(0, await rows.count()),
    );
    const expected = legacy.map((turn, i) => [
      `${count(turn.totals.estTokens)} / ${count(turn.budget.tokenBudget)}`,
      `${count(plugin[i]!.totals.estTokens)} / ${count(plugin[i]!.budget.tokenBudget)}`,
    ]);
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('[data-testid="cell-tokens"]')).map((td) => td.textContent)),
    );
    expect(shown).toEqual(expected.slice(0, shown.length));
    expect(await page.getByTestId('budget-caption').textContent()).toBe(
      `precheck estimate of the prompt (what the compaction threshold is compared with) · window ${count(recording.lanes[0]!.contextWindow)} · prompt budget ${count(legacy[0]!.budget.promptBudget)} (reserve ${count(legacy[0]!.budget.reserveTokens)} configured, ${count(legacy[0]!.precheck.effectiveReserveTokens)} effective)`,
    );
    await page.mouse.move(640, 24);
    await page.evaluate(() => document.querySelector('.frame__main')?.scrollTo({ top: 0 }));
    await saveScreenshot(page, 'replay-timeline');
  });

  it('opens a turn: the recent-window lane’s assembled messages with provenance badges and what it left out', async () => {
    const plugin = recording.turns['recent-window']!;
    // a turn where the plugin left messages out and sent a summary: every kind of row shows
    const turn = plugin.findIndex(
      (t) =>
        t.omitted.droppedCount + t.omitted.summarizedCount > 0 && t.assembled.some((a) => a.provenance === 'summary'),
    );
    expect(turn).toBeGreaterThan(0);
    await page.locator(`[data-testid="timeline-row"][data-turn="${turn}"]`).click();
    await page.getByTestId('turn-view').getByRole('tab', { name: 'recent-window' }).click();
    const record = plugin[turn]!;
    const turnView = page.getByTestId('turn-view');
    expect(await turnView.getByRole('heading', { level: 2 }).textContent()).toBe(`Turn ${turn + 1} of 12`);
    // the list renders the rows in view of the detail pane (windowed): from the first message on, each with its badge
    const assembled = turnView.getByTestId('messages-assembled');
    const badgeOf = (index: number) => assembled.locator(`[data-index="${index}"]`).getByTestId('provenance-badge');
    const shown = await assembled
      .getByTestId('message-row')
      .evaluateAll((trs) =>
        trs.map((tr) => [Number(tr.getAttribute('data-index')), tr.querySelector('.prov')?.textContent ?? null]),
      );
    expect(shown.map(([index]) => index)).toEqual(shown.map((_, i) => i));
    expect(shown.map(([, badge]) => badge)).toEqual(record.assembled.slice(0, shown.length).map((r) => r.provenance));
    // scrolled to the list's end, its last message is rendered with its badge
    const last = record.assembled.length - 1;
    const toListEnd = () =>
      page.evaluate(() => {
        const pane = document.querySelector<HTMLElement>('[data-testid="pane-detail"]')!;
        const list = pane.querySelector('[data-testid="messages-assembled"]')!;
        const end = list.getBoundingClientRect().bottom - pane.getBoundingClientRect().top + pane.scrollTop;
        pane.scrollTo({ top: end - pane.clientHeight });
      });
    await expect.poll(async () => (await toListEnd(), await badgeOf(last).count())).toBe(1);
    expect(await badgeOf(last).textContent()).toBe(record.assembled[last]!.provenance);
    await page.getByTestId('pane-detail').evaluate((pane) => pane.scrollTo({ top: 0 }));
    await badgeOf(0).waitFor();
    expect(await turnView.getByTestId('turn-assembled-tokens').textContent()).toBe(count(record.totals.estTokens));
    const leftOut = record.omitted.droppedCount + record.omitted.summarizedCount;
    expect(await turnView.getByTestId('left-out-section').getByRole('heading').textContent()).toBe(
      `Left out of the context${leftOut}`,
    );
    await turnView.getByTestId('message-row').first().getByRole('button').click();
    expect(await turnView.getByTestId('message-full').count()).toBe(1);
    await scrollMainTo(page, 'turn-view');
    await saveScreenshot(page, 'turn-view');
  });

  it('moves to the next turn with j and back with k', async () => {
    const heading = page.getByTestId('turn-view').getByRole('heading', { level: 2 });
    const before = await heading.textContent();
    await page.locator('body').click({ position: { x: 5, y: 790 } });
    await page.keyboard.press('j');
    await expect.poll(() => heading.textContent()).not.toBe(before);
    await page.keyboard.press('k');
    await expect.poll(() => heading.textContent()).toBe(before);
  });

  it('shows the approved plugin on the Plugins page', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Plugins' }).click();
    const card = page.getByRole('region', { name: 'Plugin recent-window' });
    expect(await card.getByTestId('consent-state').textContent()).toBe('approved');
    await saveScreenshot(page, 'plugins');
  });

  it('loaded with no console errors, page errors, CSP violations or failed requests', () => {
    expect(app.problems).toEqual([]);
  });
});
