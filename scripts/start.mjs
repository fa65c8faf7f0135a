// npm start / npm run serve: build if needed, then the Electron window or browser mode (out/node/start.mjs).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from './lib/buildState.mjs';

const root = path.resolve(import.meta.dirname, '..');
ensureBuilt(root);
await import(pathToFileURL(path.join(root, 'out', 'node', 'start.mjs')).href);
