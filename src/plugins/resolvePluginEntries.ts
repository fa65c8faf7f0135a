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

export function resolvePluginEntries(options: {
  rootDir: string;
  packageJsonPath?: string;
  /** package.json#openclaw.extensions when present */
  extensions?: string[];
  pluginId: string;
}): ResolvedEntries {
  const { rootDir, packageJsonPath, pluginId } = options;
  const problems: PluginProblem[] = [];
  let declared: string[];
  if (options.extensions && options.extensions.length > 0) {
    declared = options.extensions;
  } else {
    const fallback = FALLBACK_ENTRY_NAMES.find((name) => existsSync(join(rootDir, name)));
    if (!fallback) {
      problems.push({
        code: 'entry-missing',
        message: `no entry file: ${packageJsonPath ? 'package.json has no openclaw.extensions' : 'there is no package.json'} and the folder has no ${FALLBACK_ENTRY_NAMES.join('/')}`,
        file: packageJsonPath ?? rootDir,
        fix: 'add "openclaw": {"extensions": ["./index.js"]} to package.json, naming the file that exports register(api)',
      });
      return { entries: [], problems };
    }
    declared = [`./${fallback}`];
  }

  let realRoot: string;
  try {
    realRoot = realpathSync(rootDir);
  } catch {
    realRoot = rootDir;
  }
  const entries: PluginEntry[] = [];
  const where = packageJsonPath ?? rootDir;
  for (const spec of declared) {
    if (isAbsolute(spec)) {
      problems.push({
        code: 'entry-absolute',
        message: `entry "${spec}" is an absolute path; entries must be relative to the package`,
        file: where,
        path: '/openclaw/extensions',
        fix: 'list the entry relative to the plugin folder, e.g. "./dist/index.js"',
      });
      continue;
    }
    const file = resolve(rootDir, spec);
    if (!isInside(rootDir, file)) {
      problems.push({
        code: 'entry-escapes-package',
        message: `entry "${spec}" points outside the plugin folder (${file})`,
        file: where,
        path: '/openclaw/extensions',
        fix: 'entries must stay inside the package: move the file into the plugin folder and list it as "./<path>"',
      });
      continue;
    }
    if (!existsSync(file)) {
      const firstDir = spec.replace(/^\.\//, '').split(/[\\/]/)[0] ?? '';
      problems.push({
        code: 'entry-not-found',
        message: `entry "${spec}" does not exist (${file})`,
        file: where,
        path: '/openclaw/extensions',
        fix: BUILD_DIRS.has(firstDir)
          ? `build the plugin first (e.g. npm run build in ${rootDir}); its manifest points at ${firstDir}/`
          : 'correct the path in package.json#openclaw.extensions',
      });
      continue;
    }
    let real: string;
    try {
      real = realpathSync(file);
    } catch (error) {
      problems.push({
        code: 'entry-unreadable',
        message: `entry "${spec}" cannot be resolved: ${String(error)}`,
        file: where,
      });
      continue;
    }
    if (!isInside(realRoot, real)) {
      problems.push({
        code: 'entry-symlink-escapes',
        message: `entry "${spec}" is a symlink that resolves outside the plugin folder (→ ${real})`,
        file: where,
        path: '/openclaw/extensions',
        fix: 'replace the symlink with the file itself (entries must stay inside the package)',
      });
      continue;
    }
    if (!statSync(real).isFile()) {
      problems.push({
        code: 'entry-not-a-file',
        message: `entry "${spec}" is not a file (${file})`,
        file: where,
        path: '/openclaw/extensions',
      });
      continue;
    }
    const entryPluginId = declared.length > 1 ? `${pluginId}/${basename(file, extname(file))}` : pluginId;
    entries.push({ file, declared: spec, format: entryFormatOf(file, rootDir), pluginId: entryPluginId });
  }
  return { entries, problems };
}
