import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ShellCommand } from '../../src/bridge/methods/shell';
import { errorMessage } from '../../src/common/errorText';

/** A recording bigger than this is not sent to the page (it would stall the window); the CLI reads any size. */
export const MAX_RECORDING_BYTES = 512 * 1024 * 1024;

/**
 * What the page is told to do with a file the user opened (menu, drop, the OS): a recording `.json` goes with its
 * text, a session `.jsonl` by path; anything else, or a file that cannot be read, is a problem saying why.
 */
export function openedFileCommand(file: string): ShellCommand {
  const name = path.basename(file);
  const lower = name.toLowerCase();
  if (!lower.endsWith('.json') && !lower.endsWith('.jsonl')) {
    return {
      command: 'problem',
      message: `${file} is neither a recording (.json) nor a session transcript (.jsonl), so ContextScope cannot open it.`,
    };
  }
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return { command: 'problem', message: `${file} is not a file.` };
    if (lower.endsWith('.jsonl')) return { command: 'openFile', kind: 'session', path: file };
    if (stat.size > MAX_RECORDING_BYTES) {
      return {
        command: 'problem',
        message: `${file} is ${Math.round(stat.size / 1024 / 1024)} MB, more than the ${MAX_RECORDING_BYTES / 1024 / 1024} MB the app opens; compare it with "contextscope compare" instead.`,
      };
    }
    return { command: 'openFile', kind: 'recording', path: file, content: readFileSync(file, 'utf8') };
  } catch (error) {
    return { command: 'problem', message: `${file} could not be read: ${errorMessage(error)}` };
  }
}

/** The local path a navigation to a file:// URL names (what Chromium does with a file dropped on the page). */
export function droppedFilePath(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  try {
    return fileURLToPath(url);
  } catch {
    return null;
  }
}

/** Files named on a command line (a second instance started with a file, or "Open with"): `.json` / `.jsonl` only. */
export function filesInArgv(argv: readonly string[], cwd: string): string[] {
  return argv
    .slice(1)
    .filter((arg) => !arg.startsWith('-') && /\.jsonl?$/i.test(arg))
    .map((arg) => path.resolve(cwd, arg));
}
