/**
 * Shared helpers for end-to-end tests: Debian's Chromium driven by playwright-core against the BUILT app in
 * browser mode (`node out/node/cli.mjs serve --port 0`, exactly what users run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { describe, inject, it } from 'vitest';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
export const TEST_RESULTS_DIR = path.join(PROJECT_ROOT, 'test-results');

/** Flags verified on these machines (docs/toolchain.md): without the networking ones Chromium floods the closed network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type ChromiumLookup = { path: string; reason?: undefined } | { path: null; reason: string };

/** CHROMIUM_PATH when set (it must exist), else /usr/bin/chromium. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumLookup {
  if (env.CHROMIUM_PATH) {
    return existsSync(env.CHROMIUM_PATH)
      ? { path: env.CHROMIUM_PATH }
      : { path: null, reason: `CHROMIUM_PATH is set to ${env.CHROMIUM_PATH}, which does not exist` };
  }
  return existsSync('/usr/bin/chromium')
    ? { path: '/usr/bin/chromium' }
    : {
        path: null,
        reason:
          'no Chromium at /usr/bin/chromium and CHROMIUM_PATH is not set (install it: apt-get install -y chromium)',
      };
}

export function isE2ERequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.E2E_REQUIRED === '1';
}

/**
 * `describe` for browser tests. Without Chromium the suite is skipped with a loud message — unless E2E_REQUIRED=1,
 * where a failing test says what is missing.
 */
export function describeWithChromium(name: string, body: (chromiumPath: () => string) => void): void {
  const found = findChromium();
  if (found.path !== null) {
    const chromiumPath = found.path;
    describe(name, () => body(() => chromiumPath));
    return;
  }
  if (isE2ERequired()) {
    describe(name, () => {
      it('has a Chromium to drive (E2E_REQUIRED=1)', () => {
        throw new Error(`End-to-end tests are required (E2E_REQUIRED=1) but ${found.reason}.`);
      });
    });
    return;
  }
  const banner = '!'.repeat(100);
  console.warn(
    `\n${banner}\n!!! E2E SKIPPED: "${name}" — ${found.reason}.\n!!! Set CHROMIUM_PATH, or E2E_REQUIRED=1 to make this a failure.\n${banner}\n`,
  );
  describe.skip(name, () => body(() => ''));
}

export interface BuiltServer {
  url: string;
  origin: string;
  token: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts `node out/node/cli.mjs serve --port 0` and resolves with the URL it prints. */
export function startBuiltServer(
  extraArgs: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<BuiltServer> {
  const cli = path.join(PROJECT_ROOT, 'out', 'node', 'cli.mjs');
  if (!existsSync(cli)) {
    return Promise.reject(new Error(`${cli} is missing: run "npm run build" first ("npm test" builds automatically).`));
  }
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', ...extraArgs], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^Open (http:\/\/127\.0\.0\.1:\d+\/\?token=([0-9a-f]+))$/m.exec(stdout);
      if (!match) return;
      const url = match[1]!;
      resolve({
        url,
        origin: new URL(url).origin,
        token: match[2]!,
        child,
        output: () => stdout + stderr,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`contextscope serve exited with code ${code} before printing its URL:\n${stdout}${stderr}`)),
    );
  });
}

export interface LaunchedChromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A fresh browser context (its own cookies, storage and cache, as a new profile would have) with one page, in the
 * Chromium the e2e project's global setup started once for every file (test/e2e/sharedChromium.ts); where that is
 * not running (a file run outside the project), a Chromium of its own.
 */
export async function launchChromium(
  executablePath: string,
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<LaunchedChromium> {
  const browser = await sharedBrowser(executablePath);
  const context = await browser.newContext({ viewport });
  await context.newPage();
  return {
    context,
    close: async () => {
      await context.close();
    },
  };
}

let connected: Promise<Browser> | undefined;

function sharedBrowser(executablePath: string): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  connected ??= endpoint
    ? chromium.connect(endpoint)
    : chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  return connected;
}

/** Collects everything that should never happen on a healthy page: console errors, exceptions, failed requests. */
export function watchPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText;
    // the browser cancelled it (a reload or a route change while a lazy chunk loaded), the server did not fail it
    if (reason === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${request.url()} (${reason})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return problems;
}

/**
 * Opens the app served by `server` in the browser's first tab and waits until the bridge is connected; the page's
 * problems (console errors, failed requests) are collected from the start.
 */
export async function openApp(
  browser: LaunchedChromium,
  server: BuiltServer,
  options: { colorScheme?: 'light' | 'dark' } = {},
): Promise<{ page: Page; problems: string[] }> {
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  const problems = watchPageProblems(page);
  if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
  await page.goto(server.url);
  await page.getByTestId('runtime-status').filter({ hasText: 'connected' }).waitFor();
  return { page, problems };
}

/** Every bridge answer the page receives from now on: its method (from the request with its id) and bytes. */
export function watchBridgeAnswers(page: Page): { method: string; bytes: number }[] {
  const answers: { method: string; bytes: number }[] = [];
  page.on('websocket', (ws) => {
    const methods = new Map<unknown, string>();
    ws.on('framesent', ({ payload }) => {
      const request = JSON.parse(String(payload)) as { id?: unknown; method?: string };
      if (request.method) methods.set(request.id, request.method);
    });
    ws.on('framereceived', ({ payload }) => {
      const text = String(payload);
      const id = (JSON.parse(text) as { id?: unknown }).id;
      if (methods.has(id)) answers.push({ method: methods.get(id)!, bytes: Buffer.byteLength(text) });
    });
  });
  return answers;
}

/** Saves a full-page screenshot (or what is in view, `fullPage: false`) as test-results/<name>.png; returns its path. */
export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(TEST_RESULTS_DIR, { recursive: true });
  const file = path.join(TEST_RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
  return file;
}

/** The window sizes the e2e screenshots are taken at: a 13" laptop and a desktop. */
export const SCREENSHOT_SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

/**
 * Screenshots of what is on screen at each of SCREENSHOT_SIZES (`test-results/<name>-<w>x<h>.png`), waiting a frame
 * after each resize for the layout (and scrolling `reveal` into view); the viewport is put back as it was. The whole
 * page unless `fullPage: false` (a page tens of thousands of pixels tall, such as a long HTML report).
 */
export async function saveScreenshotsAtSizes(
  page: Page,
  name: string,
  options: { reveal?: Locator; fullPage?: boolean } = {},
): Promise<string[]> {
  const before = page.viewportSize();
  const files: string[] = [];
  for (const size of SCREENSHOT_SIZES) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await options.reveal?.scrollIntoViewIfNeeded();
    files.push(
      await saveScreenshot(page, `${name}-${size.width}x${size.height}`, { fullPage: options.fullPage ?? true }),
    );
  }
  if (before) await page.setViewportSize(before);
  return files;
}

/** The built app in browser mode with its own config dir, and Chromium showing it (light scheme). */
export interface RunningApp {
  server: BuiltServer;
  browser: LaunchedChromium;
  page: Page;
  problems: string[];
  configDir: string;
  /** closes Chromium, stops the server, removes the config dir */
  stop(): Promise<void>;
}

export interface StartAppOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
}

export async function startApp(
  chromiumPath: string,
  env: NodeJS.ProcessEnv = {},
  options: StartAppOptions = {},
): Promise<RunningApp> {
  const configDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-config-'));
  const server = await startBuiltServer([], { ...process.env, CONTEXTSCOPE_CONFIG_DIR: configDir, ...env });
  const browser = await launchChromium(chromiumPath, options.viewport);
  const { page, problems } = await openApp(browser, server, { colorScheme: options.colorScheme ?? 'light' });
  return {
    server,
    browser,
    page,
    problems,
    configDir,
    stop: async () => {
      await browser.close();
      await server.stop();
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

/** Opens the Sessions view and lists the sessions of `dir` (a state dir or a folder of transcripts). */
export async function loadSessionFolder(page: Page, dir: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Sessions' }).click();
  const form = page.getByRole('form', { name: 'Session folder' });
  await form.getByRole('textbox').fill(dir);
  await form.getByRole('button', { name: 'Load' }).click();
}

/**
 * Opens the Sessions view, chooses the listed session whose row shows `text`, and waits until the replay form has
 * taken that session's defaults (they arrive asynchronously and would overwrite a value typed before them).
 */
export async function chooseSession(page: Page, text: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Sessions' }).click();
  await page.locator('[data-testid="session-row"]', { hasText: text }).first().click();
  const selected = page.locator('[data-testid="session-row"][aria-selected="true"]');
  await selected.filter({ hasText: text }).waitFor();
  const window = page.getByLabel('Context window (tokens)');
  let before = '';
  for (let stable = 0; stable < 3;) {
    await new Promise((r) => setTimeout(r, 150));
    const now = await window.inputValue();
    stable = now !== '' && now === before ? stable + 1 : 0;
    before = now;
  }
}
