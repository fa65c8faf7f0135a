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

/** Releases before 2026.7 stage bundled plugins' dependencies at start (runOpenClaw.ts says why that matters). */
export function stagesBundledPluginDeps(version: string): boolean {
  const [year, month] = version.split('.').map(Number);
  return year! === 2026 && month! < 7;
}

export function cacheRoot(): string {
  const explicit = process.env.CONTEXTSCOPE_CACHE_DIR;
  if (explicit) return explicit;
  const xdg = process.env.XDG_CACHE_HOME;
  return path.join(xdg && xdg.length > 0 ? xdg : path.join(os.homedir(), '.cache'), 'contextscope');
}

const BUNDLED_DEPS_DONE = 'bundled-plugin-deps.done';

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
  const env = { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' };
  const pathWithNode = `${path.join(dir, 'node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}`;
  if (!installed(dir, version)) {
    log(`installing openclaw@${version} with node@24 into ${dir} (once)`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `openclaw-${version}`, private: true }));
    // node first and saved, so the second install leaves it in place while openclaw's preinstall runs under it
    npm(dir, ['i', 'node@24'], env);
    npm(dir, ['i', `openclaw@${version}`], { ...env, PATH: pathWithNode });
    if (!installed(dir, version)) throw new Error(`openclaw@${version} did not install into ${dir}`);
  }
  if (stagesBundledPluginDeps(version) && !fs.existsSync(path.join(dir, BUNDLED_DEPS_DONE))) {
    log(`installing the bundled plugins' dependencies of openclaw@${version} (once)`);
    installBundledPluginDeps(dir, { ...env, PATH: pathWithNode });
  }
  return result;
}

/**
 * The runtime dependencies of every bundled plugin enabled by default that OpenClaw's own package does not depend
 * on, installed beside it: what a release before 2026.7 would stage at start (runOpenClaw.ts explains why it must
 * not). Read from the release's `dist/extensions/<id>/openclaw.plugin.json` (`enabledByDefault`) and package.json.
 */
function installBundledPluginDeps(dir: string, env: NodeJS.ProcessEnv): void {
  const packageRoot = path.join(dir, 'node_modules/openclaw');
  const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const own = (readJson(path.join(packageRoot, 'package.json')).dependencies ?? {}) as Record<string, string>;
  const specs = new Map<string, string>();
  const extensions = path.join(packageRoot, 'dist/extensions');
  for (const id of fs.existsSync(extensions) ? fs.readdirSync(extensions) : []) {
    const manifest = path.join(extensions, id, 'openclaw.plugin.json');
    const pkg = path.join(extensions, id, 'package.json');
    if (!fs.existsSync(manifest) || !fs.existsSync(pkg) || readJson(manifest).enabledByDefault !== true) continue;
    const deps = (readJson(pkg).dependencies ?? {}) as Record<string, string>;
    for (const [name, range] of Object.entries(deps)) if (!(name in own)) specs.set(name, range);
  }
  if (specs.size > 0) npm(dir, ['i', '--ignore-scripts', ...[...specs].map(([n, r]) => `${n}@${r}`)], env);
  fs.writeFileSync(path.join(dir, BUNDLED_DEPS_DONE), [...specs.keys()].join('\n'));
}
