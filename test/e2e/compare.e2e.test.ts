/**
 * The Compare view in the built app (browser mode, Chromium): the bundled demo replayed through legacy,
 * recent-window and a faulty-engines engine that throws in assemble, at an 8k window where recent-window leaves
 * messages out. A message legacy sent and recent-window left out is one row with both statuses; the differ filter
 * keeps exactly the turns the view model says differ; the faulty lane shows its quarantine banner; a second replay
 * with another recent-window config compares against the first and lists the changed turns. Expected figures come
 * from the recordings the app itself exports, run through src/view.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ReplayGetResponse } from '../../src/bridge';
import { compareLanes, compareRecordings, turnDifferences } from '../../src/view';
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

const RECENT_WINDOW = realpathSync(path.join(PROJECT_ROOT, 'resources', 'plugins', 'recent-window'));
const FAULTY_LANE = 'plugin:faulty-engines?engine=faulty-assemble-throws';

async function section(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click();
}

/** Runs the replay the Sessions form describes (approving consent when asked) and exports its recording. */
async function replayAndExport(page: Page, fileName: string): Promise<Recording> {
  await page.getByRole('button', { name: 'Start replay' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run plugin code?' });
  await Promise.race([
    dialog.waitFor({ timeout: 60_000 }).then(() => dialog.getByRole('button', { name: 'Run once' }).click()),
    page.getByTestId('timeline').waitFor({ timeout: 60_000 }),
  ]);
  await page.getByRole('heading', { level: 1, name: /^Replay / }).waitFor({ timeout: 60_000 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  const file = path.join(TEST_RESULTS_DIR, fileName);
  await download.saveAs(file);
  // the file's lists are deltas against each lane's previous turn (format 2): read it as the app does
  return importRecording(readFileSync(file, 'utf8')) as Recording;
}

async function shownTurns(page: Page): Promise<number[]> {
  // the turn list is virtualized: 12 turns fit, so every item is in the DOM
  return page.getByTestId('compare-turn').evaluateAll((items) => items.map((i) => Number(i.getAttribute('data-turn'))));
}

describeWithChromium('browser mode: the Compare view', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let dirs: string[];
  let first: Recording;

  beforeAll(async () => {
    dirs = ['cs-e2e-config-', 'cs-e2e-state-', 'cs-e2e-cfg-'].map((p) => mkdtempSync(path.join(tmpdir(), p)));
    app = await startApp(
      chromiumPath(),
      { CONTEXTSCOPE_CONFIG_DIR: dirs[0], OPENCLAW_STATE_DIR: dirs[1] },
      { viewport: { width: 1600, height: 1000 } },
    );
    page = app.page;
  });

  afterAll(async () => {
    await app?.stop();
    for (const dir of dirs ?? []) rmSync(dir, { recursive: true, force: true });
  });

  it('replays the demo through legacy, recent-window and a faulty engine at an 8k window', async () => {
    await chooseSession(page, 'demo-short');
    await expect.poll(() => page.getByRole('checkbox', { name: /plugin:recent-window/ }).isChecked()).toBe(true);
    await page.getByLabel('Context window (tokens)').fill('8000');
    await page.getByLabel('More lanes (lane specs, space-separated)').fill(FAULTY_LANE);
    first = await replayAndExport(page, 'compare-first.recording.json');
    expect(first.lanes.map((l) => [l.id, l.contextWindow, l.error])).toEqual([
      ['legacy', 8000, undefined],
      ['recent-window', 8000, undefined],
      ['faulty-engines:faulty-assemble-throws', 8000, undefined],
    ]);
  });

  it('shows a message legacy sent and recent-window left out as one row with both statuses', async () => {
    await section(page, 'Compare');
    await page.getByTestId('compare-view').waitFor();
    // the first turn where recent-window left out a transcript message legacy sent (not legacy's summary)
    const leftOut = (i: number) => {
      const sent = new Set(first.turns['recent-window']![i]!.assembled.map((a) => a.key));
      return first.turns.legacy![i]!.assembled.filter((a) => a.provenance === 'raw' && !sent.has(a.key));
    };
    const turn = first.turns.legacy!.findIndex((_, i) => leftOut(i).length > 0);
    expect(turn).toBeGreaterThan(0);
    const key = leftOut(turn)[0]!.key;
    await page.locator(`[data-testid="compare-turn"][data-turn="${turn}"]`).click();
    expect(await page.locator('.compare-view__turn-title').textContent()).toBe(`Turn ${turn + 1} of 12`);
    const row = page.locator(`[data-testid="aligned-row"][data-row-id="${key}"]`);
    expect(
      await row.getByTestId('aligned-cell').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-status'))),
    ).toEqual(['sent', 'dropped', 'sent']);
    expect(await row.getByTestId('cell-status').allTextContents()).toEqual(['●sent', '✕dropped', '●sent']);
    await row.getByTestId('aligned-cell').nth(1).click();
    const panel = page.getByTestId('compare-panel');
    expect(await panel.getByRole('heading').textContent()).toMatch(/^Row \d+ · /);
    expect(await panel.getByTestId('cell-status').textContent()).toBe('✕dropped');
    expect((await panel.getByTestId('compare-panel-text').textContent())!.length).toBeGreaterThan(0);
    expect(await page.getByTestId('compare-difference').textContent()).toMatch(
      /^≠ recent-window left out \d+ messages? that legacy sent/,
    );
    await saveScreenshot(page, 'compare-turn');
  });

  it('keeps exactly the turns the view model says differ under "only turns where lanes differ"', async () => {
    const expected = turnDifferences(compareLanes(first))
      .filter((d) => d.differs)
      .map((d) => d.turn);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(12);
    const toggle = page.getByTestId('only-differing');
    expect(await page.locator('label', { has: toggle }).textContent()).toBe(
      `Only turns where lanes differ (${expected.length} of 12)`,
    );
    await toggle.check();
    await expect.poll(() => shownTurns(page)).toEqual(expected);
    await toggle.uncheck();
    expect(await shownTurns(page)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('shows the faulty lane’s quarantine banner: engine, operation, reason, and that it runs on legacy', async () => {
    const lane = 'faulty-engines:faulty-assemble-throws';
    const at = first.turns[lane]!.findIndex((t) => t.events.some((e) => e.type === 'quarantine'));
    const event = first.turns[lane]![at]!.events.find((e) => e.type === 'quarantine')!;
    expect(event.type === 'quarantine' && [event.operation, event.reason]).toEqual([
      'assemble',
      'assemble failed: index out of range',
    ]);
    // two turns after the quarantine: the banner still says what happened and when
    const shown = at + 2;
    await page.locator(`[data-testid="compare-turn"][data-turn="${shown}"]`).click();
    const heads = page.getByTestId('aligned-head');
    expect(await heads.nth(0).getByTestId('quarantine-banner').count()).toBe(0);
    expect(await heads.nth(2).getByTestId('quarantine-banner').textContent()).toBe(
      `⚠ Quarantined. faulty-assemble-throws was quarantined in assemble at turn ${at + 1}: assemble failed: index out of range. The lane runs on legacy from then on.`,
    );
    // k goes back a turn (the shared selected turn), j forward again, ] to the next lane column
    await page.keyboard.press('k');
    await expect.poll(() => page.locator('.compare-view__turn-title').textContent()).toBe(`Turn ${shown} of 12`);
    await page.keyboard.press('j');
    await expect.poll(() => page.locator('.compare-view__turn-title').textContent()).toBe(`Turn ${shown + 1} of 12`);
    const selectedHead = () =>
      heads.evaluateAll((h) => h.findIndex((x) => x.classList.contains('aligned-head--selected')));
    const before = await selectedHead();
    await page.keyboard.press(']');
    await expect.poll(selectedHead).toBe((before + 1) % 3);
    await saveScreenshot(page, 'compare-quarantine');
  });

  it('compares a second replay with another recent-window config against the first and lists the changed turns', async () => {
    const config = path.join(dirs![2]!, 'recent-window-tight.json');
    writeFileSync(config, JSON.stringify({ budgetShare: 0.3, minRecentTurns: 0 }));
    await section(page, 'Sessions');
    await page.getByRole('checkbox', { name: /plugin:recent-window/ }).uncheck();
    await page
      .getByLabel('More lanes (lane specs, space-separated)')
      .fill(`plugin:${RECENT_WINDOW}?config=${config}&label=recent-window`);
    const second = await replayAndExport(page, 'compare-second.recording.json');
    expect(second.lanes.map((l) => l.id)).toEqual(['legacy', 'recent-window']);
    const pair = compareRecordings(first, second);
    expect(pair.ok).toBe(true);
    const differences = turnDifferences(pair.ok ? pair.input : compareLanes(first));
    const changed = differences.filter((d) => d.differs).map((d) => d.turn);
    expect(changed.length).toBeGreaterThan(0);
    // only the recent-window pair differs: legacy assembled the same in both
    expect(differences.every((d) => !d.pairs[0]!.differs)).toBe(true);

    await section(page, 'Compare');
    const picker = page.getByTestId('compare-baseline');
    const option = picker.locator('option', { hasText: 'this recording against the replay of' });
    expect(await option.count()).toBe(1);
    await picker.selectOption({ label: (await option.textContent())! });
    await page.getByTestId('only-differing').check();
    await expect.poll(() => shownTurns(page)).toEqual(changed);
    const heads = await page
      .getByTestId('aligned-head')
      .evaluateAll((h) => h.map((x) => x.getAttribute('data-column')));
    expect(heads).toEqual(['old:legacy', 'new:legacy', 'old:recent-window', 'new:recent-window']);
    await page.locator(`[data-testid="compare-turn"][data-turn="${changed[0]}"]`).click();
    expect(await page.getByTestId('compare-difference').textContent()).toBe(`≠ ${differences[changed[0]!]!.summary}`);
    await saveScreenshot(page, 'compare-recordings');
  });

  it('loaded with no console errors, page errors or failed requests', () => {
    expect(app.problems).toEqual([]);
  });
});
