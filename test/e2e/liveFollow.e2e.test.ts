/**
 * Live mode in the built app: follow a JSONL session while another process appends turns to it; the timeline grows
 * turn by turn without a new replay being started, and Stop following ends it with the last pass shown.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSession, writeGeneratedSessions } from '../../src/transcripts';
import { describeWithChromium, loadSessionFolder, saveScreenshot, startApp, type RunningApp } from './helpers';
import { appendInChild } from '../unit/replay/appendInChild';

describeWithChromium('browser mode: following a live session', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let dir: string;
  let live: string;
  let groups: string[][];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-live-'));
    const set = generateSession({ turns: 6, seed: 'e2e-live', contextWindow: 32_000 });
    const written = await writeGeneratedSessions(set, dir);
    const lines = readFileSync(written.files[0]!, 'utf8').trimEnd().split('\n');
    const starts = lines.map((l, i) => (/"role":"user"/.test(l) ? i : -1)).filter((i) => i >= 0);
    // a folder holding only the live transcript (the Sessions view lists a folder of transcripts)
    const liveDir = path.join(dir, 'live');
    mkdirSync(liveDir);
    live = path.join(liveDir, 'live.jsonl');
    writeFileSync(live, `${lines.slice(0, starts[2]).join('\n')}\n`);
    groups = starts.slice(2).map((start, k) => lines.slice(start, starts[k + 3] ?? lines.length));
    app = await startApp(chromiumPath());
    page = app.page;
  });

  afterAll(async () => {
    await app?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows each turn as it is appended while following, and stops on request', async () => {
    await loadSessionFolder(page, path.dirname(live));
    await page.locator('[data-testid="session-row"]', { hasText: 'live' }).first().click();
    const plugin = page.getByRole('checkbox', { name: /plugin:recent-window/ });
    if (await plugin.isChecked()) await plugin.uncheck();
    await page.getByRole('checkbox', { name: 'follow the session' }).check();
    await page.getByRole('button', { name: 'Start replay' }).click();
    await page.getByTestId('timeline').waitFor({ timeout: 60_000 });
    await page.getByTestId('live-status').waitFor();
    const rows = () => page.getByTestId('timeline-row').count();
    const first = await rows();
    const seen = new Set([first]);
    const appending = appendInChild(live, groups, 700);
    // the page never reloads or restarts the replay: the same view grows
    for (let i = 0; i < 60 && (await rows()) < first + groups.length; i++) {
      seen.add(await rows());
      await page.waitForTimeout(150);
    }
    await appending;
    await expect.poll(rows, { timeout: 15_000 }).toBeGreaterThanOrEqual(first + groups.length - 1);
    expect(seen.size).toBeGreaterThan(2); // it grew in several steps, not once at the end
    await saveScreenshot(page, 'replay-live');
    await page.getByRole('button', { name: 'Stop following' }).click();
    await expect.poll(() => page.getByTestId('live-status').count()).toBe(0);
  });

  it('loaded with no console errors, page errors, CSP violations or failed requests', () => {
    expect(app.problems).toEqual([]);
  });
});
