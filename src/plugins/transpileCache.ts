/**
 * Where TypeScript plugin entries are cached after transpiling (jiti's file cache). Transpiling a plugin such
 * as summary-tree takes about a second; an engine host starts per plugin per lane, so without a cache every
 * replay pays it again. jiti names each cached file by the source path and stamps it with a hash of the source,
 * so an edited plugin is transpiled again and a truncated cache file is never used.
 *
 * The folder is the user's own (`$CONTEXTSCOPE_CACHE_DIR`, else `$XDG_CACHE_HOME/contextscope`, else
 * `~/.cache/contextscope`), created private (0700): a shared temp folder would let another local user plant
 * transpiled code.
 */
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
