/**
 * The utility-process adapter (main/electron/engineHostUtilityEntry.ts) with the REAL engine host and a real
 * plugin. Electron is not available here, so the child is a Node process whose `process.parentPort` is simulated
 * over the fork IPC channel by a preload: IPC messages reach the engine host only through the adapter.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  allowExecuteConsent,
  loadPlugin,
  readPluginPackage,
  type EngineHostExit,
  type EngineHostTransport,
  type EngineHostTransportFactory,
} from '../../src/plugins';
import { createContextRuntime } from '../../src/engines';
import { ENGINE_HOST_ENTRY_FLAG } from '../../main/electron/engineHostUtilityArgs';

const ROOT = join(import.meta.dirname, '../..');
const ADAPTER = join(ROOT, 'main/electron/engineHostUtilityEntry.ts');
const ENGINE_HOST = join(ROOT, 'src/plugins/host/engineHostMain.ts');
const tsx = pathToFileURL(createRequire(join(ROOT, 'package.json')).resolve('tsx')).href;
const work = mkdtempSync(join(tmpdir(), 'cs-utility-entry-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Simulates Electron's process.parentPort on top of fork IPC. Incoming IPC messages go to parentPort listeners
// only (as in a utility process, where nothing arrives on process 'message' by itself); the adapter's own
// re-emission passes through.
const PRELOAD = `
const realSend = process.send.bind(process);
const realEmit = process.emit;
const listeners = [];
let delivering = false;
process.send = undefined;
process.parentPort = {
  on(event, listener) { if (event === 'message') listeners.push(listener); },
  postMessage(message) { realSend(message); },
};
process.emit = function (name, ...args) {
  if (name === 'message' && !delivering) {
    delivering = true;
    try { for (const listener of listeners) listener({ data: args[0], ports: [] }); } finally { delivering = false; }
    return true;
  }
  return realEmit.call(this, name, ...args);
};
`;
const preloadFile = join(work, 'fake-parent-port.mjs');
writeFileSync(preloadFile, PRELOAD);

/** Like the utilityProcess transport, but forking Node with the simulated parentPort. */
const adapterTransport: EngineHostTransportFactory = (spec) => {
  const child = fork(ADAPTER, [ENGINE_HOST_ENTRY_FLAG, spec.entry], {
    execArgv: ['--import', tsx, '--import', pathToFileURL(preloadFile).href],
    env: spec.env,
    cwd: spec.cwd,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'json',
  });
  let exited: EngineHostExit | undefined;
  const exitListeners: ((exit: EngineHostExit) => void)[] = [];
  child.on('exit', (code, signal) => {
    exited = { code, signal };
    for (const l of exitListeners) l(exited);
  });
  const transport: EngineHostTransport = {
    get pid() {
      return child.pid;
    },
    send: (message) => void child.send(message as object),
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => (exited ? listener(exited) : void exitListeners.push(listener)),
    onOutput: (listener) => {
      child.stdout?.setEncoding('utf8').on('data', (t: string) => listener('stdout', t));
      child.stderr?.setEncoding('utf8').on('data', (t: string) => listener('stderr', t));
    },
    kill: () => void child.kill('SIGKILL'),
  };
  return transport;
};

describe('engine-host utility adapter', () => {
  it('runs the engine host behind process.parentPort: the plugin registers and its engine answers assemble()', async () => {
    const runtime = createContextRuntime({ logger: { debug() {}, info() {}, warn() {}, error() {} } });
    const loaded = await loadPlugin(readPluginPackage(join(ROOT, 'test/fixtures/plugins/loader-cjs'), 'linked'), {
      runtime,
      consent: allowExecuteConsent(),
      transport: adapterTransport,
      hostEntry: { entry: ENGINE_HOST, shimDir: join(ROOT, 'src/plugins/sdk/shims') },
    });
    try {
      expect(loaded.errors).toEqual([]);
      expect(loaded.engineIds).toEqual(['loader-cjs']);
      const engine = await runtime.resolveContextEngine({ plugins: { slots: { contextEngine: 'loader-cjs' } } });
      const messages = [{ role: 'user' as const, content: 'hello', timestamp: 1 }];
      const result = await engine.assemble({ sessionId: 's1', messages, tokenBudget: 1000 });
      expect(result.messages).toEqual(messages);
      expect(result.systemPromptAddition).toBe('token sk-abc…3456 here');
    } finally {
      await loaded.close();
    }
  }, 60_000);

  it('exits with code 2 and says why when it is not started as a utility process', async () => {
    const child = fork(ADAPTER, [], { execArgv: ['--import', tsx], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr).toBe(
      'engine-host-utility.js must be started by ContextScope as an Electron utility process (process.parentPort is missing).\n',
    );
  }, 30_000);
});
