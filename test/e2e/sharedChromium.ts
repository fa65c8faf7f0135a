/**
 * The e2e project's global setup: one headless Chromium for every test file (starting one per file cost a second or
 * more each on 2 cores). Each test still gets a browser context of its own (helpers.ts `launchChromium`), which is
 * as fresh as a new profile: its own cookies, storage and cache. Without a Chromium nothing starts, and the tests
 * skip or fail as helpers.ts `describeWithChromium` decides.
 */
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, findChromium } from './helpers';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the shared Chromium's WebSocket endpoint, or '' when there is none */
    chromiumEndpoint: string;
  }
}

let server: BrowserServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  const found = findChromium();
  if (found.path !== null) {
    server = await chromium.launchServer({ executablePath: found.path, headless: true, args: CHROMIUM_ARGS });
  }
  project.provide('chromiumEndpoint', server?.wsEndpoint() ?? '');
}

export async function teardown(): Promise<void> {
  await server?.close();
}
