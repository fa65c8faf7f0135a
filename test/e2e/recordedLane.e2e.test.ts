/**
 * The recorded lane in the built app: a session whose state dir has OpenClaw's trajectory beside the transcript
 * (test/fixtures/transcripts/trajectory) replays with a read-only "recorded (OpenClaw trajectory)" lane next to
 * legacy, with a column per turn like any lane.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithChromium, loadSessionFolder, saveScreenshot, startApp, type RunningApp } from './helpers';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/transcripts/trajectory/state');

describeWithChromium('browser mode: the recorded trajectory lane', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-trajectory-'));
    cpSync(FIXTURE, stateDir, { recursive: true });
    app = await startApp(chromiumPath());
    page = app.page;
  });

  afterAll(async () => {
    await app?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('shows the recorded lane beside legacy for every turn', async () => {
    await loadSessionFolder(page, stateDir);
    // the row of this state dir's session (its id), not a demo session listed before the folder loaded
    const root = page.locator('[data-testid="session-row"]', { hasText: '7f3c2a10' }).first();
    await root.waitFor({ timeout: 30_000 });
    await root.click();
    const plugin = page.getByRole('checkbox', { name: /plugin:recent-window/ });
    if (await plugin.isChecked()) await plugin.uncheck();
    const legacy = page.getByRole('checkbox', { name: /^legacy/ });
    if (!(await legacy.isChecked())) await legacy.check();
    await page.getByRole('button', { name: 'Start replay' }).click();
    await page.getByTestId('timeline').waitFor({ timeout: 60_000 });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Replay agent:main:main');
    await expect.poll(() => page.getByTestId('timeline-row').count()).toBe(4);
    // the lanes stream in one after another: legacy's four rows can be on screen before the recorded lane's head
    // (seen once in six e2e runs under stress-ng)
    const heads = async () => (await page.locator('.timeline__lane-head').allTextContents()).map((h) => h.trim());
    await expect.poll(heads, { timeout: 60_000 }).toEqual(['legacy', 'recorded (OpenClaw trajectory)']);
    await saveScreenshot(page, 'replay-recorded-lane');
  });

  it('loaded with no console errors, page errors, CSP violations or failed requests', () => {
    expect(app.problems).toEqual([]);
  });
});
