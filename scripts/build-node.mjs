// Bundles the Node-side entry points that run outside Electron into out/node/*.mjs (ESM, packages external).
// Add an entry here; `optional` entries are skipped while their source file does not exist yet.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');

export const NODE_ENTRIES = [
  { source: 'main/cli.ts', output: 'cli' },
  { source: 'main/start.ts', output: 'start' },
  { source: 'src/plugins/host/engineHostMain.ts', output: 'engine-host', optional: true },
  { source: 'src/replay/batch/batchWorkerMain.ts', output: 'batch-worker' },
];

const present = NODE_ENTRIES.filter((entry) => {
  const exists = existsSync(path.join(root, entry.source));
  if (!exists && !entry.optional) throw new Error(`scripts/build-node.mjs: entry ${entry.source} does not exist.`);
  return exists;
});

await build({
  absWorkingDir: root,
  entryPoints: present.map((entry) => ({ in: entry.source, out: entry.output })),
  outdir: 'out/node',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});

mkdirSync(path.join(root, 'out'), { recursive: true });
writeFileSync(path.join(root, 'out', '.build-stamp'), `${new Date().toISOString()}\n`);
console.log(`out/node: ${present.map((entry) => `${entry.output}.mjs`).join(', ')}`);
