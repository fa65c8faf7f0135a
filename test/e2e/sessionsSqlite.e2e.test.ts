/**
 * A state dir of OpenClaw 2026.8+ (sessions in SQLite) in the built app: the Sessions view lists its sessions with
 * their storage and counts, one of them replays to the end, and nothing in the state dir changes.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { discoverSessions, generateSession, writeGeneratedSessions } from '../../src/transcripts';
import { describeWithChromium, loadSessionFolder, saveScreenshot, startApp, type RunningApp } from './helpers';

function fingerprint(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else hash.update(`${path.relative(dir, p)}\0`).update(readFileSync(p));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

describeWithChromium('browser mode: sessions stored in SQLite', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let stateDir: string;
  let before: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-sqlite-'));
    const set = generateSession({ turns: 12, seed: 'e2e-sqlite', subagents: 2, contextWindow: 32_000 });
    await writeGeneratedSessions(set, stateDir, { storage: 'sqlite' });
    before = fingerprint(stateDir);
    app = await startApp(chromiumPath());
    page = app.page;
  });

  afterAll(async () => {
    await app?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('lists the SQLite sessions of the state dir with their storage, turns and subagent links', async () => {
    await loadSessionFolder(page, stateDir);
    // what the library discovers in the state dir is what the page must list
    const expected = (await discoverSessions({ stateDir, scanSpawns: false })).sessions;
    expect(expected.length).toBeGreaterThan(1);
    await expect
      .poll(() => page.getByTestId('session-storage').allTextContents())
      .toEqual(expected.map(() => 'SQLite'));
    const root = page.locator('[data-testid="session-row"]', { hasText: 'agent:main:main' }).first();
    expect(await root.getByTestId('session-turns').textContent()).toBe('12');
    const children = expected.filter((s) => s.isSubagent).length;
    expect(await root.textContent()).toContain(`${children} subagent`);
    await saveScreenshot(page, 'sessions-sqlite');
  });

  it('replays the chosen SQLite session to the end, and the state dir is unchanged', async () => {
    const root = page.locator('[data-testid="session-row"]', { hasText: 'agent:main:main' }).first();
    await root.click();
    const plugin = page.getByRole('checkbox', { name: /plugin:recent-window/ });
    if (await plugin.isChecked()) await plugin.uncheck();
    const legacy = page.getByRole('checkbox', { name: /^legacy/ });
    if (!(await legacy.isChecked())) await legacy.check();
    await page.getByRole('button', { name: 'Start replay' }).click();
    await page.getByTestId('timeline').waitFor({ timeout: 60_000 });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Replay agent:main:main');
    // the timeline is virtualized (only the rows in view are rendered): the header counts the turns
    await expect
      .poll(() => page.locator('.replay-view__meta').textContent(), { timeout: 60_000 })
      .toMatch(/^12 turns · 1 lane · /);
    await saveScreenshot(page, 'replay-sqlite');
    expect(fingerprint(stateDir)).toBe(before);
  });

  it('loaded with no console errors, page errors, CSP violations or failed requests', () => {
    expect(app.problems).toEqual([]);
  });
});
