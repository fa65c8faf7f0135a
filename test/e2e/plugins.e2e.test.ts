/**
 * Plugins and Doctor in the built app (browser mode, Chromium): the bundled plugins are listed with their consent
 * state; Approve and Revoke change the consent file in the (temporary) config dir; the doctor reports findings
 * grouped by severity without running unapproved plugin code.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithChromium,
  launchChromium,
  PROJECT_ROOT,
  saveScreenshot,
  startBuiltServer,
  openApp,
  type BuiltServer,
  type LaunchedChromium,
} from './helpers';

const SUMMARY_TREE = realpathSync(path.join(PROJECT_ROOT, 'resources', 'plugins', 'summary-tree'));

describeWithChromium('browser mode: plugins and doctor', (chromiumPath) => {
  let server: BuiltServer;
  let browser: LaunchedChromium;
  let page: Page;
  let problems: string[];
  let configDir: string;
  let stateDir: string;
  const consentFile = () => path.join(configDir, 'plugin-consent.json');
  const grants = () =>
    existsSync(consentFile())
      ? Object.keys((JSON.parse(readFileSync(consentFile(), 'utf8')) as { grants: object }).grants)
      : [];

  beforeAll(async () => {
    configDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-config-'));
    stateDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-state-'));
    server = await startBuiltServer([], {
      ...process.env,
      CONTEXTSCOPE_CONFIG_DIR: configDir,
      OPENCLAW_STATE_DIR: stateDir,
    });
    browser = await launchChromium(chromiumPath());
    ({ page, problems } = await openApp(browser, server));
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Plugins' }).click();
    await page.getByTestId('plugin-card').first().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    for (const dir of [configDir, stateDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the three bundled sample plugins, none approved, with the consent file in the config dir', async () => {
    const cards = page.getByTestId('plugin-card');
    expect((await cards.locator('.plugin__identity > .mono:first-of-type').allTextContents()).sort()).toEqual([
      'faulty-engines',
      'recent-window',
      'summary-tree',
    ]);
    expect(await cards.getByTestId('consent-state').allTextContents()).toEqual([
      'not approved',
      'not approved',
      'not approved',
    ]);
    expect(await page.getByText('consent file').locator('..').textContent()).toContain(consentFile());
  });

  it('Approve remembers consent for the folder; Revoke forgets it', async () => {
    const card = page.getByRole('region', { name: 'Plugin summary-tree' });
    await card.getByRole('button', { name: 'Approve summary-tree' }).click();
    await card
      .getByTestId('consent-state')
      .filter({ hasText: /^approved$/ })
      .waitFor();
    expect(await card.getByTestId('consent-state').textContent()).toBe('approved');
    expect(grants()).toEqual([SUMMARY_TREE]);
    await card.getByRole('button', { name: 'Revoke' }).click();
    await card
      .getByTestId('consent-state')
      .filter({ hasText: /^not approved$/ })
      .waitFor();
    expect(grants()).toEqual([]);
  });

  it('the doctor lists findings by severity and executes no unapproved plugin', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Doctor' }).click();
    await page.getByRole('button', { name: 'Run doctor' }).click();
    await page.getByTestId('doctor-report').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('doctor-summary').textContent()).toBe(
      'ok 3 plugins · 0 errors · 0 warnings · 3 info · plugin code was not executed',
    );
    const info = page.getByTestId('doctor-group-info');
    expect(await info.locator('.doctor__finding .mono').allTextContents()).toEqual([
      'not-executed',
      'not-executed',
      'not-executed',
    ]);
    await saveScreenshot(page, 'doctor');
  });

  it('loaded with no console errors, page errors, CSP violations or failed requests', () => {
    expect(problems).toEqual([]);
  });
});
