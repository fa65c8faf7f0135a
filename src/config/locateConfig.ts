/**
 * Finding and reading the user's openclaw.json. OpenClaw's own order: an explicit file, else $OPENCLAW_CONFIG_PATH,
 * else openclaw.json in the state dir ($OPENCLAW_STATE_DIR, else ~/.openclaw; callers pass it, e.g. from
 * defaultStateDir() or --state-dir). Read only: nothing here writes the file (configSave.ts does).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import JSON5 from 'json5';
import { errorMessage, isRecord } from '../common';
import type { OpenClawConfig } from '../contract';

/** The openclaw.json to read: --config, else $OPENCLAW_CONFIG_PATH, else <state dir>/openclaw.json when it exists. */
export function locateOpenClawConfig(
  explicit: string | undefined,
  stateDir: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (explicit) return resolve(explicit);
  if (env.OPENCLAW_CONFIG_PATH?.trim()) return resolve(env.OPENCLAW_CONFIG_PATH.trim());
  const candidate = join(stateDir, 'openclaw.json');
  return existsSync(candidate) ? candidate : undefined;
}

/** The openclaw.json a change is written to: as locateOpenClawConfig, but <state dir>/openclaw.json even when absent. */
export function openClawConfigTarget(
  explicit: string | undefined,
  stateDir: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return locateOpenClawConfig(explicit, stateDir, env) ?? join(stateDir, 'openclaw.json');
}

/** The config in `path` (JSON5, as OpenClaw reads it); throws an Error that says what to fix. */
export function readOpenClawConfigFile(path: string): OpenClawConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the OpenClaw config ${path}: ${errorMessage(error)}. Check the --config path.`, {
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON5.parse(text);
  } catch (error) {
    throw new Error(
      `${path} is not valid JSON5: ${errorMessage(error).replace(/^JSON5: /, '')}. Fix the syntax at that position.`,
      { cause: error },
    );
  }
  if (!isRecord(parsed)) {
    throw new Error(
      `${path} must contain a JSON object (the OpenClaw config), not ${Array.isArray(parsed) ? 'an array' : typeof parsed}.`,
    );
  }
  return parsed as OpenClawConfig;
}
