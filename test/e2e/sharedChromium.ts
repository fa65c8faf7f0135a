/**
 * The e2e project's global setup: one headless Chromium for every test file (starting one per file cost a second or
 * more each on 2 cores), and the long recording two files open, started here in the background so it is made once
 * while the node files run instead of in an e2e worker's time (longRecordingApp.ts). Each test still gets a browser
 * context of its own (helpers.ts `launchChromium`), which is as fresh as a new profile: its own cookies, storage and
 * cache. Without a Chromium nothing starts, and the tests skip or fail as helpers.ts `describeWithChromium` decides.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, findChromium } from './helpers';
import { startLongRecording } from './longRecording';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the shared Chromium's WebSocket endpoint, or '' when there is none */
    chromiumEndpoint: string;
    /** the folder the long recording is made in (longRecording.ts) */
    longRecordingDir: string;
  }
}

let server: BrowserServer | undefined;
let longRecordingDir: string | undefined;
let longRecording: Promise<void> | undefined;

export async function setup(project: TestProject): Promise<void> {
  const found = findChromium();
  if (found.path !== null) {
    server = await chromium.launchServer({ executablePath: found.path, headless: true, args: CHROMIUM_ARGS });
  }
  project.provide('chromiumEndpoint', server?.wsEndpoint() ?? '');
  longRecordingDir = mkdtempSync(path.join(tmpdir(), 'cs-e2e-long-'));
  longRecording = startLongRecording(longRecordingDir);
  project.provide('longRecordingDir', longRecordingDir);
}

export async function teardown(): Promise<void> {
  await server?.close();
  await longRecording;
  if (longRecordingDir) rmSync(longRecordingDir, { recursive: true, force: true });
}
