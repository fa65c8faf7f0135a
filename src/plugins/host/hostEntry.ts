/**
 * Finds the engine-host entry to start: the one passed in, else `$CONTEXTSCOPE_ENGINE_HOST` (a built
 * `engine-host.mjs`: the node tests run the checkout's build this way, as users do), else the built
 * `engine-host.mjs` next to the running bundle (with the SDK shims copied to `plugin-sdk/` beside it), else the
 * TypeScript source `engineHostMain.ts` run through tsx (seconds of compiling in every host it starts).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface EngineHostEntry {
  entry: string;
  execArgv: string[];
  /** folder holding the openclaw plugin-sdk shim files (index/core/plugin-entry/logging-core .mjs/.cjs) */
  shimDir: string;
}

export const BUILT_ENGINE_HOST_FILE = 'engine-host.mjs';
export const BUILT_SHIM_DIR = 'plugin-sdk';

function moduleDir(): string | undefined {
  const url = typeof import.meta === 'object' ? import.meta.url : undefined;
  return typeof url === 'string' && url.startsWith('file:') ? dirname(fileURLToPath(url)) : undefined;
}

export function resolveEngineHostEntry(
  override: Partial<EngineHostEntry> = {},
  env: NodeJS.ProcessEnv = process.env,
): EngineHostEntry {
  const here = moduleDir();
  const entry = override.entry ?? (env.CONTEXTSCOPE_ENGINE_HOST || undefined);
  if (entry) {
    return {
      entry,
      execArgv: override.execArgv ?? (entry.endsWith('.ts') ? tsxExecArgv() : []),
      shimDir: override.shimDir ?? builtShimDir(dirname(entry)),
    };
  }
  if (here) {
    // next to the running bundle (out/node/cli.mjs), or in out/node when running from out/main (Electron)
    for (const built of [join(here, BUILT_ENGINE_HOST_FILE), join(here, '..', 'node', BUILT_ENGINE_HOST_FILE)]) {
      if (existsSync(built))
        return { entry: built, execArgv: [], shimDir: override.shimDir ?? builtShimDir(dirname(built)) };
    }
    const source = join(here, 'engineHostMain.ts');
    if (existsSync(source)) {
      return {
        entry: source,
        execArgv: override.execArgv ?? tsxExecArgv(),
        shimDir: override.shimDir ?? join(here, '..', 'sdk', 'shims'),
      };
    }
  }
  throw new Error(
    `cannot find the engine host: neither ${BUILT_ENGINE_HOST_FILE} next to the running bundle nor src/plugins/host/engineHostMain.ts was found${here ? ` (looked in ${here})` : ''}; pass the entry explicitly (loadPlugin option hostEntry)`,
  );
}

/** `plugin-sdk/` copied next to the bundle; else the source shims of a checkout (out/node → src/plugins/sdk/shims). */
function builtShimDir(bundleDir: string): string {
  const copied = join(bundleDir, BUILT_SHIM_DIR);
  const source = join(bundleDir, '..', '..', 'src', 'plugins', 'sdk', 'shims');
  return existsSync(copied) || !existsSync(source) ? copied : source;
}

/** `--import <tsx loader>` as an absolute URL, so it resolves whatever the child's working directory is. */
function tsxExecArgv(): string[] {
  const here = moduleDir() ?? process.cwd();
  const loader = createRequire(join(here, 'noop.js')).resolve('tsx');
  return ['--import', pathToFileURL(loader).href];
}
