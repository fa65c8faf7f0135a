#!/usr/bin/env node
// The `contextscope` command: runs the bundled CLI (out/node/cli.mjs), building it first when it is missing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'out', 'node', 'cli.mjs');
if (!existsSync(cli)) {
  const { ensureBuilt } = await import(pathToFileURL(path.join(root, 'scripts', 'lib', 'buildState.mjs')).href);
  ensureBuilt(root, { onlyIfMissing: true });
}
await import(pathToFileURL(cli).href);
