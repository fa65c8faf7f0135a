/** Shapes shared by discovery, consent, loading and the doctor. */
import type { EntryFormat } from './host/protocol';

export type { EntryFormat };

/**
 * Where a plugin was found. Precedence when two roots hold the same id (behaviour §10.3): `config`
 * (plugins.load.paths) and `linked` (folders the user added, like `openclaw plugins install -l`) first, then a
 * tracked global install (`global` with a `plugins.installs` record), `bundled`, `workspace`, untracked `global`.
 */
export type PluginOrigin = 'config' | 'linked' | 'bundled' | 'workspace' | 'global';

export type PluginKind = 'context-engine' | 'memory';

/** Something wrong with a plugin or its config: what, where, and what to do. */
export interface PluginProblem {
  /** stable identifier (e.g. `manifest-missing-field`, `entry-escapes-package`, `config-invalid`) */
  code: string;
  message: string;
  /** the file the problem is in */
  file?: string;
  /** JSON pointer inside that file or inside the plugin config (`/budgetShare`) */
  path?: string;
  /** what to do about it */
  fix?: string;
}

export interface PluginUiHint {
  label?: string;
  help?: string;
  placeholder?: string;
  advanced?: boolean;
  sensitive?: boolean;
  tags?: string[];
  [key: string]: unknown;
}

/** `openclaw.plugin.json` after validation (unknown keys are kept but not read). */
export interface PluginManifest {
  id: string;
  configSchema: Record<string, unknown>;
  kind?: PluginKind | PluginKind[];
  name?: string;
  description?: string;
  version?: string;
  uiHints?: Record<string, PluginUiHint>;
  [key: string]: unknown;
}

export interface PluginEntry {
  /** absolute path of the entry file */
  file: string;
  /** as written in package.json#openclaw.extensions (or the fallback index file) */
  declared: string;
  format: EntryFormat;
  /** the id the entry registers under: the manifest id, or `<id>/<entry-basename>` in a multi-entry package */
  pluginId: string;
}

export interface DiscoveredPlugin {
  /** manifest id; the folder name when the manifest is missing or unreadable */
  id: string;
  rootDir: string;
  /** realpath of rootDir (consent is keyed by it) */
  realPath: string;
  origin: PluginOrigin;
  manifestPath: string;
  manifest?: PluginManifest;
  packageJsonPath?: string;
  name?: string;
  description?: string;
  version?: string;
  kind: PluginKind[];
  entries: PluginEntry[];
  configSchema?: Record<string, unknown>;
  /** `plugins.entries.<id>.config` with the schema's defaults applied */
  config: Record<string, unknown>;
  /** config validation problems, as JSON paths (`/budgetShare: must be <= 1`) */
  configErrors: PluginProblem[];
  enabled: boolean;
  disabledReason?: string;
  /** manifest, package.json and entry problems: the plugin cannot be loaded while there are any */
  errors: PluginProblem[];
  /** shadowed duplicates, disabled-with-config and similar */
  warnings: PluginProblem[];
  /** other copies of the same id that lost on precedence */
  shadowed: { rootDir: string; origin: PluginOrigin }[];
}

/** True when the plugin may be executed as far as its files and config are concerned (consent aside). */
export function isPluginLoadable(plugin: DiscoveredPlugin): boolean {
  return plugin.errors.length === 0 && plugin.configErrors.length === 0 && plugin.entries.length > 0;
}

export function formatProblem(problem: PluginProblem): string {
  const where = problem.file
    ? `${problem.file}${problem.path ? ` ${problem.path}` : ''}: `
    : problem.path
      ? `${problem.path}: `
      : '';
  return `${where}${problem.message}${problem.fix ? ` (fix: ${problem.fix})` : ''}`;
}
