// npm test: build if needed (the e2e project drives the built app), then every vitest project.
// Extra arguments go to vitest: `npm test -- --project node`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt } from './lib/buildState.mjs';

const root = path.resolve(import.meta.dirname, '..');
ensureBuilt(root);
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const result = spawnSync(process.execPath, [vitest, 'run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
