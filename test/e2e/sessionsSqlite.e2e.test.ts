/**
 * A state dir of OpenClaw 2026.8+ (sessions in SQLite) in the built app: the Sessions view lists its sessions with
 * their storage and counts, one of them replays to the end, and nothing in the state dir changes. A SQLite session
 * whose key also names a JSONL session of the same agent is read, defaulted and replayed by its row.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { discoverSessions, generateSession, writeGeneratedSessions } from '../../src/transcripts';
import {
  describeWithChromium,
  loadSessionFolder,
  saveScreenshot,
  saveScreenshotsAtSizes,
  startApp,
  type RunningApp,
} from './helpers';

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
  const dirs: string[] = [];

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
    for (const dir of [stateDir, ...dirs]) if (dir) rmSync(dir, { recursive: true, force: true });
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

  it('a SQLite session whose key also names a JSONL session of the agent replays from its row, with its own settings', async () => {
    const twins = mkdtempSync(path.join(tmpdir(), 'cs-e2e-twins-'));
    dirs.push(twins);
    await writeGeneratedSessions(generateSession({ turns: 5, seed: 'e2e-twin-jsonl' }), twins);
    await writeGeneratedSessions(generateSession({ turns: 7, seed: 'e2e-twin-sqlite' }), twins, { storage: 'sqlite' });
    await loadSessionFolder(page, twins);
    // listed: the folder's two sessions, one per storage, both keyed agent:main:main
    await page.locator('p', { hasText: `Listing ${twins}` }).waitFor();
    const rows = page.getByTestId('session-row');
    expect(await rows.locator('.session-cell__title').allTextContents()).toEqual([
      'agent:main:main',
      'agent:main:main',
    ]);
    expect((await page.getByTestId('session-storage').allTextContents()).sort()).toEqual(['JSONL', 'SQLite']);
    const sqlite = rows.filter({ has: page.getByTestId('session-storage').filter({ hasText: 'SQLite' }) });
    expect(await sqlite.getByTestId('session-turns').textContent()).toBe('7');
    await sqlite.click();
    // its own settings (replay.defaults by the row's identity): the release SQLite storage implies, no fallback
    const form = page.getByRole('form', { name: 'Replay settings' });
    await expect.poll(() => form.getByLabel('OpenClaw version').inputValue()).toBe('2026.9.6');
    expect(await form.getByLabel('Context window (tokens)').inputValue()).toBe('200000');
    expect(await page.getByTestId('replay-defaults-problem').count()).toBe(0);
    await saveScreenshotsAtSizes(page, 'sessions-sqlite-twins', { reveal: form });
    const plugin = form.getByRole('checkbox', { name: /plugin:recent-window/ });
    if (await plugin.isChecked()) await plugin.uncheck();
    const legacy = form.getByRole('checkbox', { name: /^legacy/ });
    if (!(await legacy.isChecked())) await legacy.check();
    await form.getByRole('button', { name: 'Start replay' }).click();
    await expect
      .poll(() => page.locator('.replay-view__meta').textContent(), { timeout: 60_000 })
      .toMatch(/^7 turns · 1 lane · /);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Replay agent:main:main');
    await saveScreenshotsAtSizes(page, 'replay-sqlite-twin');
  });

  it('loaded with no console errors, page errors, CSP violations or failed requests', () => {
    expect(app.problems).toEqual([]);
  });
});
