/**
 * The built app for node tests that run it as users do (`out/node/cli.mjs`, the engine host): `npm test` builds
 * before vitest starts, and the node project's global setup (ensureBuiltSetup.ts) builds when `out/` is stale, so a
 * test never spawns tsx to compile the sources again in each child (seconds per process).
 */
import path from 'node:path';
import { afterAll, beforeAll, vi } from 'vitest';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
export const BUILT_CLI = path.join(PROJECT_ROOT, 'out/node/cli.mjs');

/**
 * For a test file that must run the TypeScript source engine host (through tsx) instead of the build the node
 * project names in $CONTEXTSCOPE_ENGINE_HOST: each caller says which difference of the built, confined host it
 * avoids — differences to fix, listed in the closing note of issue 35.
 */
export function useSourceEngineHost(): void {
  beforeAll(() => {
    vi.stubEnv('CONTEXTSCOPE_ENGINE_HOST', '');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });
}
