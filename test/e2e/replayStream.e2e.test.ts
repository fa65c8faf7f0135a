/**
 * A long replay streams in the built app (1280×800): the first turns are on screen while the replay still runs, a
 * finished turn can be opened then, and Cancel keeps the turns done as a recording marked partial. The budget chart
 * stays readable above the progress strip while streaming and after Cancel (the 1,000-turn chart: replayLayout). The
 * runtime is held still (SIGSTOP) from the first turns to Cancel, so the replay cannot end before the click.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSession, writeGeneratedSessions } from '../../src/transcripts';
import { chartLayout, readabilityProblems } from './chartLayout';
import {
  describeWithChromium,
  loadSessionFolder,
  saveScreenshot,
  startApp,
  watchBridgeAnswers,
  type RunningApp,
} from './helpers';

/** the plot area's least height (px) at which its axis labels, band labels and markers read */
const MIN_PLOT_HEIGHT = 72;

/** The chart reads, and the turn detail keeps a usable part of the 800 px window. */
async function expectReadableLayout(page: Page, when: string): Promise<void> {
  // the plot loads on demand (and is drawn again as turns arrive): measure it once it is there
  await expect.poll(async () => (await chartLayout(page)).yTicks.length, { timeout: 30_000 }).toBeGreaterThan(0);
  const layout = await chartLayout(page);
  console.log(
    `${when}: plot ${Math.round(layout.plot.height)} px; master pane ${Math.round(layout.master.height)} px ` +
      `(content ${layout.master.scrollHeight}); detail pane from y ${Math.round(layout.detail.y)}, ` +
      `${Math.round(layout.detail.height)} px`,
  );
  expect(readabilityProblems(layout, MIN_PLOT_HEIGHT)).toEqual([]);
  expect(layout.detail.y).toBeLessThan(800 - 150);
  expect(layout.detail.height).toBeGreaterThanOrEqual(150);
}

const largestOf = (answers: { method: string; bytes: number }[]) =>
  [...answers].sort((a, b) => b.bytes - a.bytes).slice(0, 3);

const doneOf = async (page: Page) =>
  Number(
    /Replaying: ([\d,]+) of/
      .exec((await page.getByTestId('replay-streaming').textContent()) ?? '')?.[1]
      ?.replace(/,/g, '') ?? 0,
  );

/** Whether the page has read the last page of a replay's final generation (the runtime's whole recording). */
function watchFinalStreamPage(page: Page): { seen: boolean } {
  const state = { seen: false };
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      const text = String(payload);
      if (text.includes('"generation":"final"') && text.includes('"more":false')) state.seen = true;
    }),
  );
  return state;
}

describeWithChromium('browser mode: a streaming replay', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-stream-'));
    await writeGeneratedSessions(generateSession({ turns: 3000, seed: 'e2e-stream', contextWindow: 64_000 }), dir);
    app = await startApp(chromiumPath());
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('opens a finished turn while the replay runs, and Cancel keeps a partial recording', async () => {
    // every bridge answer from a fresh connection on (the replay's stream pages among them)
    const streamed = watchBridgeAnswers(page);
    const finalRead = watchFinalStreamPage(page);
    await page.reload();
    await page.getByTestId('runtime-status').filter({ hasText: 'connected' }).waitFor();
    await loadSessionFolder(page, dir);
    // the generated session's row (the list shows its 3,000 turns once the folder is read)
    await page.locator('[data-testid="session-row"]', { hasText: '3,000' }).first().click();
    const plugin = page.getByRole('checkbox', { name: /plugin:recent-window/ });
    if ((await plugin.count()) > 0 && (await plugin.isChecked())) await plugin.uncheck();
    await page.getByRole('button', { name: 'Start replay' }).click();

    const streaming = page.getByTestId('replay-streaming');
    await streaming.waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('timeline-row').count(), { timeout: 60_000 }).toBeGreaterThan(3);
    // the plot is a chunk the page loads from the server when the first turns arrive
    await expect.poll(async () => (await chartLayout(page)).yTicks.length, { timeout: 30_000 }).toBeGreaterThan(0);
    // Hold the runtime still (SIGSTOP) while the page is looked at and Cancel is pressed, as on a machine too slow to
    // finish first: the 3,000 turns take 3-20 s depending on load, and in one CI run the replay ended before the
    // click. The page keeps what it has streamed; Cancel waits in the socket and lands as the runtime resumes.
    const runtime = app.server.child.pid!;
    process.kill(runtime, 'SIGSTOP');
    try {
      await page.getByTestId('timeline-row').nth(2).click();
      await expect.poll(() => page.getByTestId('turn-view').locator('h2').first().textContent()).toMatch(/^Turn 3 /);
      // the turn opened while the replay was still running (the progress strip is only shown then)
      expect(await streaming.count()).toBe(1);
      expect(await streaming.textContent()).toMatch(
        /of 3,000 lane-turns( · [\d.]+ turns\/s · about \d+ (s|min) left)?$/,
      );
      await expectReadableLayout(page, 'streaming, first turns');
      await saveScreenshot(page, 'replay-streaming');
      console.log(`cancel at ${await doneOf(page)} of 3,000 lane-turns`);
      await streaming.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      process.kill(runtime, 'SIGCONT');
    }
    const partial = page.getByTestId('replay-partial');
    await partial.waitFor({ timeout: 60_000 });
    expect(await streaming.count()).toBe(0);
    // shown as stopped once the runtime confirmed the Cancel, with the turns streamed so far; the runtime's whole
    // partial recording (a turn or two more, and its own count) replaces them once its last page is read
    await expect.poll(() => finalRead.seen, { timeout: 60_000 }).toBe(true);
    // the note and the turn list say the same count of the partial recording; the opened turn stays selected
    // (counts with or without a thousands separator)
    const count = (text: string | null, pattern: RegExp) =>
      Number(pattern.exec(text ?? '')?.[1]?.replace(/,/g, '') ?? NaN);
    const turnHeading = () => page.getByTestId('turn-view').locator('h2').first().textContent();
    const counts = async () => [
      count(await partial.textContent(), /cancelled after ([\d,]+) of 3,000/),
      count(await turnHeading(), /^Turn 3 of ([\d,]+)\b/),
    ];
    // one number (the reload below checks it is the runtime's: the page then reads only its recording)
    const agreed = async () => {
      const [note, list] = await counts();
      return note === list ? note : NaN;
    };
    await expect.poll(agreed, { timeout: 60_000 }).not.toBeNaN();
    const done = await agreed();
    expect(done).toBeGreaterThanOrEqual(3);
    expect(done).toBeLessThan(3000);
    expect(await streaming.count()).toBe(0);
    const heading = new RegExp(`^Turn 3 of ${done.toLocaleString('en-US').replace(/,/g, ',?')}\\b`);
    await expectReadableLayout(page, 'cancelled (partial recording)');
    await saveScreenshot(page, 'replay-partial');
    // the stream's pages (its 27,000-entry session's head in pieces among them) stayed under the bound
    expect(streamed.filter((a) => a.method === 'replay.stream').length).toBeGreaterThan(10);
    console.log(`streaming: the largest bridge answers ${JSON.stringify(largestOf(streamed))}`);
    expect(Math.max(...streamed.map((a) => a.bytes))).toBeLessThanOrEqual(1_000_000);

    // a reload: the link names the replay, which the runtime reads back in pages (too long for one message)
    const answers = watchBridgeAnswers(page);
    await page.reload();
    await expect.poll(turnHeading, { timeout: 60_000 }).toMatch(heading);
    const gets = answers.filter((a) => a.method === 'replay.get');
    expect(gets.length).toBeGreaterThan(1);
    const largest = Math.max(...answers.map((a) => a.bytes));
    console.log(`reload: ${gets.length} replay.get answers; the largest ${JSON.stringify(largestOf(answers))}`);
    expect(largest).toBeLessThanOrEqual(1_000_000);
    await saveScreenshot(page, 'replay-partial-reloaded');
  }, 420_000);
});
