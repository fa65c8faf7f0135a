/**
 * A long recording opened in the app: a generated session of `turns` turns replayed through legacy and recent-window
 * by the built CLI, kept in the app's recent recordings beforehand (a dropped file goes up the WebSocket in one
 * message, too big at this length) and opened from the Overview, the chart drawn.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRecentRecordings } from '../../main/recentRecordings';
import { importRecording, type Recording } from '../../src/replay';
import { PROJECT_ROOT, startApp, type RunningApp } from './helpers';

export interface LongRecordingApp extends RunningApp {
  recording: Recording;
  /** a scratch dir of the test's own, removed by `close` */
  workDir: string;
  /** stops the app and removes its config, state and generated-session dirs */
  close(): Promise<void>;
}

/**
 * The recording of the generated `turns`-turn session (seed 7), made once per e2e worker: the e2e files share their
 * module graph (vitest.config.ts), and the same 1,000-turn replay took 25 s in each file that opens it.
 */
const recordings = new Map<number, string>();

function recordingText(turns: number, generatedDir: string): string {
  const kept = recordings.get(turns);
  if (kept !== undefined) return kept;
  const cli = path.join(PROJECT_ROOT, 'out', 'node', 'cli.mjs');
  const sessions = path.join(generatedDir, 'sessions');
  const out = path.join(generatedDir, 'recording.json');
  execFileSync(process.execPath, [cli, 'generate', '--turns', String(turns), '--seed', '7', '--out', sessions]);
  const lanes = ['--lane', 'legacy', '--lane', 'plugin:recent-window', '--allow-execute', '--no-subagents'];
  execFileSync(process.execPath, [cli, 'replay', sessions, ...lanes, '--json', out], { stdio: 'ignore' });
  const text = readFileSync(out, 'utf8');
  recordings.set(turns, text);
  return text;
}

export async function openLongRecording(
  chromiumPath: string,
  turns: number,
  viewport: { width: number; height: number },
): Promise<LongRecordingApp> {
  const dirs = ['cs-e2e-config-', 'cs-e2e-state-', 'cs-e2e-gen-'].map((p) => mkdtempSync(path.join(tmpdir(), p)));
  const [configDir, stateDir, generatedDir] = dirs as [string, string, string];
  const removeDirs = () => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  let app: RunningApp | undefined;
  try {
    const text = recordingText(turns, generatedDir);
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
      workDir: generatedDir,
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
