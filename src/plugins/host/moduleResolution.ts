/**
 * Engine-host side: makes the `openclaw/plugin-sdk` specifiers ContextScope provides (`PLUGIN_SDK_SHIM_FILES`: the
 * root, `/core`, `/plugin-entry`, `/logging-core`, `/session-transcript-runtime`, `/session-store-runtime`,
 * `/sqlite-runtime`) resolvable from any plugin folder without touching the folder. ESM imports go through a `module.register` resolve hook
 * (under Node's permission model, where `module.register` would need worker threads: an in-thread
 * `module.registerHooks` hook on Node 22.15+, and on older Nodes ESM entries are loaded through jiti, see
 * `esmLoadsThroughJiti`); CommonJS
 * `require` goes through a patched `Module._resolveFilename`; TypeScript entries loaded with jiti get the same
 * mapping as jiti aliases. Every specifier maps to a shim file in src/plugins/sdk/shims (or the copy next to
 * a built engine host).
 */
import Module, { register } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PLUGIN_SDK_SHIM_FILES, type PluginSdkSpecifier } from '../sdk/pluginSdk';
import {
  CHANGED_TEXT,
  coverageProblem,
  installCommonJsCoverage,
  notCoveredError,
  NOT_COVERED_CODE,
  NOT_COVERED_TEXT,
  type ModuleCoverage,
} from './moduleCoverage';

export interface SdkShimMap {
  /** specifier → absolute path of the ESM shim */
  esm: Record<string, string>;
  /** specifier → absolute path of the CommonJS shim */
  cjs: Record<string, string>;
}

export function buildSdkShimMap(shimDir: string): SdkShimMap {
  const esm: Record<string, string> = {};
  const cjs: Record<string, string> = {};
  for (const [specifier, base] of Object.entries(PLUGIN_SDK_SHIM_FILES) as [PluginSdkSpecifier, string][]) {
    esm[specifier] = join(shimDir, `${base}.mjs`);
    cjs[specifier] = join(shimDir, `${base}.cjs`);
  }
  return { esm, cjs };
}

/** Throws a clear error when the shim files are missing (e.g. a build that did not copy them). */
export function assertShimsPresent(map: SdkShimMap): void {
  const missing = [...Object.values(map.esm), ...Object.values(map.cjs)].filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `openclaw plugin-sdk shim files are missing (${missing.join(', ')}); the engine host cannot offer openclaw/plugin-sdk to plugins. Rebuild ContextScope (the build copies src/plugins/sdk/shims).`,
    );
  }
}

// The ESM hook runs on Node's loader thread, so it is self-contained source (no imports from the app). It also
// checks each file an import resolves to against what consent covers (the same rule as moduleCoverage.ts).
const RESOLVE_HOOK_SOURCE = `
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
let mappings = Object.create(null);
let coverage;
export async function initialize(data) {
  mappings = Object.assign(Object.create(null), data.mappings);
  coverage = data.coverage;
}
function problemOf(file) {
  if (coverage.exemptDirs.some((dir) => file === dir || file.startsWith(dir.endsWith(sep) ? dir : dir + sep))) return undefined;
  let real = file;
  try { real = realpathSync(file); } catch {}
  const expected = coverage.covered[real];
  if (expected === undefined) return file + ' ${NOT_COVERED_TEXT}';
  let digest;
  try { digest = createHash('sha256').update(readFileSync(real)).digest('hex'); } catch { return undefined; }
  return digest === expected ? undefined : file + ' ${CHANGED_TEXT}';
}
export async function resolve(specifier, context, nextResolve) {
  const url = mappings[specifier];
  if (url !== undefined) return { url, format: 'module', shortCircuit: true };
  const result = await nextResolve(specifier, context);
  if (coverage && result.url.startsWith('file:')) {
    const problem = problemOf(fileURLToPath(result.url));
    if (problem) throw Object.assign(new Error(problem), { code: '${NOT_COVERED_CODE}' });
  }
  return result;
}
`;

let installed = false;
let esmThroughJiti = false;

/** True when ESM entries must be loaded through jiti: no ESM resolve hook could be installed (see the header). */
export function esmLoadsThroughJiti(): boolean {
  return esmThroughJiti;
}

interface SyncResolveContext {
  conditions?: readonly string[];
}
interface SyncResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
type RegisterHooks = (hooks: {
  resolve(
    specifier: string,
    context: SyncResolveContext,
    nextResolve: (specifier: string, context: SyncResolveContext) => SyncResolveResult,
  ): SyncResolveResult;
}) => unknown;

/**
 * The ESM resolve hook in this thread (`module.registerHooks`, Node 22.15+): the SDK specifiers of an `import` map to
 * the ESM shims and every file an `import` resolves to is checked against the coverage. A `require` is left to the
 * patched `Module._resolveFilename`, which does both for CommonJS.
 */
function installInThreadEsmHook(
  registerHooks: RegisterHooks,
  esmUrls: Record<string, string>,
  coverage?: ModuleCoverage,
) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const isRequire = context.conditions?.includes('require') === true;
      const mapped = isRequire
        ? undefined
        : Object.prototype.hasOwnProperty.call(esmUrls, specifier)
          ? esmUrls[specifier]
          : undefined;
      if (mapped !== undefined) return { url: mapped, format: 'module', shortCircuit: true };
      const result = nextResolve(specifier, context);
      if (!isRequire && coverage && result.url.startsWith('file:')) {
        const problem = coverageProblem(coverage, fileURLToPath(result.url));
        if (problem) throw notCoveredError(problem);
      }
      return result;
    },
  });
}

/**
 * Installs the ESM and CJS resolution for the SDK specifiers in this process (idempotent), and with `coverage`
 * the check that plugin modules are what consent covers.
 */
export function installSdkResolution(map: SdkShimMap, coverage?: ModuleCoverage): void {
  if (installed) return;
  installed = true;
  const esmUrls: Record<string, string> = {};
  for (const [specifier, file] of Object.entries(map.esm)) esmUrls[specifier] = pathToFileURL(file).href;
  const confined = (process as { permission?: unknown }).permission !== undefined;
  const registerHooks = (Module as unknown as { registerHooks?: RegisterHooks }).registerHooks;
  if (!confined) {
    register(`data:text/javascript,${encodeURIComponent(RESOLVE_HOOK_SOURCE)}`, {
      data: { mappings: esmUrls, ...(coverage ? { coverage } : {}) },
    });
  } else if (typeof registerHooks === 'function') {
    installInThreadEsmHook(registerHooks, esmUrls, coverage);
  } else {
    // module.register starts a loader thread, which the permission model refuses without --allow-worker
    esmThroughJiti = true;
  }
  if (coverage) installCommonJsCoverage(coverage);

  const moduleInternals = Module as unknown as {
    _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
  };
  const original = moduleInternals._resolveFilename;
  moduleInternals._resolveFilename = function resolveWithSdk(request, parent, isMain, options) {
    const shim = Object.prototype.hasOwnProperty.call(map.cjs, request) ? map.cjs[request] : undefined;
    if (shim !== undefined) return shim;
    return original.call(this, request, parent, isMain, options);
  };
}
