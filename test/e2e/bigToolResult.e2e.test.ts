/**
 * A session whose `read` tool result is a 3.9 MB file, replayed in the built app (browser mode): the next turn's
 * context keeps it (cut to 400,000 characters, as OpenClaw does), its message opens to all of that, and no bridge
 * answer on the WebSocket is over 1 MB (the pages that carry the recorded 3.9 MB message go in pieces,
 * src/bridge/piecedAnswer.ts).
 */
import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeReadToolSession } from '../unit/replay/readToolSession';
import {
  chooseSession,
  describeWithChromium,
  loadSessionFolder,
  saveScreenshot,
  startApp,
  watchBridgeAnswers,
  type RunningApp,
} from './helpers';

const LINES = 40_000;
const FILE = Array.from({ length: LINES }, (_, i) => `export const line${i} = "${'v'.repeat(60)}"; // ${i}\n`).join('');

describeWithChromium('browser mode: a turn with a 3 MB tool result', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    ({ dir } = await writeReadToolSession(FILE));
    app = await startApp(chromiumPath());
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('opens the tool result as the model saw it, with no bridge answer over 1 MB', async () => {
    const answers = watchBridgeAnswers(page);
    await page.reload();
    await page.getByTestId('runtime-status').filter({ hasText: 'connected' }).waitFor();
    await loadSessionFolder(page, dir);
    await chooseSession(page, 'sess-1');
    // a window the 3 MB file fits in: the next turn keeps it in its context (no compaction)
    await page.getByLabel('Context window (tokens)').fill('2000000');
    const plugin = page.getByRole('checkbox', { name: /plugin:/ });
    for (let i = 0; i < (await plugin.count()); i++) if (await plugin.nth(i).isChecked()) await plugin.nth(i).uncheck();
    await page.getByRole('button', { name: 'Start replay' }).click();

    await expect.poll(() => page.getByTestId('timeline-row').count(), { timeout: 60_000 }).toBe(3);
    await page.getByTestId('timeline-row').nth(2).click();
    await expect.poll(() => page.getByTestId('turn-view').locator('h2').first().textContent()).toMatch(/^Turn 3 /);
    const toolRow = page
      .getByTestId('message-row')
      .filter({ has: page.locator('.role--toolResult') })
      .first();
    await toolRow.getByRole('button').first().click();
    const full = toolRow.getByTestId('message-full');
    await full.waitFor();
    const text = (await full.textContent()) ?? '';
    // what the model saw: OpenClaw cuts a tool result at 400,000 characters (toolResultTruncation.ts); the message
    // view shows all of that (after the tool's name), not a preview
    console.log(`the tool result as sent: ${text.length} characters, ending ${JSON.stringify(text.slice(-90))}`);
    expect(text.startsWith(`read: ${FILE.slice(0, 400_000)}`)).toBe(true);
    expect(
      text.endsWith(`[Tool result truncated: ${FILE.length - 400_000} characters removed to fit the context window]`),
    ).toBe(true);
    await saveScreenshot(page, 'big-tool-result');

    const largest = [...answers].sort((a, b) => b.bytes - a.bytes).slice(0, 3);
    console.log(`3 MB tool result: ${answers.length} bridge answers, the largest ${JSON.stringify(largest)}`);
    expect(answers.some((a) => a.method === 'bridge.piece')).toBe(true);
    expect(Math.max(...answers.map((a) => a.bytes))).toBeLessThanOrEqual(1_000_000);
  }, 180_000);
});
