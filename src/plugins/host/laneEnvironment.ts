/**
 * The process environment an engine host (and so a plugin) runs in: temporary HOME, OPENCLAW_STATE_DIR, TMPDIR
 * and working directory per lane unless the user points a lane at real state, and an allow-listed set of
 * environment variables (the app's secrets and NODE_OPTIONS never reach plugin code).
 */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LaneDirs {
  home: string;
  stateDir: string;
  tmpDir: string;
  cwd: string;
}

export interface PreparedLaneDirs {
  dirs: LaneDirs;
  /** removes the temporary folders this call created (never folders the caller passed in) */
  cleanup(): void;
}

/** Variables copied from the app's environment when set. Everything else is dropped. */
export const PLUGIN_ENV_ALLOW_LIST = [
  'PATH',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'TZ',
  // Windows needs these to start processes at all
  'SYSTEMROOT',
  'SystemRoot',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
] as const;

/** Never passed to plugins, even when requested explicitly (they change how the engine host itself starts). */
export const PLUGIN_ENV_DENY_LIST = ['NODE_OPTIONS', 'NODE_PATH', 'ELECTRON_RUN_AS_NODE'] as const;

export function prepareLaneDirs(given: Partial<LaneDirs> = {}): PreparedLaneDirs {
  let root: string | undefined;
  const temp = (name: string): string => {
    root ??= mkdtempSync(join(tmpdir(), 'contextscope-lane-'));
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const home = given.home ?? temp('home');
  const stateDir = given.stateDir ?? (given.home ? join(given.home, '.openclaw') : temp(join('home', '.openclaw')));
  const tmpDir = given.tmpDir ?? temp('tmp');
  const cwd = given.cwd ?? temp('work');
  return {
    dirs: { home, stateDir, tmpDir, cwd },
    cleanup() {
      if (root) rmSync(root, { recursive: true, force: true });
    },
  };
}

export function buildPluginEnv(options: {
  parentEnv?: NodeJS.ProcessEnv;
  dirs: LaneDirs;
  /** variables the user passes explicitly (e.g. an API key a plugin needs) */
  extra?: Record<string, string>;
}): Record<string, string> {
  const parentEnv = options.parentEnv ?? process.env;
  const env: Record<string, string> = {};
  for (const key of PLUGIN_ENV_ALLOW_LIST) {
    const value = parentEnv[key];
    if (typeof value === 'string') env[key] = value;
  }
  const { home, stateDir, tmpDir } = options.dirs;
  Object.assign(env, {
    HOME: home,
    USERPROFILE: home,
    OPENCLAW_STATE_DIR: stateDir,
    TMPDIR: tmpDir,
    TMP: tmpDir,
    TEMP: tmpDir,
  });
  for (const [key, value] of Object.entries(options.extra ?? {})) {
    if (typeof value === 'string') env[key] = value;
  }
  for (const key of PLUGIN_ENV_DENY_LIST) delete env[key];
  return env;
}

/** The Node binary for engine hosts: the option, else CONTEXTSCOPE_ENGINE_NODE, else this process's Node. */
export function resolveEngineNodePath(option?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (option) return option;
  const fromEnv = env.CONTEXTSCOPE_ENGINE_NODE;
  if (fromEnv && fromEnv.trim()) return fromEnv.trim();
  return process.execPath;
}
