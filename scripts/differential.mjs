// npm run differential: real OpenClaw (installed into the cache on first use) against ContextScope's replay,
// per scenario and version. Arguments go to test/differential/main.ts (`npm run differential -- --help` lists none:
// --scenario <id>, --version <v>, --out <dir>, --json <file>, --reuse, --parallel N).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const result = spawnSync(process.execPath, ['--import', 'tsx', 'test/differential/main.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
