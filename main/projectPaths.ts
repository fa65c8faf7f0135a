import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The package root (the folder whose package.json is named "contextscope"), found by walking up from `fromDir`.
 * Works from the sources (main/), from bundles (out/node, out/main) and from an npm install.
 */
export function findProjectRoot(fromDir: string): string {
  let dir = path.resolve(fromDir);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'contextscope') return dir;
      } catch {
        // not ours; keep walking
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(
        `Cannot find the contextscope package root above ${fromDir} (no package.json named "contextscope").`,
      );
    }
    dir = parent;
  }
}

/** The built renderer (out/renderer), or a clear error telling how to build it. */
export function locateRendererDir(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.CONTEXTSCOPE_RENDERER_DIR
    ? path.resolve(env.CONTEXTSCOPE_RENDERER_DIR)
    : path.join(projectRoot, 'out', 'renderer');
  if (!existsSync(path.join(dir, 'index.html'))) {
    throw new Error(
      `The built renderer is missing (${path.join(dir, 'index.html')} not found). Run "npm run build" first.`,
    );
  }
  return dir;
}
