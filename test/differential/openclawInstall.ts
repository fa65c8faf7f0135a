/**
 * Real OpenClaw from the npm registry, installed once per version into a cache folder
 * (`$CONTEXTSCOPE_CACHE_DIR` or `$XDG_CACHE_HOME/contextscope` or `~/.cache/contextscope`, then
 * `openclaw/<version>`): `npm i node@24` first, then `npm i openclaw@<version>` with that Node first on PATH (its
 * preinstall script runs under whatever `node` it finds). An install that finished is reused.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface OpenClawInstall {
  version: string;
  dir: string;
  node: string;
  entry: string;
}

export function cacheRoot(): string {
  const explicit = process.env.CONTEXTSCOPE_CACHE_DIR;
  if (explicit) return explicit;
  const xdg = process.env.XDG_CACHE_HOME;
  return path.join(xdg && xdg.length > 0 ? xdg : path.join(os.homedir(), '.cache'), 'contextscope');
}

function installed(dir: string, version: string): boolean {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules/openclaw/package.json'), 'utf8')) as {
      version?: string;
    };
    return pkg.version === version && fs.existsSync(path.join(dir, 'node_modules/.bin/node'));
  } catch {
    return false;
  }
}

function npm(dir: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync('npm', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    throw new Error(`npm ${args.join(' ')} in ${dir} failed (exit ${result.status}):\n${result.stderr.slice(-2000)}`);
  }
}

export function ensureOpenClaw(version: string, log: (line: string) => void = () => {}): OpenClawInstall {
  const dir = path.join(cacheRoot(), 'openclaw', version);
  const result: OpenClawInstall = {
    version,
    dir,
    node: path.join(dir, 'node_modules/.bin/node'),
    entry: path.join(dir, 'node_modules/openclaw/openclaw.mjs'),
  };
  if (installed(dir, version)) return result;
  log(`installing openclaw@${version} with node@24 into ${dir} (once)`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `openclaw-${version}`, private: true }));
  const env = { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' };
  // node first and saved, so the second install leaves it in place while openclaw's preinstall runs under it
  npm(dir, ['i', 'node@24'], env);
  const pathWithNode = `${path.join(dir, 'node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}`;
  npm(dir, ['i', `openclaw@${version}`], { ...env, PATH: pathWithNode });
  if (!installed(dir, version)) throw new Error(`openclaw@${version} did not install into ${dir}`);
  return result;
}
