/**
 * Where TypeScript plugin modules are cached after transpiling. Transpiling a plugin such as summary-tree takes
 * about a second; an engine host starts per plugin per lane, so without a cache every replay pays it again. Under
 * consent the engine host's covered transform (host/moduleCoverage.ts) checks each module first and then names its
 * cache file by a hash of jiti's version, the transform options and the source, so an edited plugin is transpiled
 * again (and checked on every load); without consent coverage jiti's own file cache is used.
 *
 * The folder is the user's own (`$CONTEXTSCOPE_CACHE_DIR`, else `$XDG_CACHE_HOME/contextscope`, else
 * `~/.cache/contextscope`), created private (0700): a shared temp folder would let another local user plant
 * transpiled code. An engine host under Node's permission model reads and writes only its plugin's own folder in it
 * (`pluginTranspileCacheDir`: named by the plugin's real path and content hash), so a plugin cannot plant transpiled
 * code for another plugin, nor for a later version of itself.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CONTEXTSCOPE_CACHE_DIR) return env.CONTEXTSCOPE_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'contextscope');
}

/** The transpile cache folder, created if needed; undefined (no caching) when it cannot be created. */
export function transpileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = join(defaultCacheDir(env), 'ts-plugins');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * The cache folder of one plugin's content inside `cacheDir` (`plugins/<32 hex>`), created private; undefined when it
 * cannot be created.
 */
export function pluginTranspileCacheDir(cacheDir: string, realPath: string, contentHash: string): string | undefined {
  const name = createHash('sha256').update(`${realPath}\0${contentHash}`).digest('hex').slice(0, 32);
  const dir = join(cacheDir, 'plugins', name);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    return undefined;
  }
}
