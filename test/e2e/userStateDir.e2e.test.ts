/**
 * The app as a user's daily tool (issue 16): it opens on the sessions of $OPENCLAW_STATE_DIR and Plugins read the
 * same folder; the demo replays at its session's defaults without prompt errors and shows the quarantine of its
 * optional faulty lane; the recording survives a reload; an exported recording opens from a file; the timeline
 * search finds a message by its text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultDemoSessionsDir, exportRecordingJson, replaySession } from '../../src/replay';
import { generateSession, writeGeneratedSessions } from '../../src/transcripts';
import { describeWithChromium, saveScreenshot, startApp, type RunningApp } from './helpers';

const DEMO_SHORT = path.join(
  defaultDemoSessionsDir()!,
  'agents/main/sessions/db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl',
);

async function openSection(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name, exact: true }).click();
}

describeWithChromium('browser mode: the sessions where the user keeps them, and the daily habits', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let work: string;
  let stateDir: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cs-e2e-workspace-'));
    stateDir = path.join(work, 'state');
    const set = generateSession({
      turns: 6,
      seed: 'e2e-workspace',
      subagents: 1,
      agentId: 'ops',
      sessionKey: 'agent:ops:nightly',
    });
    await writeGeneratedSessions(set, stateDir, {});
    app = await startApp(chromiumPath(), { OPENCLAW_STATE_DIR: stateDir });
    page = app.page;
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('opens Sessions on $OPENCLAW_STATE_DIR, and Plugins read the same state dir', async () => {
    await openSection(page, 'Sessions');
    const source = page.getByRole('tab', { name: /Your sessions/ });
    await expect.poll(() => source.textContent()).toContain(stateDir);
    expect(await source.textContent()).toContain('$OPENCLAW_STATE_DIR');
    await expect.poll(() => page.getByTestId('session-row').first().textContent()).toContain('agent:ops:nightly');
    expect(await page.getByText(`Listing ${stateDir}`).count()).toBe(1);
    await saveScreenshot(page, 'workspace-sessions');
    await openSection(page, 'Plugins');
    await expect.poll(() => page.locator('.plugins-view').textContent()).toContain(`State dir ${stateDir}`);
  });

  it('replays the demo at its defaults: no prompt error, compactions, a spawn, the faulty lane quarantined', async () => {
    await openSection(page, 'Overview');
    await page.getByRole('button', { name: 'Replay the demo session' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run plugin code?' });
    await dialog.getByRole('button', { name: 'Approve and run' }).click();
    await page.getByTestId('timeline').waitFor({ timeout: 120_000 });
    // finished turns show while the replay runs: wait for all 16 and the end of the run
    await expect
      .poll(() => page.locator('.replay-view').first().textContent(), { timeout: 120_000 })
      .toMatch(/16 turns · 3 lanes/);
    await page.getByRole('button', { name: 'Cancel' }).waitFor({ state: 'detached', timeout: 120_000 });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Replay agent:main:main');
    // the error filter finds the turns the header counts as error turns (src/view turnProblems), and none of them
    // is a prompt error (a status badge on its timeline cell)
    await saveScreenshot(page, 'workspace-demo');
    const problems = (await page.getByTestId('replay-problems').textContent())!;
    const errorTurns = problems.startsWith('no error') ? '0' : /^([\d,]+) error turns?/.exec(problems)![1];
    await page.getByLabel('Event').selectOption('error');
    await expect.poll(() => page.getByTestId('timeline-filter-count').textContent()).toBe(`${errorTurns} of 16 turns`);
    expect(await page.getByTestId('badge-status').count()).toBe(0);
    await page.getByLabel('Event').selectOption('compaction');
    const compacted = Number((await page.getByTestId('timeline-filter-count').textContent())!.split(' ')[0]);
    expect(compacted).toBeGreaterThan(2);
    // a compaction turn says why, with its arithmetic (src/view compactionCause.ts)
    await page.getByTestId('timeline-row').first().click();
    const cause = page.getByTestId('compaction-cause').first();
    await cause.scrollIntoViewIfNeeded();
    expect(await cause.textContent()).toMatch(
      /^why: (precheck estimate [\d,]+ .* > compaction threshold [\d,]+|provider overflow on attempt \d|context after the turn [\d,]+ .* > window − reserve [\d,]+|compacted in the recorded session|not reported: )/,
    );
    await saveScreenshot(page, 'workspace-demo-compaction-cause');
    await page.getByLabel('Event').selectOption('');
    // a cell shows its first event and +N; data-events names them all
    const cellsWith = (kind: string) => page.locator(`[data-testid="cell-events"][data-events~="${kind}"]`).count();
    expect(await cellsWith('compaction')).toBeGreaterThan(0);
    expect(await cellsWith('spawn')).toBeGreaterThan(0);
    expect(await cellsWith('quarantine')).toBeGreaterThan(0);
    await page.getByRole('tab', { name: /optional: faulty factory/ }).click();
    const banner = page.getByTestId('lane-quarantine');
    await expect.poll(() => banner.textContent()).toContain('faulty-factory-throws was quarantined in factory');
    expect(await page.getByTestId('turn-status').textContent()).toBe('quarantined → legacy');
    await saveScreenshot(page, 'workspace-demo-quarantine');
  }, 180_000);

  it('finds a message by its text in the timeline and in the turn', async () => {
    const search = page.getByLabel("Find text in the turns' messages");
    await search.fill('currency');
    await expect.poll(() => page.getByTestId('timeline-filter-count').textContent()).toMatch(/^\d+ of 16 turns$/);
    const shown = Number((await page.getByTestId('timeline-filter-count').textContent())!.split(' ')[0]);
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(16);
    await page.getByLabel("Find in this turn's messages").fill('currency');
    await expect.poll(() => page.getByTestId('turn-search-count').textContent()).toMatch(/^[1-9]\d* matching message/);
    await saveScreenshot(page, 'workspace-search');
    await search.fill('');
    await page.getByLabel("Find in this turn's messages").fill('');
  });

  it('keeps the recording across a reload', async () => {
    await openSection(page, 'Overview');
    await expect.poll(() => page.getByTestId('recent-recording').count()).toBeGreaterThan(0);
    await page.reload();
    await page.getByTestId('runtime-status').filter({ hasText: 'connected' }).waitFor();
    await openSection(page, 'Replay');
    await page.getByTestId('timeline').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Replay agent:main:main');
  });

  it('opens an exported recording from a file, and says what is wrong with a file that is not one', async () => {
    const recording = await replaySession({
      session: DEMO_SHORT,
      lanes: [{ engine: { kind: 'legacy' }, contextWindow: 48_000 }],
    });
    const file = path.join(work, 'short.recording.json');
    writeFileSync(file, exportRecordingJson(recording));
    const broken = path.join(work, 'broken.json');
    writeFileSync(broken, JSON.stringify({ ...recording, lanes: 'none' }));
    await openSection(page, 'Overview');
    await page.getByLabel('Recording file').setInputFiles(broken);
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toMatch(/broken\.json does not match the Recording schema/);
    await page.getByLabel('Recording file').setInputFiles(file);
    await page.getByTestId('timeline').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Replay short');
    await saveScreenshot(page, 'workspace-opened-file');
    // kept in the recent list, newest first, as a file
    await openSection(page, 'Overview');
    await expect
      .poll(() => page.getByTestId('recent-recording').first().textContent())
      .toContain('file short.recording.json');
  }, 60_000);
});
