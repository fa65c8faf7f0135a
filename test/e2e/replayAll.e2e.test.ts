/**
 * "Replay all sessions…" in the built app: three small sessions (two JSONL, one SQLite) of one state dir replayed
 * on the worker pool, the table filled as they finish, and one row opened in the Replay view; then with a plugin lane
 * nobody approved, confirmed for this batch only in the consent dialog.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSession, writeGeneratedSessions } from '../../src/transcripts';
import {
  chooseSession,
  describeWithChromium,
  loadSessionFolder,
  saveScreenshot,
  startApp,
  type RunningApp,
} from './helpers';

describeWithChromium('browser mode: replay every session of a state dir', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-batch-'));
    for (const [i, turns] of [4, 5].entries())
      await writeGeneratedSessions(
        generateSession({ turns, seed: `batch-${i}`, sessionKey: `agent:main:s${i}` }),
        stateDir,
      );
    await writeGeneratedSessions(
      generateSession({ turns: 3, seed: 'batch-q', agentId: 'ops', sessionKey: 'agent:ops:q' }),
      stateDir,
      {
        storage: 'sqlite',
      },
    );
    app = await startApp(chromiumPath(), {}, { viewport: { width: 1440, height: 1000 } });
    page = app.page;
  });

  afterAll(async () => {
    await app?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('replays all three sessions, shows a row each and the total, and opens a row in the Replay view', async () => {
    await loadSessionFolder(page, stateDir);
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(3);
    await chooseSession(page, 'agent:main:s1');
    const plugin = page.getByRole('checkbox', { name: /plugin:recent-window/ });
    if ((await plugin.count()) > 0 && (await plugin.isChecked())) await plugin.uncheck();
    const legacy = page.getByRole('checkbox', { name: /^legacy/ });
    if (!(await legacy.isChecked())) await legacy.check();
    await page.getByRole('button', { name: 'Replay all sessions…' }).click();
    const batch = page.getByTestId('batch');
    await batch.and(page.locator('[data-status="done"]')).waitFor({ timeout: 90_000 });
    const rows = batch.getByTestId('batch-row');
    expect(await rows.count()).toBe(3);
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual([
      'done',
      'done',
      'done',
    ]);
    const s1 = rows.filter({ hasText: 'agent:main:s1' });
    expect(await s1.locator('td').nth(2).textContent()).toBe('5');
    expect(await s1.getByTestId('batch-saved').textContent()).toBe('baseline');
    expect(await rows.filter({ hasText: 'agent:ops:q' }).locator('td').nth(2).textContent()).toBe('3');
    expect(await batch.getByTestId('batch-total').textContent()).toContain('3 done · 0 failed');
    await batch.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'replay-all-sessions');

    await s1.getByRole('button', { name: 'Open the recording of agent:main:s1' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 30_000 })
      .toBe('Replay agent:main:s1');
    await expect
      .poll(() => page.locator('.replay-view__meta').textContent(), { timeout: 30_000 })
      .toMatch(/^5 turns · 1 lane · /);
    await saveScreenshot(page, 'replay-all-opened-row');
  });

  it('asks consent for an unapproved plugin lane, runs it once for the batch, and remembers nothing', async () => {
    await chooseSession(page, 'agent:main:s1');
    const plugin = page.getByRole('checkbox', { name: /plugin:recent-window/ });
    if (!(await plugin.isChecked())) await plugin.check();
    const legacy = page.getByRole('checkbox', { name: /^legacy/ });
    if (await legacy.isChecked()) await legacy.uncheck();
    await page.getByRole('button', { name: 'Replay all sessions…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run plugin code?' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('consent-request').textContent()).toContain('recent-window');
    await saveScreenshot(page, 'replay-all-consent');
    await dialog.getByRole('button', { name: 'Run once' }).click();
    const batch = page.getByTestId('batch');
    // the first batch's table stays until this one starts: its rows show the plugin lane (the legacy baseline the
    // batch added is measured against, not listed)
    const rows = batch.getByTestId('batch-row');
    await expect.poll(() => rows.filter({ hasText: 'recent-window' }).count(), { timeout: 30_000 }).toBe(3);
    await batch.and(page.locator('[data-status="done"]')).waitFor({ timeout: 90_000 });
    expect(await batch.getByTestId('batch-total').first().textContent()).toContain('3 done · 0 failed');
    await batch.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'replay-all-plugin-once');

    const s1 = batch.getByTestId('batch-row').filter({ hasText: 'agent:main:s1' });
    await s1.getByRole('button', { name: 'Open the recording of agent:main:s1' }).click();
    await expect
      .poll(() => page.locator('.replay-view__meta').textContent(), { timeout: 30_000 })
      .toMatch(/^5 turns · 2 lanes · /);
    // the plugin ran: its lane did not fall back for want of consent
    expect(await page.locator('body').textContent()).not.toContain('not executed');

    // run once: the next batch asks again
    await chooseSession(page, 'agent:main:s1');
    await page.getByRole('button', { name: 'Replay all sessions…' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('loaded with no console errors, page errors, CSP violations or failed requests', () => {
    expect(app.problems).toEqual([]);
  });
});
