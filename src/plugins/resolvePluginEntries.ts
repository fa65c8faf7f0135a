/**
 * Resolves a plugin package's entry files from `package.json#openclaw.extensions` (else a root `index.*`),
 * rejects entries that leave the package (`../` paths, absolute paths, symlinks resolving outside), and tells
 * each entry's module format (TypeScript by extension, `.mjs`/`.cjs`, `.js` by the nearest package.json type).
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { EntryFormat, PluginEntry, PluginProblem } from './types';

export const FALLBACK_ENTRY_NAMES = ['index.ts', 'index.mts', 'index.js', 'index.mjs', 'index.cjs'] as const;
const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);
const BUILD_DIRS = new Set(['dist', 'build', 'out', 'lib']);

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** `type` of the nearest package.json between the entry's folder and the package root (inclusive). */
function packageTypeFor(file: string, root: string): string | undefined {
  let dir = dirname(file);
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        const type = (JSON.parse(readFileSync(pkg, 'utf8')) as { type?: unknown }).type;
        return typeof type === 'string' ? type : undefined;
      } catch {
        return undefined;
      }
    }
    if (dir === root || !isInside(root, dir)) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export function entryFormatOf(file: string, root: string): EntryFormat {
  const ext = extname(file).toLowerCase();
  if (TS_EXTENSIONS.has(ext)) return 'ts';
  if (ext === '.mjs') return 'esm';
  if (ext === '.cjs') return 'cjs';
  return packageTypeFor(file, root) === 'module' ? 'esm' : 'cjs';
}

export interface ResolvedEntries {
  entries: PluginEntry[];
  problems: PluginProblem[];
}

interface ResolveEntriesOptions {
  rootDir: string;
  packageJsonPath?: string;
  /** package.json#openclaw.extensions when present */
  extensions?: string[];
  pluginId: string;
}

/** The package an entry must stay inside, and where its problems are reported. */
interface EntryScope {
  rootDir: string;
  realRoot: string;
  /** package.json, else the plugin folder */
  where: string;
}

/** openclaw.extensions, else the first root `index.*`; undefined (with an entry-missing problem) when neither. */
function declaredEntries(options: ResolveEntriesOptions, problems: PluginProblem[]): string[] | undefined {
  const { rootDir, packageJsonPath } = options;
  if (options.extensions && options.extensions.length > 0) return options.extensions;
  const fallback = FALLBACK_ENTRY_NAMES.find((name) => existsSync(join(rootDir, name)));
  if (fallback) return [`./${fallback}`];
  problems.push({
    code: 'entry-missing',
    message: `no entry file: ${packageJsonPath ? 'package.json has no openclaw.extensions' : 'there is no package.json'} and the folder has no ${FALLBACK_ENTRY_NAMES.join('/')}`,
    file: packageJsonPath ?? rootDir,
    fix: 'add "openclaw": {"extensions": ["./index.js"]} to package.json, naming the file that exports register(api)',
  });
  return undefined;
}

/** The file a declared entry names, or why it cannot be one: absolute, outside the package, missing. */
function checkDeclaredPath(spec: string, scope: EntryScope): string | PluginProblem {
  const { rootDir, where } = scope;
  if (isAbsolute(spec)) {
    return {
      code: 'entry-absolute',
      message: `entry "${spec}" is an absolute path; entries must be relative to the package`,
      file: where,
      path: '/openclaw/extensions',
      fix: 'list the entry relative to the plugin folder, e.g. "./dist/index.js"',
    };
  }
  const file = resolve(rootDir, spec);
  if (!isInside(rootDir, file)) {
    return {
      code: 'entry-escapes-package',
      message: `entry "${spec}" points outside the plugin folder (${file})`,
      file: where,
      path: '/openclaw/extensions',
      fix: 'entries must stay inside the package: move the file into the plugin folder and list it as "./<path>"',
    };
  }
  if (!existsSync(file)) {
    const firstDir = spec.replace(/^\.\//, '').split(/[\\/]/)[0] ?? '';
    return {
      code: 'entry-not-found',
      message: `entry "${spec}" does not exist (${file})`,
      file: where,
      path: '/openclaw/extensions',
      fix: BUILD_DIRS.has(firstDir)
        ? `build the plugin first (e.g. npm run build in ${rootDir}); its manifest points at ${firstDir}/`
        : 'correct the path in package.json#openclaw.extensions',
    };
  }
  return file;
}

/** Undefined when an existing entry file is a file inside the package once symlinks are resolved, else the problem. */
function checkResolvedFile(spec: string, file: string, scope: EntryScope): PluginProblem | undefined {
  const { realRoot, where } = scope;
  let real: string;
  try {
    real = realpathSync(file);
  } catch (error) {
    return { code: 'entry-unreadable', message: `entry "${spec}" cannot be resolved: ${String(error)}`, file: where };
  }
  if (!isInside(realRoot, real)) {
    return {
      code: 'entry-symlink-escapes',
      message: `entry "${spec}" is a symlink that resolves outside the plugin folder (→ ${real})`,
      file: where,
      path: '/openclaw/extensions',
      fix: 'replace the symlink with the file itself (entries must stay inside the package)',
    };
  }
  if (!statSync(real).isFile()) {
    return {
      code: 'entry-not-a-file',
      message: `entry "${spec}" is not a file (${file})`,
      file: where,
      path: '/openclaw/extensions',
    };
  }
  return undefined;
}

export function resolvePluginEntries(options: ResolveEntriesOptions): ResolvedEntries {
  const { rootDir, packageJsonPath, pluginId } = options;
  const problems: PluginProblem[] = [];
  const declared = declaredEntries(options, problems);
  if (!declared) return { entries: [], problems };

  let realRoot: string;
  try {
    realRoot = realpathSync(rootDir);
  } catch {
    realRoot = rootDir;
  }
  const scope: EntryScope = { rootDir, realRoot, where: packageJsonPath ?? rootDir };
  const entries: PluginEntry[] = [];
  for (const spec of declared) {
    const file = checkDeclaredPath(spec, scope);
    if (typeof file !== 'string') {
      problems.push(file);
      continue;
    }
    const problem = checkResolvedFile(spec, file, scope);
    if (problem) {
      problems.push(problem);
      continue;
    }
    const entryPluginId = declared.length > 1 ? `${pluginId}/${basename(file, extname(file))}` : pluginId;
    entries.push({ file, declared: spec, format: entryFormatOf(file, rootDir), pluginId: entryPluginId });
  }
  return { entries, problems };
}
