// Is out/ a complete build of the current sources? (mtime check: newest input vs. the stamp the build writes last)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const BUILD_OUTPUTS = [
  'out/main/electron.js',
  'out/preload/preload.cjs',
  'out/renderer/index.html',
  'out/node/cli.mjs',
  'out/node/start.mjs',
];
const BUILD_INPUTS = [
  'src',
  'main',
  'renderer',
  'electron.vite.config.ts',
  'scripts/build-node.mjs',
  'package.json',
  'tsconfig.json',
];
const STAMP = 'out/.build-stamp';

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** null when out/ is complete and newer than every input; otherwise why a build is needed. */
export function staleBuildReason(root) {
  const missing = BUILD_OUTPUTS.find((output) => !existsSync(path.join(root, output)));
  if (missing) return `${missing} is missing`;
  const stamp = path.join(root, STAMP);
  if (!existsSync(stamp)) return `${STAMP} is missing`;
  const built = statSync(stamp).mtimeMs;
  const newestInput = Math.max(...BUILD_INPUTS.map((input) => newestMtime(path.join(root, input))));
  return newestInput > built ? 'sources changed since the last build' : null;
}

/** Runs `npm run build` when needed (`onlyIfMissing`: only when an output is missing). Exits on failure. */
export function ensureBuilt(root, { onlyIfMissing = false, quiet = false } = {}) {
  const reason = staleBuildReason(root);
  if (reason === null) return;
  if (onlyIfMissing && !BUILD_OUTPUTS.some((output) => !existsSync(path.join(root, output)))) return;
  if (!quiet) console.error(`Building ContextScope (${reason})…`);
  const result = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: root,
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    console.error('The build failed (see above). Fix the error, or run "npm run build" to see it again.');
    process.exit(result.status ?? 1);
  }
}
