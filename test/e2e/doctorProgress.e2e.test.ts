/**
 * Issue 34 in the built app: the Doctor tells its progress plugin by plugin while it drives the bundled plugins'
 * engines (faulty-engines has engines that wait out their call deadline), each plugin's outcome agreeing with the
 * report it ends with; and the Sessions list names a garbage `.jsonl` as a file it cannot read, with the reader's
 * error. Screenshots at 1280×800 and 1920×1080.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSession, writeGeneratedSessions } from '../../src/transcripts';
import { describeWithChromium, loadSessionFolder, saveScreenshotsAtSizes, startApp, type RunningApp } from './helpers';

describeWithChromium('browser mode: doctor progress per plugin, and a garbage .jsonl in the list', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-doctor-'));
    await writeGeneratedSessions(generateSession({ turns: 6, seed: 'e2e-doctor-progress' }), stateDir);
    const sessions = path.join(stateDir, 'agents', 'main', 'sessions');
    mkdirSync(sessions, { recursive: true });
    writeFileSync(path.join(sessions, 'garbage.jsonl'), 'this is not json\n{"broken": \n');
    app = await startApp(chromiumPath(), { OPENCLAW_STATE_DIR: stateDir });
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('tells which plugin and engine the doctor is on, and each outcome as the report lists it', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Doctor' }).click();
    await page.getByRole('checkbox', { name: /Run every plugin/ }).check();
    // a shorter deadline than the default 10 s: the hanging engines are quarantined sooner
    await page.getByRole('spinbutton', { name: /Call deadline/ }).fill('3000');
    await page.getByRole('button', { name: 'Run doctor' }).click();
    const now = page.getByTestId('doctor-progress-now');
    // the hanging engine: the doctor waits out its deadline here, and says so
    await now
      .filter({ hasText: /^Driving plugin \d of 3, faulty-engines: engine faulty-assemble-hangs/ })
      .waitFor({ timeout: 60_000 });
    const rows = page.getByTestId('doctor-step');
    expect(await rows.locator('.mono').allTextContents()).toEqual(['faulty-engines', 'recent-window', 'summary-tree']);
    expect(await page.locator('[data-testid="doctor-step"][data-phase="driving"]').textContent()).toMatch(
      /^faulty-engines driving faulty-assemble-hangs \(\d+ of 2\d\)…$/,
    );
    expect(await page.getByTestId('doctor-progress-title').textContent()).toBe('0 of 3 plugins checked');
    await saveScreenshotsAtSizes(page, 'doctor-progress');

    await page.getByTestId('doctor-report').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('doctor-progress-title').textContent()).toBe('Checked 3 of 3 plugins');
    // each plugin's outcome in the progress is what the report says of it
    const statuses = await page
      .getByRole('table', { name: 'Doctor plugin status' })
      .locator('tbody tr')
      .evaluateAll((trs: HTMLTableRowElement[]) =>
        trs.map((tr) => `${tr.cells[0]!.textContent} ${tr.cells[2]!.textContent}`),
      );
    const outcomes = await rows.evaluateAll((lis) =>
      lis.map((li) => `${li.querySelector('.mono')!.textContent} ${li.querySelector('.tag')!.textContent}`),
    );
    expect(outcomes.sort()).toEqual(statuses.sort());
    const errors = (await rows.allTextContents()).map((text) => Number(/ (\d+) errors?,/.exec(text)![1]));
    const summary = await page.getByTestId('doctor-summary').textContent();
    expect(summary).toMatch(new RegExp(` ${errors.reduce((a, b) => a + b, 0)} errors `));
    await saveScreenshotsAtSizes(page, 'doctor-progress-done');
  }, 180_000);

  it("lists the garbage .jsonl as a file it cannot read, with the reader's error", async () => {
    await loadSessionFolder(page, stateDir);
    const row = page.locator('[data-testid="session-row"]', { hasText: 'garbage' });
    await expect
      .poll(() => row.getByTestId('session-problem').textContent(), { timeout: 60_000 })
      .toMatch(/^cannot replay garbage\.jsonl is not an OpenClaw session transcript: .*line 1: /);
    expect(await row.getByTestId('session-turns').textContent()).toBe('—');
    await saveScreenshotsAtSizes(page, 'sessions-garbage-jsonl');
  });

  it('loaded with no console errors, page errors, CSP violations or failed requests', () => {
    expect(app.problems).toEqual([]);
  });
});
