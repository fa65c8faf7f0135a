/**
 * Finds plugin packages in OpenClaw's discovery roots — `plugins.load.paths`, linked folders,
 * the bundled `resources/plugins`, `<workspace>/.openclaw/extensions` and `<state dir>/extensions` — and
 * keeps one per id by OpenClaw's precedence (behaviour §10.3), recording the shadowed copies as warnings.
 * Nothing is executed here.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenClawConfig } from '../contract';
import { looksLikePluginDir, readPluginPackage, MANIFEST_FILE } from './readPluginPackage';
import type { DiscoveredPlugin, PluginOrigin } from './types';

export interface DiscoverPluginsOptions {
  config?: OpenClawConfig;
  /** the agent workspace; adds `<workspaceDir>/.openclaw/extensions` */
  workspaceDir?: string;
  /** the OpenClaw state dir (default `$OPENCLAW_STATE_DIR`, else `~/.openclaw`); adds `<stateDir>/extensions` */
  stateDir?: string;
  /** folders the user linked (a plugin folder or a folder of plugin folders); never copied */
  extraPaths?: string[];
  /** the bundled plugins folder (default: ContextScope's resources/plugins); `false` leaves it out */
  bundledDir?: string | false;
  /** relative `plugins.load.paths` resolve against this (default: the workspace, else the process cwd) */
  baseDir?: string;
  env?: NodeJS.ProcessEnv;
}

/** Lower wins. config/linked = config-selected; a global with a plugins.installs record is a tracked install. */
const RANK: Record<PluginOrigin | 'tracked-global', number> = {
  config: 0,
  linked: 0,
  'tracked-global': 2,
  bundled: 3,
  workspace: 4,
  global: 5,
};

export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.OPENCLAW_STATE_DIR?.trim();
  return fromEnv ? expandHome(fromEnv, env) : join(env.HOME?.trim() || homedir(), '.openclaw');
}

function expandHome(path: string, env: NodeJS.ProcessEnv): string {
  if (path === '~' || path.startsWith('~/')) return join(env.HOME?.trim() || homedir(), path.slice(2));
  return path;
}

/** ContextScope's bundled sample plugins (resources/plugins), from source or from a build. */
export function defaultBundledPluginsDir(): string | undefined {
  const url = typeof import.meta === 'object' ? import.meta.url : undefined;
  if (typeof url !== 'string' || !url.startsWith('file:')) return undefined;
  let dir = dirname(fileURLToPath(url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'resources', 'plugins');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

interface Candidate {
  dir: string;
  origin: PluginOrigin;
  /** a configured/linked path that does not exist */
  missing?: boolean;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A root is either a plugin folder itself or a folder of plugin folders. */
function expandRoot(root: string, origin: PluginOrigin, explicit: boolean): Candidate[] {
  if (!existsSync(root)) return explicit ? [{ dir: root, origin, missing: true }] : [];
  if (!isDirectory(root)) return explicit ? [{ dir: root, origin, missing: true }] : [];
  if (looksLikePluginDir(root)) return [{ dir: root, origin }];
  const out: Candidate[] = [];
  let names: string[];
  try {
    names = readdirSync(root).sort();
  } catch {
    return [];
  }
  for (const name of names) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const dir = join(root, name);
    if (isDirectory(dir) && (looksLikePluginDir(dir) || existsSync(join(dir, 'package.json'))))
      out.push({ dir, origin });
  }
  return out;
}

function enablement(id: string, config: OpenClawConfig): { enabled: boolean; reason?: string } {
  const plugins = config.plugins;
  if (plugins?.enabled === false)
    return { enabled: false, reason: 'plugins are disabled globally (plugins.enabled: false)' };
  if (plugins?.deny?.includes(id)) return { enabled: false, reason: `denied by plugins.deny` };
  if (plugins?.allow && plugins.allow.length > 0 && !plugins.allow.includes(id)) {
    return { enabled: false, reason: 'not listed in plugins.allow' };
  }
  if (plugins?.entries?.[id]?.enabled === false)
    return { enabled: false, reason: `disabled by plugins.entries.${id}.enabled: false` };
  return { enabled: true };
}

function isTracked(id: string, config: OpenClawConfig): boolean {
  const installs = config.plugins?.installs;
  return !!installs && typeof installs === 'object' && Object.prototype.hasOwnProperty.call(installs, id);
}

export function discoverPlugins(options: DiscoverPluginsOptions = {}): DiscoveredPlugin[] {
  const config = options.config ?? {};
  const env = options.env ?? process.env;
  const baseDir = options.baseDir ?? options.workspaceDir ?? process.cwd();
  const toAbsolute = (p: string) => {
    const expanded = expandHome(p, env);
    return isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
  };

  const candidates: Candidate[] = [];
  for (const p of config.plugins?.load?.paths ?? []) {
    if (typeof p === 'string' && p.trim()) candidates.push(...expandRoot(toAbsolute(p.trim()), 'config', true));
  }
  for (const p of options.extraPaths ?? []) candidates.push(...expandRoot(toAbsolute(p), 'linked', true));
  const bundled = options.bundledDir === false ? undefined : (options.bundledDir ?? defaultBundledPluginsDir());
  if (bundled) candidates.push(...expandRoot(bundled, 'bundled', false));
  if (options.workspaceDir)
    candidates.push(...expandRoot(join(options.workspaceDir, '.openclaw', 'extensions'), 'workspace', false));
  candidates.push(
    ...expandRoot(
      join(options.stateDir ? toAbsolute(options.stateDir) : defaultStateDir(env), 'extensions'),
      'global',
      false,
    ),
  );

  const winners = new Map<string, { plugin: DiscoveredPlugin; rank: number }>();
  const order: string[] = [];
  const seenDirs = new Set<string>();
  for (const candidate of candidates) {
    const plugin = candidate.missing
      ? missingPathPlugin(candidate)
      : readPluginPackage(candidate.dir, candidate.origin, config);
    if (seenDirs.has(plugin.realPath)) continue; // the same folder reached through two roots
    seenDirs.add(plugin.realPath);
    const rank =
      candidate.origin === 'global' && isTracked(plugin.id, config) ? RANK['tracked-global'] : RANK[candidate.origin];
    const current = winners.get(plugin.id);
    if (!current) {
      winners.set(plugin.id, { plugin, rank });
      order.push(plugin.id);
      continue;
    }
    const [winner, loser] = rank < current.rank ? [plugin, current.plugin] : [current.plugin, plugin];
    winner.shadowed.push(...loser.shadowed, { rootDir: loser.rootDir, origin: loser.origin });
    winner.warnings.push(...loser.warnings.filter((w) => w.code === 'plugin-shadowed'), {
      code: 'plugin-shadowed',
      message: `duplicate plugin id "${plugin.id}": ${loser.rootDir} (${loser.origin}) is shadowed by ${winner.rootDir} (${winner.origin})`,
      file: join(loser.rootDir, MANIFEST_FILE),
      fix: 'remove one copy, or keep it deliberately: the higher-precedence copy is the one that loads',
    });
    winners.set(plugin.id, { plugin: winner, rank: Math.min(rank, current.rank) });
  }

  return order.map((id) => {
    const { plugin } = winners.get(id)!;
    const state = enablement(plugin.id, config);
    plugin.enabled = state.enabled;
    if (state.reason) {
      plugin.disabledReason = state.reason;
      if (config.plugins?.entries?.[plugin.id]?.config !== undefined) {
        plugin.warnings.push({
          code: 'plugin-disabled-config-kept',
          message: `plugin "${plugin.id}" is disabled (${state.reason}); its config in plugins.entries.${plugin.id}.config is kept but not used`,
          file: `plugins.entries.${plugin.id}`,
          fix: `enable it with plugins.entries.${plugin.id}.enabled: true, or remove the config`,
        });
      }
    }
    return plugin;
  });
}

function missingPathPlugin(candidate: Candidate): DiscoveredPlugin {
  const source = candidate.origin === 'config' ? 'plugins.load.paths' : 'the linked plugin paths';
  return {
    id: basename(candidate.dir),
    rootDir: candidate.dir,
    realPath: candidate.dir,
    origin: candidate.origin,
    manifestPath: join(candidate.dir, MANIFEST_FILE),
    kind: [],
    entries: [],
    config: {},
    configErrors: [],
    enabled: true,
    errors: [
      {
        code: 'plugin-path-missing',
        message: `${candidate.dir} (from ${source}) does not exist or is not a folder`,
        file: candidate.dir,
        fix: `correct or remove the path in ${source}`,
      },
    ],
    warnings: [],
    shadowed: [],
  };
}

/** `plugins.entries`, `allow` and `deny` ids that name no discovered plugin (OpenClaw: a warning, ignored). */
export function findStaleConfigEntries(
  config: OpenClawConfig,
  plugins: DiscoveredPlugin[],
): { key: string; id: string }[] {
  const known = new Set(plugins.map((p) => p.id));
  const stale: { key: string; id: string }[] = [];
  for (const [id, entry] of Object.entries(config.plugins?.entries ?? {})) {
    // {enabled:false} for an unknown id is an intentional uninstall marker
    if (!known.has(id) && !(entry && entry.enabled === false && entry.config === undefined))
      stale.push({ key: `plugins.entries.${id}`, id });
  }
  for (const list of ['allow', 'deny'] as const) {
    for (const id of config.plugins?.[list] ?? []) if (!known.has(id)) stale.push({ key: `plugins.${list}`, id });
  }
  return stale;
}
