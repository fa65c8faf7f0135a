/**
 * The Config view in the built app (browser mode, Chromium), on a hand-kept openclaw.json with comments and an
 * $include (test/fixtures/config/realistic) in a temporary state dir: change the slot and one plugin setting
 * through the GUI, read the pending changes and the diff, try the edit as a lane (Compare opens with the saved
 * and the edited config side by side; nothing is written), save, and check the file on disk byte for byte
 * (comments intact, a backup of the previous version). Then: a value the schema refuses is shown on its field and
 * cannot be saved; a change made on disk meanwhile is caught (reload and re-apply); a file that is not JSON5 opens
 * in the text editor and is fixed there; a backup is restored; leaving with unsaved changes asks first. After the
 * try, a plain replay from Sessions runs exactly the lanes its form shows, and Compare opens on that recording's lanes.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithChromium,
  launchChromium,
  openApp,
  PROJECT_ROOT,
  saveScreenshot,
  saveScreenshotsAtSizes,
  startBuiltServer,
  TEST_RESULTS_DIR,
  type BuiltServer,
  type LaunchedChromium,
  chooseSession,
} from './helpers';

const FIXTURE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'config', 'realistic');

/** The main panel scrolls on its own: back to its top before a screenshot. */
async function scrollToTop(page: Page): Promise<void> {
  await page.locator('.frame__main').evaluate((el) => el.scrollTo(0, 0));
}

async function section(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click();
}

function changesTable(page: Page): Promise<string[][]> {
  return page
    .getByTestId('config-change')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

describeWithChromium('browser mode: the Config view', (chromiumPath) => {
  let server: BuiltServer;
  let browser: LaunchedChromium;
  let page: Page;
  let problems: string[];
  let dirs: string[];
  let file: string;
  let original: string;

  const onDisk = () => readFileSync(file, 'utf8');
  const recentWindow = () => page.getByRole('region', { name: 'Plugin recent-window settings' });

  beforeAll(async () => {
    dirs = ['cs-e2e-appconfig-', 'cs-e2e-state-'].map((p) => mkdtempSync(path.join(tmpdir(), p)));
    cpSync(FIXTURE, dirs[1]!, { recursive: true });
    file = path.join(dirs[1]!, 'openclaw.json');
    original = onDisk();
    server = await startBuiltServer([], {
      ...process.env,
      CONTEXTSCOPE_CONFIG_DIR: dirs[0],
      OPENCLAW_STATE_DIR: dirs[1],
    });
    browser = await launchChromium(chromiumPath());
    await browser.context.pages()[0]?.setViewportSize({ width: 1500, height: 1300 });
    ({ page, problems } = await openApp(browser, server, { colorScheme: 'light' }));
    await chooseSession(page, 'demo-short'); // the session "try before save" replays
    await section(page, 'Config');
    await page.getByTestId('config-plugin').first().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    for (const dir of dirs ?? []) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the file, its $include read-only, the slots and a form per plugin', async () => {
    expect(
      await page
        .getByTestId('config-plugin')
        .evaluateAll((c) => c.map((e) => e.querySelector('.config-plugin__id')?.textContent)),
    ).toEqual(['faulty-engines', 'recent-window', 'summary-tree']);
    expect(await page.getByLabel('Context engine').inputValue()).toBe('legacy');
    // settings of a plugin that holds no slot start folded
    expect(await recentWindow().getByLabel('Budget share', { exact: true }).count()).toBe(0);
    await recentWindow().getByText('Settings (5)').click();
    expect(await recentWindow().getByLabel('Budget share', { exact: true }).inputValue()).toBe('0.8');
    expect(await recentWindow().getByLabel('Minimum recent turns', { exact: true }).inputValue()).toBe('1');
    expect(await page.getByTestId('config-includes').textContent()).toContain(
      `channels: ./channels.json5 → ${path.join(dirs[1]!, 'channels.json5')}`,
    );
    await saveScreenshot(page, 'config-view');
  });

  it('changing the slot and one plugin setting lists both changes and the diff; nothing is written yet', async () => {
    await page.getByLabel('Context engine').selectOption('recent-window');
    await recentWindow().getByLabel('Budget share', { exact: true }).fill('0.6');
    await expect
      .poll(() => changesTable(page))
      .toEqual([
        ['plugins.slots.contextEngine', '"legacy"', '"recent-window"'],
        ['plugins.entries.recent-window.config.budgetShare', '0.8', '0.6'],
      ]);
    const diff = await page.getByTestId('config-diff').textContent();
    expect(diff).toContain('-      contextEngine: "legacy", // try recent-window here\n');
    expect(diff).toContain('+      contextEngine: "recent-window", // try recent-window here\n');
    expect(diff).toContain('-          budgetShare: 0.8,\n');
    expect(diff).toContain('+          budgetShare: 0.6,\n');
    expect(await page.getByTestId('config-dirty').textContent()).toBe('● 2 unsaved');
    expect(await recentWindow().locator('[data-field="budgetShare"] .config-form__changed').textContent()).toBe(
      'changed',
    );
    expect(onDisk()).toBe(original);
    await scrollToTop(page);
    await saveScreenshot(page, 'config-pending-changes');
  });

  it('try before save replays the saved and the edited config as two lanes and opens Compare, writing nothing', async () => {
    await page.getByRole('button', { name: 'Try it as a lane' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run plugin code?' });
    await dialog.waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Run once' }).click();
    await page.getByTestId('compare-view').waitFor({ timeout: 90_000 });
    await expect
      .poll(() => page.getByTestId('aligned-head').locator('.aligned-head__label').allTextContents(), {
        timeout: 30_000,
      })
      .toEqual(['saved config', 'edited config']);
    expect(onDisk()).toBe(original);
    // Compare opens at the first streamed turn: the count covers all 12 once the replay ends
    await expect
      .poll(() => page.locator('label', { has: page.getByTestId('only-differing') }).textContent(), {
        timeout: 60_000,
      })
      .toMatch(/^Only turns where lanes differ \([1-9]\d* of 12\)$/);
    await page.getByTestId('only-differing').check();
    await page.getByTestId('compare-turn').first().click();
    await saveScreenshot(page, 'config-try-compare');
    // the recording says what ran: legacy for the saved config, recent-window with the edited plugin config
    await section(page, 'Replay');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    const exported = path.join(TEST_RESULTS_DIR, 'config-try.recording.json');
    await download.saveAs(exported);
    const lanes = (JSON.parse(readFileSync(exported, 'utf8')) as { lanes: Record<string, unknown>[] }).lanes;
    expect(lanes.map((l) => [l.label, l.source, l.pluginId, l.error])).toEqual([
      ['saved config', 'legacy', undefined, undefined],
      ['edited config', 'plugin', 'recent-window', undefined],
    ]);
    const configFile = decodeURIComponent(/[?&]config=([^&]+)/.exec(String(lanes[1]!.spec))![1]!);
    expect(configFile.startsWith(path.join(tmpdir(), 'contextscope-try-'))).toBe(true);
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toEqual({ budgetShare: 0.6, minRecentTurns: 1 });
  });

  it('a plain replay from Sessions after the try runs exactly the lanes the form shows; Compare opens on them', async () => {
    // Compare of the try's recording with a lane unticked: the next recording must not inherit that
    await section(page, 'Compare');
    await page.getByRole('group', { name: 'Lanes' }).getByRole('checkbox', { name: 'edited config' }).uncheck();
    await page.getByText('Pick at least two lanes to compare.').waitFor();
    await section(page, 'Sessions');
    const form = page.getByRole('form', { name: 'Replay settings' });
    const plugin = form.getByRole('checkbox', { name: /plugin:recent-window/ });
    if (await plugin.isChecked()) await plugin.uncheck();
    const legacy = form.getByRole('checkbox', { name: /^legacy/ });
    if (!(await legacy.isChecked())) await legacy.check();
    await form.getByLabel('More lanes (lane specs, space-separated)').fill('legacy?window=16000&label=small');
    const ticked = await form
      .locator('.lane-option', { has: page.locator('input:checked') })
      .locator('.lane-option__label')
      .allTextContents();
    expect(ticked).toEqual(['legacy']);
    await saveScreenshotsAtSizes(page, 'config-try-then-sessions', { reveal: form });
    await form.getByRole('button', { name: 'Start replay' }).click();
    await expect
      .poll(() => page.locator('.replay-view__meta').textContent(), { timeout: 60_000 })
      .toMatch(/^12 turns · 2 lanes · /);
    expect(await page.getByRole('tablist', { name: 'Lane' }).getByRole('tab').allTextContents()).toEqual([
      'legacy',
      'small',
    ]);
    await saveScreenshotsAtSizes(page, 'config-try-then-replay');
    await section(page, 'Compare');
    await expect
      .poll(() => page.getByTestId('aligned-head').locator('.aligned-head__label').allTextContents())
      .toEqual(['legacy', 'small']);
    await saveScreenshotsAtSizes(page, 'config-try-then-compare');
  });

  it('saves: the file on disk has exactly the two values changed, comments intact, and a backup', async () => {
    await section(page, 'Config');
    expect(await page.getByTestId('config-dirty').textContent()).toBe('● 2 unsaved');
    await page.getByTestId('config-pending').getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Saved .*openclaw\.json\. The previous version is kept as /).waitFor();
    const saved = onDisk();
    expect(saved).toBe(
      original
        .replace(
          'contextEngine: "legacy", // try recent-window here',
          'contextEngine: "recent-window", // try recent-window here',
        )
        .replace('budgetShare: 0.8,', 'budgetShare: 0.6,'),
    );
    expect(saved).toContain('/* always keep the newest turn */');
    expect(saved).toContain('// channel secrets live in their own file');
    const backups = path.join(dirs[1]!, 'openclaw.json.backups');
    expect(readdirSync(backups).map((n) => readFileSync(path.join(backups, n), 'utf8'))).toEqual([original]);
    expect(await page.getByTestId('config-dirty').count()).toBe(0);
    expect(await page.getByLabel('Context engine').inputValue()).toBe('recent-window');
    await scrollToTop(page);
    await saveScreenshot(page, 'config-saved');
  });

  it("a value the plugin's schema refuses is shown on the field, Save stays off, the file is untouched", async () => {
    const before = onDisk();
    await recentWindow().getByLabel('Budget share', { exact: true }).fill('5');
    await recentWindow().getByText('must be <= 1').waitFor();
    const pending = page.getByTestId('config-pending');
    expect(await pending.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(await pending.getByTestId('config-pending-why').textContent()).toBe(
      'the result does not validate (see below); nothing can be saved until it does',
    );
    expect(await page.getByTestId('config-issue').first().textContent()).toContain(
      'plugins.entries.recent-window.config.budgetShare must be <= 1 (configSchema of recent-window)',
    );
    await saveScreenshot(page, 'config-invalid-value');
    await recentWindow().getByRole('button', { name: 'Reset Budget share to its default' }).click();
    await expect
      .poll(() => changesTable(page))
      .toEqual([['plugins.entries.recent-window.config.budgetShare', '0.6', '(unset)']]);
    await pending.getByRole('button', { name: 'Discard' }).click();
    expect(onDisk()).toBe(before);
  });

  it('a change made on disk meanwhile is caught with what changed; reload and re-apply keeps both', async () => {
    await page.getByRole('combobox', { name: 'Memory plugins.slots.memory' }).selectOption('none');
    await expect.poll(() => changesTable(page)).toEqual([['plugins.slots.memory', '"memory-core"', '"none"']]);
    const external = onDisk().replace('port: 18789', 'port: 18790');
    writeFileSync(file, external);
    // the view looks again every 3 s while there are unsaved changes
    await expect
      .poll(() => page.getByTestId('config-pending-why').textContent(), { timeout: 10_000 })
      .toBe('the file changed on disk since it was read: reload it first');
    // Ctrl+S tries anyway: refused, with the external change shown
    await page.keyboard.press('Control+s');
    const conflict = page.getByTestId('config-conflict');
    await conflict.waitFor();
    expect(await conflict.getByTestId('config-diff').textContent()).toContain(
      '+  gateway: { port: 18790, bind: "loopback" },',
    );
    expect(onDisk()).toBe(external);
    await saveScreenshot(page, 'config-conflict');
    await conflict.getByRole('button', { name: 'Reload and re-apply my changes' }).click();
    await expect
      .poll(() => page.getByTestId('config-pending').getByRole('button', { name: 'Save' }).isEnabled())
      .toBe(true);
    await page.getByTestId('config-pending').getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Saved /).waitFor();
    expect(onDisk()).toBe(external.replace('memory: "memory-core"', 'memory: "none"'));
  });

  it('leaving with unsaved changes asks first; staying keeps the draft', async () => {
    await recentWindow().getByLabel('Minimum recent turns', { exact: true }).fill('4');
    await page.getByTestId('config-dirty').waitFor();
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.dismiss();
    });
    await section(page, 'Plugins');
    expect(asked).toMatch(/^openclaw\.json has unsaved changes\. Leave the Config section\?/);
    expect(await page.getByRole('heading', { level: 1 }).first().textContent()).toMatch(/^Config/);
    await page.getByTestId('config-pending').getByRole('button', { name: 'Discard' }).click();
  });

  it('search narrows the settings to what matches ("/" focuses it, Escape clears it)', async () => {
    await page.locator('.frame__main').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('/');
    await page.keyboard.type('minimum recent');
    await expect
      .poll(() =>
        page
          .getByTestId('config-plugin')
          .evaluateAll((c) => c.map((e) => e.querySelector('.config-plugin__id')?.textContent)),
      )
      .toEqual(['recent-window']);
    const fields = await recentWindow()
      .locator('[data-field]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-field')));
    expect(fields).toEqual(['minRecentTurns']);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('config-plugin').count()).toBe(3);
  });

  it('restores the first version from the recent saves (a guarded save itself)', async () => {
    const backups = page.getByTestId('config-backup');
    await expect.poll(() => backups.count()).toBe(2);
    page.once('dialog', (d) => void d.accept());
    await backups.last().getByRole('button', { name: 'Restore this version' }).click();
    await expect.poll(onDisk).toBe(original);
    await expect.poll(() => backups.count()).toBe(3);
    await scrollToTop(page);
    await saveScreenshot(page, 'config-restored');
  });

  it('a file that is not JSON5 opens in the text editor with the line and column; fixed there, it saves', async () => {
    const broken = original.replace('gateway: { port: 18789, bind', 'gateway: { port: 18789 bind');
    writeFileSync(file, broken);
    await page.getByRole('button', { name: 'Reload' }).click();
    const raw = page.getByTestId('config-raw');
    await raw.waitFor();
    expect(await page.getByRole('alert').first().textContent()).toMatch(
      /is not valid JSON5 \(line 36, column 26\): fix it in the text editor/,
    );
    expect(await raw.getByTestId('config-raw-status').textContent()).toMatch(
      /^Not valid JSON5 at line 36, column 26: /,
    );
    await saveScreenshot(page, 'config-raw-mode');
    const fixed = broken.replace('port: 18789 bind', 'port: 18789, bind');
    await raw.getByLabel('openclaw.json text').fill(fixed);
    await expect
      .poll(() => raw.getByTestId('config-raw-status').textContent())
      .toBe('Valid JSON5; OpenClaw would accept it.');
    await page.getByTestId('config-pending').getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Saved /).waitFor();
    expect(onDisk()).toBe(fixed);
    expect(existsSync(path.join(dirs[1]!, 'channels.json5'))).toBe(true);
    expect(readFileSync(path.join(dirs[1]!, 'channels.json5'), 'utf8')).toBe(
      readFileSync(path.join(FIXTURE, 'channels.json5'), 'utf8'),
    );
  });

  it('after a doctor run that executed the plugins, the slot picker lists the engines they register', async () => {
    await section(page, 'Doctor');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Run doctor' }).click();
    await page.getByTestId('doctor-report').waitFor({ timeout: 90_000 });
    await section(page, 'Config');
    const picker = page.getByLabel('Context engine');
    await expect
      .poll(() => picker.locator('option').allTextContents(), { timeout: 30_000 })
      .toContainEqual(expect.stringMatching(/^faulty-assemble-throws \(faulty-engines\) — bundled · enabled/));
    expect(await picker.locator('option').allTextContents()).toContainEqual(
      expect.stringMatching(/^recent-window — bundled · enabled/),
    );
    expect(await recentWindow().getByTestId('config-plugin-doctor').textContent()).toMatch(/^doctor: executed/);
    await page.getByRole('region', { name: 'Plugin faulty-engines settings' }).scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'config-after-doctor');
  });

  it('loaded with no console errors, page errors, CSP violations or failed requests', () => {
    expect(problems).toEqual([]);
  });
});
