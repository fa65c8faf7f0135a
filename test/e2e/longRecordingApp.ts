/**
 * The long recording (longRecording.ts: LONG_RECORDING_TURNS generated turns through legacy and recent-window) opened
 * in the app: kept in the app's recent recordings beforehand (a dropped file goes up the WebSocket in one message,
 * too big at this length) and opened from the Overview, the chart drawn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRecentRecordings } from '../../src/app';
import { inject } from 'vitest';
import { importRecording, type Recording } from '../../src/replay';
import { startApp, type RunningApp } from './helpers';
import { longRecordingText } from './longRecording';

export interface LongRecordingApp extends RunningApp {
  recording: Recording;
  /** a scratch dir of the test's own, removed by `close` */
  workDir: string;
  /** stops the app and removes its config, state and generated-session dirs */
  close(): Promise<void>;
}

export async function openLongRecording(
  chromiumPath: string,
  viewport: { width: number; height: number },
): Promise<LongRecordingApp> {
  const dirs = ['cs-e2e-config-', 'cs-e2e-state-', 'cs-e2e-work-'].map((p) => mkdtempSync(path.join(tmpdir(), p)));
  const [configDir, stateDir, workDir] = dirs as [string, string, string];
  const removeDirs = () => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  let app: RunningApp | undefined;
  try {
    const text = await longRecordingText(inject('longRecordingDir'));
    const recording = importRecording(text);
    createRecentRecordings({ dir: path.join(configDir, 'recordings') }).add(recording, text, {
      title: 'long',
      origin: 'file',
    });
    app = await startApp(
      chromiumPath,
      { CONTEXTSCOPE_CONFIG_DIR: configDir, OPENCLAW_STATE_DIR: stateDir },
      { viewport },
    );
    const { page } = app;
    await page.getByTestId('recent-recording').first().getByRole('button').first().click();
    await page.getByTestId('timeline').waitFor({ timeout: 120_000 });
    await page.locator('.budget-chart .recharts-line').first().waitFor();
    const running = app;
    return {
      ...running,
      recording,
      workDir,
      close: async () => {
        await running.stop();
        removeDirs();
      },
    };
  } catch (error) {
    await app?.stop();
    removeDirs();
    throw error;
  }
}
