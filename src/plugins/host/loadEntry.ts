/**
 * Engine-host side: imports one plugin entry (ESM, CommonJS or TypeScript) and finds its `register(api)`.
 * OpenClaw accepts a default-exported function or an object `{id, name, register(api)}` (what
 * `definePluginEntry` returns); CommonJS `module.exports = fn` and transpiled `exports.default` count too.
 */
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createJiti } from 'jiti';
import type { EntryFormat, EntryLoadError } from './protocol';
import { esmLoadsThroughJiti, type SdkShimMap } from './moduleResolution';
import { coveredJitiTransform, coverageProblem, notCoveredError, type ModuleCoverage } from './moduleCoverage';
import { toError } from '../../common/errorText';
import { nameAccessDenials } from './accessDenied';

export type RegisterFunction = (api: unknown) => unknown;

export interface LoadedEntry {
  register: RegisterFunction;
  /** the definition object when the entry exported one (register is bound to it) */
  definition?: Record<string, unknown>;
}

export class EntryLoadFailure extends Error {
  readonly detail: EntryLoadError;
  constructor(detail: EntryLoadError) {
    super(detail.message);
    this.name = 'EntryLoadFailure';
    this.detail = detail;
  }
}

/** The missing module named by a Node resolution error ("Cannot find module 'x'" / "Cannot find package 'x'"). */
export function missingModuleOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const match = /Cannot find (?:module|package) '([^']+)'/.exec(error.message);
  return match?.[1];
}

export function describeLoadError(error: unknown, phase: EntryLoadError['phase']): EntryLoadError {
  nameAccessDenials(error, phase === 'register' ? 'register' : 'load');
  const err = toError(error);
  const detail: EntryLoadError = {
    message: `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}`,
    phase,
  };
  const module = missingModuleOf(err);
  if (module) detail.module = module;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') detail.code = code;
  if (typeof err.stack === 'string') detail.stack = err.stack;
  return detail;
}

/** This module's folder: the engine host's own code (the bundle's folder when built). */
export function engineHostDir(): string {
  return dirname(fileURLToPath(import.meta.url));
}

async function importModule(
  file: string,
  format: EntryFormat,
  shims: SdkShimMap,
  transpileCacheDir?: string,
  coverage?: ModuleCoverage,
): Promise<unknown> {
  // ESM through jiti too when no ESM resolve hook could be installed (Node 20 under the permission model)
  const esmThroughJiti = format === 'esm' && esmLoadsThroughJiti();
  if (format === 'ts' || esmThroughJiti) {
    // jiti reads and transpiles TypeScript modules itself: each is checked against the coverage as it is transpiled
    const problem = coverage ? coverageProblem(coverage, file) : undefined;
    if (problem) throw notCoveredError(problem);
    const jiti = createJiti(file, {
      alias: shims.cjs,
      // as OpenClaw's own loader: without it a transpiled `import fs from 'node:fs'` (a default import of a CommonJS
      // or builtin module) is undefined, and an ESM plugin that loads through jiti (Node 20, confined) fails at its
      // first call; the module's value is then its default export, which findRegister takes as it is
      interopDefault: true,
      // under coverage the transform caches (after its check): jiti's own cache would skip the check on a hit
      fsCache: coverage ? false : (transpileCacheDir ?? false),
      moduleCache: true,
      ...(coverage ? { transform: coveredJitiTransform(coverage, engineHostDir(), transpileCacheDir) as never } : {}),
    });
    // jiti.import() loads an ESM file natively (no SDK mapping, no coverage check on its imports); its require
    // transpiles it and every static import. Top-level await needs the asynchronous form.
    if (esmThroughJiti) {
      try {
        return jiti(file);
      } catch (error) {
        if (!isTopLevelAwaitError(error)) throw error;
      }
    }
    return await jiti.import(file);
  }
  return await import(pathToFileURL(file).href);
}

/** jiti's require met a module with top-level await (it can only run in jiti.import). */
function isTopLevelAwaitError(error: unknown): boolean {
  const text = error instanceof Error ? `${(error as { code?: unknown }).code ?? ''} ${error.message}` : '';
  return /ERR_REQUIRE_ASYNC_MODULE|top-level await|await is only valid/i.test(text);
}

/** What the entry's default export is, with the right article ("an object without register()", "a string"). */
export function describeDefaultExport(value: unknown): string {
  if (value === undefined) return 'it has no default export';
  if (value === null) return 'its default export is null';
  if (Array.isArray(value)) return 'its default export is an array';
  if (typeof value === 'object') return 'its default export is an object without register()';
  const type = typeof value;
  return `its default export is ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** Picks the register function out of a module namespace (or CommonJS exports). */
export function findRegister(namespace: unknown): LoadedEntry | undefined {
  const candidates: unknown[] = [];
  const ns = namespace as Record<string, unknown> | null;
  if (ns && (typeof ns === 'object' || typeof ns === 'function')) {
    candidates.push(ns.default);
    const inner = ns.default as Record<string, unknown> | undefined;
    // CommonJS compiled from ESM: import() gives { default: module.exports } and module.exports.default is the entry
    if (inner && (typeof inner === 'object' || typeof inner === 'function') && 'default' in inner)
      candidates.push(inner.default);
    candidates.push(ns);
  }
  for (const candidate of candidates) {
    if (typeof candidate === 'function') return { register: candidate as RegisterFunction };
    if (
      candidate &&
      typeof candidate === 'object' &&
      typeof (candidate as { register?: unknown }).register === 'function'
    ) {
      const definition = candidate as Record<string, unknown>;
      return { register: (api) => (definition.register as RegisterFunction).call(definition, api), definition };
    }
  }
  return undefined;
}

export async function loadEntry(
  file: string,
  format: EntryFormat,
  shims: SdkShimMap,
  transpileCacheDir?: string,
  coverage?: ModuleCoverage,
): Promise<LoadedEntry> {
  let namespace: unknown;
  try {
    namespace = await importModule(file, format, shims, transpileCacheDir, coverage);
  } catch (error) {
    throw new EntryLoadFailure(describeLoadError(error, 'import'));
  }
  const found = findRegister(namespace);
  if (!found) {
    // `in`, not `.default`: with interopDefault, jiti answers `.default` of a module without one with the module itself
    const exported =
      namespace !== null && typeof namespace === 'object' && 'default' in namespace ? namespace.default : undefined;
    throw new EntryLoadFailure({
      phase: 'export',
      message: `${file} exports no register(api): ${describeDefaultExport(exported)}; export a function register(api) or definePluginEntry({ id, register })`,
    });
  }
  return found;
}
