/**
 * The built app in browser mode driven by Debian's Chromium (playwright-core), for benchmarks: the same server and
 * flags as the e2e tests (test/e2e/helpers.ts), without the test runner.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createRecentRecordings } from '../../src/app';
import { importRecording } from '../../src/replay';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(PROJECT_ROOT, 'out', 'node', 'cli.mjs');

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string | null {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return existsSync(path) ? path : null;
}

export interface BenchApp {
  page: Page;
  close(): Promise<void>;
}

function startServer(configDir: string, stateDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, CONTEXTSCOPE_CONFIG_DIR: configDir, OPENCLAW_STATE_DIR: stateDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^Open (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)$/m.exec(stdout);
      if (match) resolve({ url: match[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`contextscope serve exited with code ${code}: ${stdout}`)));
  });
}

/**
 * Starts `contextscope serve` with fresh config/state dirs and opens it in headless Chromium; `recordingText` (when
 * given) is kept in the recent recordings first.
 */
export async function openBenchApp(
  executablePath: string,
  recordingText: string | null,
  viewport = { width: 1600, height: 1000 },
  /** a script run in the page before the app's own (e.g. a React render counter) */
  initScript?: string,
): Promise<BenchApp> {
  const dirs = ['cs-bench-config-', 'cs-bench-state-', 'cs-bench-profile-'].map((p) => mkdtempSync(join(tmpdir(), p)));
  // kept in the recent list beforehand: a dropped file goes up the WebSocket in one message, which a
  // 1,000-turn recording (about 70 MB) exceeds
  if (recordingText !== null) {
    createRecentRecordings({ dir: join(dirs[0]!, 'recordings') }).add(importRecording(recordingText), recordingText, {
      title: 'bench',
      origin: 'file',
    });
  }
  const server = await startServer(dirs[0]!, dirs[1]!);
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(dirs[2]!, {
      executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport,
    });
  } catch (error) {
    server.child.kill('SIGTERM');
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  if (initScript) await page.addInitScript(initScript);
  await page.goto(server.url);
  await page.getByTestId('runtime-status').filter({ hasText: 'connected' }).waitFor();
  return {
    page,
    close: async () => {
      await context.close();
      server.child.kill('SIGTERM');
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Opens the recording openBenchApp kept from the Overview's recent recordings, as a user does. */
export async function openKeptRecording(page: Page): Promise<void> {
  await page.getByTestId('recent-recording').first().getByRole('button').first().click();
  await page.getByTestId('timeline').waitFor({ timeout: 120_000 });
}
