/**
 * The built app for node tests that run it as users do (`out/node/cli.mjs`, the engine host): `npm test` builds
 * before vitest starts, and the node project's global setup (ensureBuiltSetup.ts) builds when `out/` is stale, so a
 * test never spawns tsx to compile the sources again in each child (seconds per process).
 */
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
export const BUILT_CLI = path.join(PROJECT_ROOT, 'out/node/cli.mjs');
