/**
 * Engine-host side: the plugin loads only what consent covers. `covered` (from the loader: real path → sha256 of
 * every file the consented package hash saw) is checked for every file a `require`, an `import` (the ESM resolve
 * hook in moduleResolution.ts does the same check on the loader thread) or a TypeScript transpile (jiti) is about to
 * load (its bytes are read and hashed again then): a file that is not covered — outside the plugin folder, in `.git`, past the hash caps — or whose bytes
 * changed since consent was checked fails to load with an error saying so. The engine host's own code (its folder,
 * jiti, the SDK shims) is exempt. This bounds what a consented plugin *loads*; it is not a sandbox for what its
 * code does once running.
 */
import Module, { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';

export const NOT_COVERED_CODE = 'ERR_NOT_COVERED_BY_CONSENT';
/** what follows the file name in each problem (plain text: the ESM hook source embeds it in quotes) */
export const NOT_COVERED_TEXT =
  'is not covered by the consent given for this plugin (it is outside the plugin folder, in .git, or past the package hash caps), so it was not loaded. Move the module into the plugin folder (a dependency into its own node_modules) and approve the plugin again.';
export const CHANGED_TEXT =
  'changed since consent was checked, so it was not loaded. Review the plugin and approve it again.';

export interface ModuleCoverage {
  /** real path → sha256 (hex) */
  covered: Record<string, string>;
  /** folders of the engine host's own code (never plugin files) */
  exemptDirs: string[];
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** The problem with loading `file` under `coverage` (a sentence), or undefined when it may load. */
export function coverageProblem(coverage: ModuleCoverage, file: string): string | undefined {
  if (coverage.exemptDirs.some((dir) => file === dir || file.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`)))
    return undefined;
  const real = realpathOr(file);
  const expected = coverage.covered[real];
  if (expected === undefined) return `${file} ${NOT_COVERED_TEXT}`;
  let digest: string;
  try {
    digest = createHash('sha256').update(readFileSync(real)).digest('hex');
  } catch {
    return undefined; // unreadable: the loader's own error says so
  }
  return digest === expected ? undefined : `${file} ${CHANGED_TEXT}`;
}

export function notCoveredError(problem: string): Error {
  return Object.assign(new Error(problem), { code: NOT_COVERED_CODE });
}

/** The engine host's own folders: this bundle's (or source) folder, jiti's package, the SDK shims. */
export function engineHostCodeDirs(shimDir: string, hostDir: string): string[] {
  const dirs = [realpathOr(shimDir), realpathOr(hostDir)];
  try {
    dirs.push(realpathOr(dirname(createRequire(`${hostDir}${sep}noop.js`).resolve('jiti/package.json'))));
  } catch {
    // no jiti: TypeScript entries fail with their own error
  }
  return dirs;
}

let installed = false;

/** Checks every CommonJS resolution of this process against `coverage` (after the SDK shims resolved). */
export function installCommonJsCoverage(coverage: ModuleCoverage): void {
  if (installed) return;
  installed = true;
  const internals = Module as unknown as {
    _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
  };
  const resolveFilename = internals._resolveFilename;
  const root = coveredRoot(coverage);
  internals._resolveFilename = function resolveCovered(request, parent, isMain, options) {
    let file: string;
    try {
      file = resolveFilename.call(this, request, parent, isMain, options);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
      // under the permission model a file outside the allowed folders cannot even be found: say why, not "Cannot find"
      const problem = unresolvedOutsideProblem(root, request, (parent as { filename?: unknown } | null)?.filename);
      throw problem ? notCoveredError(problem) : error;
    }
    if (isAbsolute(file)) {
      const problem = coverageProblem(coverage, file);
      if (problem) throw notCoveredError(problem);
    }
    return file;
  };
}

/** The deepest folder every covered file is in (the plugin's, or above it when a dependency is linked from outside). */
function coveredRoot(coverage: ModuleCoverage): string | undefined {
  const dirs = Object.keys(coverage.covered).map((file) => dirname(file));
  let root = dirs[0];
  if (root === undefined) return undefined;
  for (const dir of dirs) {
    while (dir !== root && !dir.startsWith(`${root}${sep}`)) {
      if (root === dirname(root)) return root;
      root = dirname(root);
    }
  }
  return root;
}

/**
 * The problem with a relative or absolute `request` that did not resolve and points out of `root`, the folder of the
 * covered files (`<path> is not covered…`, its extension unknown: outside the folder it cannot be looked for), else
 * undefined.
 */
function unresolvedOutsideProblem(root: string | undefined, request: string, parentFile: unknown): string | undefined {
  if (root === undefined || typeof parentFile !== 'string' || !(request.startsWith('.') || isAbsolute(request)))
    return undefined;
  const target = resolve(dirname(parentFile), request);
  if (target === root || target.startsWith(`${root}${sep}`)) return undefined;
  return `${target} ${NOT_COVERED_TEXT}`;
}

interface JitiTransformOptions {
  source: string;
  filename?: string;
}
interface JitiTransformResult {
  code?: string;
  error?: unknown;
}
type JitiTransform = (options: JitiTransformOptions) => JitiTransformResult;

/** The cache file of one transpile: named by jiti's version, the transform options and the source bytes. */
function transpileCacheFile(cacheDir: string, jitiVersion: string, options: JitiTransformOptions): string | undefined {
  const { source, ...rest } = options;
  let settings: string;
  try {
    settings = JSON.stringify(rest);
  } catch {
    return undefined; // options that cannot be named are not cached
  }
  const key = createHash('sha256').update(`${jitiVersion}\0${settings}\0`).update(source).digest('hex');
  return join(cacheDir, `${key}.js`);
}

function readCached(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * A cache file written whole or not at all: a private temporary file beside it, renamed over it. No fsync or fchmod
 * (Node's permission model refuses both on a file descriptor; a lost cache file only costs a transpile).
 */
function writeCacheFile(file: string, code: string): void {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temp, code, { mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
  } catch {
    // an unwritable cache only costs the next load a transpile
    try {
      rmSync(temp, { force: true });
    } catch {
      // nothing was left, or it cannot be removed either
    }
  }
}

/**
 * jiti's own transform with the coverage check of each file it transpiles first. jiti's file cache is off under
 * coverage (a cache hit would skip this check); the transpiled code is cached here instead, after the check, so a
 * module is checked on every load, cached or not.
 */
export function coveredJitiTransform(coverage: ModuleCoverage, hostDir: string, cacheDir?: string): JitiTransform {
  let babel: JitiTransform | undefined;
  let jitiVersion: string | undefined;
  const jitiRequire = () => createRequire(createRequire(`${hostDir}${sep}noop.js`).resolve('jiti/package.json'));
  return (options) => {
    if (options.filename) {
      const problem = coverageProblem(coverage, options.filename);
      if (problem) throw notCoveredError(problem);
    }
    jitiVersion ??= (jitiRequire()('./package.json') as { version: string }).version;
    const cacheFile = cacheDir ? transpileCacheFile(cacheDir, jitiVersion, options) : undefined;
    const cached = readCached(cacheFile);
    if (cached !== undefined) return { code: cached };
    // jiti's Babel bundle takes a while to load: only when a module is not in the cache
    babel ??= jitiRequire()('./dist/babel.cjs') as JitiTransform;
    const result = babel(options);
    if (cacheFile && !result.error && typeof result.code === 'string') writeCacheFile(cacheFile, result.code);
    return result;
  };
}
