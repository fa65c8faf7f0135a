/**
 * The state dir the app reads, remembered in `<app config dir>/workspace.json`: the folder the user chose in the
 * Sessions view, else `$OPENCLAW_STATE_DIR`, else `~/.openclaw` (as OpenClaw resolves it). Read on every call, so
 * a choice made in one window is what every later call (Plugins, Doctor, Config) sees.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BridgeMethodError, type WorkspaceInfo } from '../bridge';
import { errorMessage, isRecord, writeFileAtomic } from '../common';
import { appConfigDir, defaultStateDir } from '../plugins';
import { defaultDemoSessionsDir } from '../replay';

export interface WorkspaceEnvironment {
  /** the settings file (default: workspace.json in the app config dir) */
  settingsFile?: string;
  /** the environment $OPENCLAW_STATE_DIR and HOME come from (default: process.env) */
  env?: NodeJS.ProcessEnv;
}

/** The settings file of the app config dir `configDir`. */
export function workspaceSettingsFile(configDir: string): string {
  return join(configDir, 'workspace.json');
}

function settingsFileOf(options: WorkspaceEnvironment): string {
  return options.settingsFile ?? workspaceSettingsFile(appConfigDir(options.env ?? process.env));
}

/** The folder remembered in the settings file, or null (none, or a file that does not say one). */
function chosenStateDir(file: string): string | null {
  if (!existsSync(file)) return null;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isRecord(parsed) && typeof parsed.stateDir === 'string' && parsed.stateDir.trim() !== ''
      ? parsed.stateDir
      : null;
  } catch {
    return null; // an unreadable settings file is the same as no choice; the next choice rewrites it
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function readWorkspace(options: WorkspaceEnvironment = {}): WorkspaceInfo {
  const env = options.env ?? process.env;
  const settingsFile = settingsFileOf(options);
  const fallback = defaultStateDir(env);
  const chosen = chosenStateDir(settingsFile);
  const stateDir = chosen ?? fallback;
  return {
    stateDir,
    source: chosen ? 'chosen' : env.OPENCLAW_STATE_DIR?.trim() ? 'OPENCLAW_STATE_DIR' : 'home',
    exists: isDirectory(stateDir),
    defaultStateDir: fallback,
    demoDir: defaultDemoSessionsDir() ?? null,
    settingsFile,
  };
}

/** Remembers `stateDir` (it must be an existing folder), or forgets the choice with null. */
export function chooseStateDir(stateDir: string | null, options: WorkspaceEnvironment = {}): WorkspaceInfo {
  const settingsFile = settingsFileOf(options);
  let value: string | null = null;
  if (stateDir !== null) {
    value = resolve(stateDir.trim());
    if (!isDirectory(value)) {
      throw new BridgeMethodError(
        'not_found',
        `${value} is not a folder. Choose an OpenClaw state dir (the folder with agents/ and openclaw.json, usually ~/.openclaw) or a folder of .jsonl transcripts.`,
        '/stateDir',
      );
    }
  }
  try {
    writeFileAtomic(settingsFile, `${JSON.stringify({ stateDir: value }, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    throw new BridgeMethodError(
      'io_error',
      `Could not remember the state dir in ${settingsFile}: ${errorMessage(error)}`,
    );
  }
  return readWorkspace(options);
}
