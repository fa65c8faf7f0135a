import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export type ElectronBinary = { found: true; path: string } | { found: false; reason: string };

/**
 * Finds an Electron executable WITHOUT requiring the `electron` package (its index.js tries to download the
 * binary from GitHub when it is missing). Honours ELECTRON_EXEC_PATH and ELECTRON_OVERRIDE_DIST_PATH.
 */
export function findElectronBinary(projectRoot: string, env: NodeJS.ProcessEnv = process.env): ElectronBinary {
  if (env.ELECTRON_EXEC_PATH) {
    return existsSync(env.ELECTRON_EXEC_PATH)
      ? { found: true, path: env.ELECTRON_EXEC_PATH }
      : { found: false, reason: `ELECTRON_EXEC_PATH points to ${env.ELECTRON_EXEC_PATH}, which does not exist` };
  }
  const packageDir = path.join(projectRoot, 'node_modules', 'electron');
  const pathFile = path.join(packageDir, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const candidate = path.join(env.ELECTRON_OVERRIDE_DIST_PATH, executable ?? 'electron');
    return existsSync(candidate)
      ? { found: true, path: candidate }
      : { found: false, reason: `ELECTRON_OVERRIDE_DIST_PATH has no Electron executable at ${candidate}` };
  }
  if (!existsSync(packageDir)) return { found: false, reason: 'the electron package is not installed' };
  if (!executable) {
    return {
      found: false,
      reason: 'the Electron binary was never downloaded: node_modules/electron/path.txt is missing',
    };
  }
  const candidate = path.join(packageDir, 'dist', executable);
  return existsSync(candidate)
    ? { found: true, path: candidate }
    : { found: false, reason: `the Electron binary is missing at ${candidate}` };
}
