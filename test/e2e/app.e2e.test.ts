import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PACKAGE_VERSION } from '../../src/app';
import {
  describeWithChromium,
  launchChromium,
  saveScreenshot,
  startBuiltServer,
  openApp,
  type BuiltServer,
  type LaunchedChromium,
} from './helpers';

describeWithChromium('browser mode: the app frame in Chromium', (chromiumPath) => {
  let server: BuiltServer;
  let browser: LaunchedChromium;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    server = await startBuiltServer();
    browser = await launchChromium(chromiumPath());
    ({ page, problems } = await openApp(browser, server, { colorScheme: 'light' }));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the runtime status from the bridge in the header', async () => {
    const header = page.getByRole('banner');
    expect(await header.getByTestId('runtime-status').textContent()).toBe('connected');
    expect(await header.getByTestId('node-version').textContent()).toBe(`Node ${process.version}`);
    expect(await header.getByTestId('app-version').textContent()).toBe(`v${PACKAGE_VERSION}`);
    expect(await header.getByTestId('app-shell').textContent()).toBe('Browser mode');
    expect(await header.getByTestId('runtime-host').textContent()).toBe('Node runtime');
  });

  it('shows the serving process in the overview card (pid of the spawned server, not of the test)', async () => {
    const pidRow = page.getByTestId('app-info-card').locator('.card__row', { hasText: 'Process id' }).locator('dd');
    expect(await pidRow.textContent()).toBe(String(server.child.pid));
  });

  it('saves a screenshot of the app frame to test-results/app-frame.png', async () => {
    const file = await saveScreenshot(page, 'app-frame');
    expect(readFileSync(file).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('follows the system colour scheme', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe('rgb(246, 247, 249)');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).toBe('rgb(17, 19, 24)');
    await saveScreenshot(page, 'app-frame-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('loaded with no console errors, page errors, CSP violations or failed requests', () => {
    expect(problems).toEqual([]);
  });

  it('without the token in the URL the bridge refuses the page, and the page says what to do', async () => {
    const other = await browser.context.newPage();
    try {
      await other.goto(`${server.origin}/`);
      await other.getByTestId('runtime-status').filter({ hasText: 'disconnected' }).waitFor();
      expect(await other.getByRole('alert').first().textContent()).toBe(
        'This page has no bridge token in its URL. Open the full URL printed by `contextscope serve` (it ends in ?token=…).',
      );
    } finally {
      await other.close();
    }
  });

  it('with a wrong token the WebSocket is refused and the page reports it', async () => {
    const other = await browser.context.newPage();
    try {
      await other.goto(`${server.origin}/?token=${'0'.repeat(64)}`);
      await other.getByTestId('runtime-status').filter({ hasText: 'disconnected' }).waitFor();
      expect(await other.getByRole('alert').first().textContent()).toContain(
        'Could not connect to the ContextScope bridge',
      );
      expect(server.output()).toContain('bridge: refused connection (401)');
    } finally {
      await other.close();
    }
  });
});
