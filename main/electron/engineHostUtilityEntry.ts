/**
 * The first module of an engine-host utility process (built to out/main/engine-host-utility.js).
 *
 * The engine host (src/plugins/host/engineHostMain.ts) talks fork-style IPC: `process.send(message, …, callback)`,
 * `process.connected`, `process.on('message')`. A utility process has `process.parentPort` instead, so this
 * adapter provides that API on top of the port, then imports the engine-host entry named after
 * `--contextscope-engine-host-entry`. Nothing else happens here: plugin code only runs in the entry.
 */
import { pathToFileURL } from 'node:url';
import { ENGINE_HOST_ENTRY_FLAG } from './engineHostUtilityArgs';

interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const port = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
if (!port)
  fail(
    'engine-host-utility.js must be started by ContextScope as an Electron utility process (process.parentPort is missing).',
  );

const flagAt = process.argv.indexOf(ENGINE_HOST_ENTRY_FLAG);
const entry = flagAt >= 0 ? process.argv[flagAt + 1] : undefined;
if (!entry)
  fail(
    `engine-host-utility.js needs ${ENGINE_HOST_ENTRY_FLAG} <engine-host entry> (argv: ${process.argv.slice(1).join(' ')}).`,
  );

Object.defineProperty(process, 'connected', { value: true, configurable: true, writable: true });
process.send = ((message: unknown, ...rest: unknown[]) => {
  port.postMessage(message);
  const callback = rest.find((value): value is (error: Error | null) => void => typeof value === 'function');
  if (callback) queueMicrotask(() => callback(null));
  return true;
}) as typeof process.send;
port.on('message', (event) => {
  process.emit('message', event.data, undefined);
});

await import(pathToFileURL(entry).href);
