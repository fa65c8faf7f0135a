/**
 * The Replay workspace in the built app (browser mode, Chromium): the demo replayed from the Overview, then the
 * master/detail panes at 1280×800 and 1920×1080 in both themes (screenshots in test-results/), the theme toggle,
 * a deep link that opens a given turn, back/forward, the shortcut sheet and the command palette.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithChromium, saveScreenshot, startApp, type RunningApp } from './helpers';

async function replayDemo(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Replay the demo session' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Run plugin code?' });
  await Promise.race([
    dialog.waitFor({ timeout: 30_000 }).then(() => dialog.getByRole('button', { name: 'Approve and run' }).click()),
    page.getByTestId('timeline').waitFor({ timeout: 30_000 }),
  ]);
  await page.getByTestId('timeline').waitFor({ timeout: 60_000 });
  // the timeline shows at the first streamed turn; the layout settles once the replay ends (the progress strip goes)
  await page.getByTestId('replay-streaming').waitFor({ state: 'detached', timeout: 60_000 });
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

async function paneBox(page: Page, testId: string) {
  const box = await page.getByTestId(testId).boundingBox();
  if (!box) throw new Error(`${testId} is not on screen`);
  return box;
}

const selectedTurn = (page: Page) =>
  page.locator('[data-testid="timeline-row"][aria-selected="true"]').getAttribute('data-turn');

describeWithChromium('browser mode: the replay workspace', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp(chromiumPath(), {}, { viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    page = app.page;
    await replayDemo(page);
  });

  afterAll(async () => {
    await app?.stop();
  });

  it('at 1280×800 stacks the timeline above the turn detail, both in the window', async () => {
    const workspace = page.getByTestId('replay-workspace');
    expect(await workspace.getAttribute('data-orientation')).toBe('vertical');
    const master = await paneBox(page, 'pane-master');
    const detail = await paneBox(page, 'pane-detail');
    expect(detail.y).toBeGreaterThanOrEqual(master.y + master.height);
    expect(detail.y).toBeLessThan(800);
    // the export buttons stay on one line beside the title
    const buttons = page.getByRole('group', { name: 'Export' }).getByRole('button');
    const [json, html] = [await buttons.nth(0).boundingBox(), await buttons.nth(1).boundingBox()];
    expect(json!.y).toBe(html!.y);
    await saveScreenshot(page, 'workspace-1280-light');
    await page.getByTestId('theme-toggle').getByRole('radio', { name: 'Dark' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(17, 19, 24)');
    await saveScreenshot(page, 'workspace-1280-dark');
  });

  it('keeps the selected row in view, and a split the user moves across a reload', async () => {
    await page.locator('body').press('End');
    const row = await page.locator('[data-testid="timeline-row"][aria-selected="true"]').boundingBox();
    const timeline = await page.getByTestId('timeline').boundingBox();
    expect(row!.y).toBeGreaterThanOrEqual(timeline!.y);
    expect(row!.y + row!.height).toBeLessThanOrEqual(timeline!.y + timeline!.height + 1);
    await page.locator('body').press('Home');
    const separator = page.getByRole('separator');
    await separator.focus();
    for (let i = 0; i < 5; i += 1) await separator.press('ArrowUp');
    const moved = (await paneBox(page, 'pane-master')).height;
    await page.reload();
    await page.getByTestId('timeline').waitFor({ timeout: 30_000 });
    expect(Math.abs((await paneBox(page, 'pane-master')).height - moved)).toBeLessThanOrEqual(2);
  });

  it('keeps the chosen theme across a reload and goes back to the system scheme on "System"', async () => {
    await page.reload();
    await page.getByTestId('runtime-status').filter({ hasText: 'connected' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByTestId('theme-toggle').getByRole('radio', { name: 'System' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(246, 247, 249)');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(17, 19, 24)');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('a deep link opens the turn it names, and back/forward walk the selection', async () => {
    await page.getByTestId('timeline').waitFor({ timeout: 30_000 });
    const link = new URL(page.url());
    const hash = new URLSearchParams(link.hash.split('?')[1] ?? '');
    expect(link.hash.startsWith('#/replay?')).toBe(true);
    expect(hash.get('recording')).toBeTruthy();
    hash.set('turn', '6');
    hash.delete('message');
    link.hash = `/replay?${hash.toString()}`;
    await page.goto('about:blank');
    await page.goto(link.toString());
    await expect.poll(() => selectedTurn(page), { timeout: 30_000 }).toBe('5');
    expect(await page.getByTestId('turn-view').getByRole('heading').first().textContent()).toContain('Turn 6');
    await page.locator('[data-testid="timeline-row"][data-turn="2"]').click();
    // the history entry is written once the switch is drawn (renderer/src/router/deepLinks.ts)
    await expect.poll(() => new URLSearchParams(new URL(page.url()).hash.split('?')[1]).get('turn')).toBe('3');
    await page.goBack();
    await expect.poll(() => selectedTurn(page)).toBe('5');
    await page.goForward();
    await expect.poll(() => selectedTurn(page)).toBe('2');
    // a link to a message opens its turn with that message expanded and scrolled into the detail pane
    hash.set('turn', '9');
    hash.set('message', 'assembled:20');
    link.hash = `/replay?${hash.toString()}`;
    await page.goto(link.toString());
    await expect.poll(() => selectedTurn(page)).toBe('8');
    const full = page.getByTestId('message-full');
    await full.waitFor();
    expect(await page.locator('button.preview[aria-expanded="true"]').count()).toBe(1);
    const pane = await paneBox(page, 'pane-detail');
    await expect.poll(async () => (await full.boundingBox())!.y).toBeLessThan(pane.y + pane.height);
    expect((await full.boundingBox())!.y).toBeGreaterThanOrEqual(pane.y);
  });

  it('? shows every shortcut, Escape closes it', async () => {
    await page.locator('body').press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    const rows = await sheet.getByTestId('shortcut-row').allTextContents();
    expect(rows.some((row) => row.includes('Next turn') && row.includes('j'))).toBe(true);
    expect(rows.some((row) => row.includes('command palette') && row.includes('Ctrl K'))).toBe(true);
    await saveScreenshot(page, 'shortcut-sheet');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
  });

  it('Ctrl+K opens the palette: typing a turn number and Enter opens that turn', async () => {
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('turn 4');
    expect(await palette.getByTestId('palette-item').first().textContent()).toContain('Turn 4');
    await saveScreenshot(page, 'command-palette');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    await expect.poll(() => selectedTurn(page)).toBe('3');
    await page.keyboard.press('Control+k');
    await palette.getByRole('combobox').fill('doctor');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).hash).toBe('#/doctor');
    await page.goBack();
    await page.getByTestId('timeline').waitFor();
  });

  it('a recording dropped on the window opens in Replay (the JSON that Export JSON saves)', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('group', { name: 'Export' }).getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    // the shared Chromium is a remote browser to this process: the download is saved here, not read where it landed
    const saved = path.join(app.configDir, 'export.recording.json');
    await download.saveAs(saved);
    const text = readFileSync(saved, 'utf8');
    const counts = (await page.locator('.replay-view__meta').textContent())!.split(' · replayed')[0]!;
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Overview' }).click();
    const transfer = await page.evaluateHandle((content) => {
      const data = new DataTransfer();
      data.items.add(new File([content], 'dropped.recording.json', { type: 'application/json' }));
      return data;
    }, text);
    await page.dispatchEvent('body', 'dragover', { dataTransfer: transfer });
    await page.getByTestId('drop-hint').waitFor();
    await page.dispatchEvent('body', 'drop', { dataTransfer: transfer });
    // titled after the file (the recent-recordings store may drop the extension)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toMatch(/^Replay dropped/);
    expect(await page.locator('.replay-view__meta').textContent()).toContain(counts);
    expect(await page.getByTestId('drop-hint').count()).toBe(0);
  });

  it('at 1920×1080 puts the timeline beside the turn detail and uses the width', async () => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(() => page.getByTestId('replay-workspace').getAttribute('data-orientation')).toBe('horizontal');
    const master = await paneBox(page, 'pane-master');
    const detail = await paneBox(page, 'pane-detail');
    expect(detail.x).toBeGreaterThanOrEqual(master.x + master.width);
    expect(detail.x + detail.width).toBeGreaterThan(1800);
    expect(detail.height).toBeGreaterThan(700);
    await saveScreenshot(page, 'workspace-1920-light');
    await page.getByTestId('theme-toggle').getByRole('radio', { name: 'Dark' }).click();
    await saveScreenshot(page, 'workspace-1920-dark');
    expect(app.problems).toEqual([]);
  });
});
