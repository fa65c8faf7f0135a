/**
 * The "as sent" view in the built app, on a session real OpenClaw 2026.9.6 wrote (test/fixtures/openclaw-real):
 * replayed as 2026.9.6, a turn's context shows "As assembled" and "As sent", and the sent view carries what the
 * model really received — the timestamp stamp and runtime line OpenClaw added, and its internal-context message.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithChromium,
  loadSessionFolder,
  PROJECT_ROOT,
  saveScreenshot,
  startApp,
  type RunningApp,
} from './helpers';

const FIXTURE = path.join(PROJECT_ROOT, 'test/fixtures/openclaw-real/2026.9.6/plain-text');

/** The user messages of the request the scripted model logged for turn 2 (what OpenClaw really sent). */
function sentUserTexts(): string[] {
  const requests = readFileSync(path.join(FIXTURE, 'requests.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map(
      (l) => JSON.parse(l) as { turn: number; kind: string; body: { messages: { role: string; content: unknown }[] } },
    );
  const second = requests.find((r) => r.turn === 1 && r.kind === 'turn')!;
  return second.body.messages
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string' ? m.content : (m.content as { text: string }[]).map((p) => p.text).join(''),
    );
}

describeWithChromium('browser mode: the as-sent view of a 2026.9.6 turn', (chromiumPath) => {
  let app: RunningApp;
  let page: Page;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-wire-'));
    cpSync(path.join(FIXTURE, 'agents'), path.join(stateDir, 'agents'), { recursive: true });
    app = await startApp(chromiumPath(), {}, { viewport: { width: 1280, height: 1200 } });
    page = app.page;
  });

  afterAll(async () => {
    await app?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('replays the session as 2026.9.6 and shows turn 2 as sent beside as assembled', async () => {
    await loadSessionFolder(page, stateDir);
    await page.locator('[data-testid="session-row"]', { hasText: 'differential-session' }).first().click();
    const plugin = page.getByRole('checkbox', { name: /plugin:recent-window/ });
    if (await plugin.isChecked()) await plugin.uncheck();
    const legacy = page.getByRole('checkbox', { name: /^legacy/ });
    if (!(await legacy.isChecked())) await legacy.check();
    await page.getByLabel('OpenClaw version').fill('2026.9.6');
    await page.getByRole('button', { name: 'Start replay' }).click();
    await page.getByTestId('timeline').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="timeline-row"][data-turn="1"]').click();
    const turnView = page.getByTestId('turn-view');
    await turnView.getByRole('tab', { name: 'As sent (OpenClaw 2026.9.6)' }).click();
    const wire = turnView.getByTestId('wire-section');
    const messages = wire.getByTestId('wire-message');
    // history user, assistant, the prompt, and the internal context OpenClaw appends
    expect(await messages.count()).toBe(4);
    const sent = sentUserTexts();
    const prefixes = await wire.getByTestId('wire-prefix').allTextContents();
    expect(prefixes).toEqual(sent.slice(0, 2).map((t) => t.slice(0, t.indexOf('] ') + 2)));
    const suffix = await wire.getByTestId('wire-suffix').textContent();
    expect(sent[0]).toContain(suffix!.replace(/ \| …$/, '').trim());
    expect(await messages.last().getAttribute('data-origin')).toBe('host');
    expect(await messages.last().textContent()).toContain('<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>');
    await turnView
      .getByRole('tablist', { name: 'Context view' })
      .evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await saveScreenshot(page, 'turn-as-sent-2026.9.6');
    await turnView.getByRole('tab', { name: 'As assembled' }).click();
    expect(await turnView.getByTestId('assembled-section').count()).toBe(1);
  });

  it('loaded with no console errors, page errors, CSP violations or failed requests', () => {
    expect(app.problems).toEqual([]);
  });
});
