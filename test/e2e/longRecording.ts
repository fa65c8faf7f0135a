/**
 * The long recording two e2e files open (replayLayout, budgetChart): a generated session of LONG_RECORDING_TURNS
 * turns (seed 7) replayed through legacy and recent-window by the built CLI — 15 s on a quiet machine, once per run.
 * The global setup starts it in the background (`startLongRecording`); a file that needs it waits for it
 * (`longRecordingText`). It is written under a temporary name and renamed, so a reader never sees half of it.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from './helpers';

export const LONG_RECORDING_TURNS = 1000;
const RECORDING = 'recording.json';
const FAILED = 'failed.txt';

/** Makes `<dir>/recording.json`, or `<dir>/failed.txt` saying why not; never rejects. */
export async function startLongRecording(dir: string): Promise<void> {
  const run = promisify(execFile);
  const cli = path.join(PROJECT_ROOT, 'out', 'node', 'cli.mjs');
  const sessions = path.join(dir, 'sessions');
  const partial = path.join(dir, `${RECORDING}.partial`);
  const turns = String(LONG_RECORDING_TURNS);
  const lanes = ['--lane', 'legacy', '--lane', 'plugin:recent-window', '--allow-execute', '--no-subagents'];
  try {
    await run(process.execPath, [cli, 'generate', '--turns', turns, '--seed', '7', '--out', sessions]);
    await run(process.execPath, [cli, 'replay', sessions, ...lanes, '--json', partial], { maxBuffer: 64 * 2 ** 20 });
    renameSync(partial, path.join(dir, RECORDING));
  } catch (error) {
    writeFileSync(path.join(dir, FAILED), (error as Error).message);
  }
}

/** The recording's JSON text, once the global setup has made it (waits up to `timeoutMs`). */
export async function longRecordingText(dir: string, timeoutMs = 180_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(path.join(dir, RECORDING))) return readFileSync(path.join(dir, RECORDING), 'utf8');
    if (existsSync(path.join(dir, FAILED))) {
      throw new Error(`The long recording could not be made: ${readFileSync(path.join(dir, FAILED), 'utf8')}`);
    }
    if (Date.now() > deadline) throw new Error(`The long recording was not ready in ${dir} after ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
