/**
 * The batch worker to start: the built `batch-worker.mjs` next to the running bundle (out/node, also found from
 * out/main), else the TypeScript source `batchWorkerMain.ts` through tsx's loader (tests, a checkout run with tsx).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const BUILT_BATCH_WORKER_FILE = 'batch-worker.mjs';

/** What `new Worker()` is given: a file, or (for the TypeScript source) a bootstrap script evaluated as code. */
export type BatchWorkerEntry = { file: string } | { eval: string };

function moduleDir(): string | undefined {
  const url = typeof import.meta === 'object' ? import.meta.url : undefined;
  return typeof url === 'string' && url.startsWith('file:') ? dirname(fileURLToPath(url)) : undefined;
}

/** A worker thread does not inherit tsx's loader: the bootstrap registers it in the thread, then imports the source. */
function sourceBootstrap(source: string): BatchWorkerEntry {
  // the ESM build of tsx's API (require.resolve would give its CommonJS build, which cannot register in a thread)
  const tsxDir = dirname(createRequire(source).resolve('tsx/package.json'));
  const api = join(tsxDir, 'dist', 'esm', 'api', 'index.mjs');
  const apiUrl = JSON.stringify(pathToFileURL(api).href);
  const sourceUrl = JSON.stringify(pathToFileURL(source).href);
  return { eval: `import(${apiUrl}).then((tsx) => { tsx.register(); return import(${sourceUrl}); });` };
}

export function resolveBatchWorkerEntry(override?: string): BatchWorkerEntry {
  if (override) return override.endsWith('.ts') ? sourceBootstrap(override) : { file: override };
  const here = moduleDir();
  if (here) {
    for (const built of [join(here, BUILT_BATCH_WORKER_FILE), join(here, '..', 'node', BUILT_BATCH_WORKER_FILE)])
      if (existsSync(built)) return { file: built };
    const source = join(here, 'batchWorkerMain.ts');
    if (existsSync(source)) return sourceBootstrap(source);
  }
  throw new Error(
    `cannot find the batch worker: neither ${BUILT_BATCH_WORKER_FILE} next to the running bundle nor src/replay/batch/batchWorkerMain.ts${here ? ` (looked in ${here})` : ''}; run npm run build`,
  );
}
