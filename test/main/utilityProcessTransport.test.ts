import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineHostExit, EngineHostSpawnSpec, EngineHostTransport } from '../../src/plugins';

/** A fake of Electron's UtilityProcess: an EventEmitter with postMessage/kill/pid and piped output. */
const fake = vi.hoisted(() => {
  const state = {
    forks: [] as Array<{ modulePath: string; args: string[]; options: Record<string, unknown>; child: any }>,
  };
  return { state };
});

vi.mock('electron', () => {
  const utilityProcess = {
    fork(modulePath: string, args: string[], options: Record<string, unknown>) {
      const child: any = new EventEmitter();
      child.pid = undefined;
      child.posted = [] as unknown[];
      child.killed = 0;
      child.postMessage = (message: unknown) => child.posted.push(message);
      child.kill = () => {
        child.killed += 1;
        return true;
      };
      fake.state.forks.push({ modulePath, args, options, child });
      return child;
    },
  };
  return { utilityProcess, default: { utilityProcess } };
});

const { createUtilityProcessTransport, ENGINE_HOST_ENTRY_FLAG, ENGINE_HOST_SERVICE_NAME } =
  await import('../../main/electron/utilityProcessTransport');

const ADAPTER = '/app/out/main/engine-host-utility.js';
const OWN_EXEC = '/app/electron';

function spec(overrides: Partial<EngineHostSpawnSpec> = {}): EngineHostSpawnSpec {
  return {
    entry: '/app/out/node/engine-host.mjs',
    execArgv: [],
    nodePath: OWN_EXEC,
    env: { PATH: '/usr/bin', HOME: '/tmp/lane/home', OPENCLAW_STATE_DIR: '/tmp/lane/home/.openclaw' },
    cwd: '/tmp/lane/work',
    ...overrides,
  };
}

function start(overrides: Partial<EngineHostSpawnSpec> = {}): { transport: EngineHostTransport; child: any } {
  const factory = createUtilityProcessTransport({ adapterEntry: ADAPTER, ownExecPath: OWN_EXEC });
  const transport = factory(spec(overrides));
  return { transport, child: fake.state.forks.at(-1)!.child };
}

let killSpy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  fake.state.forks.length = 0;
  killSpy = vi.spyOn(process, 'kill').mockImplementation(() => true);
});
afterEach(() => killSpy.mockRestore());

describe('utilityProcess engine-host transport', () => {
  it('forks the adapter with the engine-host entry, the lane cwd, piped output and the ContextScope service name', () => {
    start({ execArgv: ['--import', 'file:///app/node_modules/tsx/dist/loader.mjs'] });
    expect(fake.state.forks).toHaveLength(1);
    const { modulePath, args, options } = fake.state.forks[0]!;
    expect(modulePath).toBe(ADAPTER);
    expect(args).toEqual([ENGINE_HOST_ENTRY_FLAG, '/app/out/node/engine-host.mjs']);
    expect(options).toEqual({
      env: { PATH: '/usr/bin', HOME: '/tmp/lane/home', OPENCLAW_STATE_DIR: '/tmp/lane/home/.openclaw' },
      execArgv: ['--import', 'file:///app/node_modules/tsx/dist/loader.mjs'],
      cwd: '/tmp/lane/work',
      stdio: 'pipe',
      serviceName: ENGINE_HOST_SERVICE_NAME,
      disclaim: true,
    });
  });

  it('leaves out the permission-model flags it cannot apply and says so; a plain spec gets no such note', () => {
    const { transport } = start({ permissionArgv: ['--permission', '--allow-fs-read=/plugin'] });
    expect(fake.state.forks[0]!.options.execArgv).toEqual([]);
    expect(transport.unconfinedReason).toContain(
      "Electron's utility process, which does not run Node's permission model",
    );
    expect(start().transport.unconfinedReason).toBeUndefined();
  });

  it('passes exactly the allow-listed environment and never NODE_OPTIONS, NODE_PATH or ELECTRON_RUN_AS_NODE', () => {
    start({
      env: { PATH: '/bin', TZ: 'UTC', NODE_OPTIONS: '--require /evil.js', NODE_PATH: '/x', ELECTRON_RUN_AS_NODE: '1' },
    });
    expect(fake.state.forks[0]!.options.env).toEqual({ PATH: '/bin', TZ: 'UTC' });
  });

  it('wires messages both ways: send → postMessage, child message → onMessage listeners', () => {
    const { transport, child } = start();
    const received: unknown[] = [];
    transport.onMessage((message) => received.push(message));
    transport.send({ type: 'ping', nonce: 7 });
    expect(child.posted).toEqual([{ type: 'ping', nonce: 7 }]);
    child.emit('message', { type: 'ready', protocol: 1, pid: 4321, node: 'v20.20.2' });
    expect(received).toEqual([{ type: 'ready', protocol: 1, pid: 4321, node: 'v20.20.2' }]);
  });

  it('reports the pid once spawned and forwards stdout/stderr text', () => {
    const { transport, child } = start();
    expect(transport.pid).toBeUndefined();
    child.stdout = new PassThrough();
    child.stderr = new PassThrough();
    const output: string[] = [];
    transport.onOutput((stream, text) => output.push(`${stream}:${text}`));
    child.pid = 4321;
    child.emit('spawn');
    expect(transport.pid).toBe(4321);
    child.stdout.write('hello from the plugin\n');
    child.stderr.write('a warning\n');
    expect(output).toEqual(['stdout:hello from the plugin\n', 'stderr:a warning\n']);
  });

  it('reports the exit exactly once, also to listeners added afterwards, and then refuses to send', () => {
    const { transport, child } = start();
    const exits: EngineHostExit[] = [];
    transport.onExit((exit) => exits.push(exit));
    child.emit('exit', 3);
    child.emit('exit', 3);
    transport.onExit((exit) => exits.push(exit));
    expect(exits).toEqual([
      { code: 3, signal: null },
      { code: 3, signal: null },
    ]);
    expect(() => transport.send({ type: 'ping', nonce: 1 })).toThrow('engine host channel is closed');
  });

  it('kill() ends a running host with SIGKILL (a plugin cannot trap it), and does nothing once it has exited', () => {
    const { transport, child } = start();
    child.pid = 4321;
    child.emit('spawn');
    transport.kill();
    expect(killSpy).toHaveBeenCalledWith(4321, 'SIGKILL');
    expect(child.killed).toBe(0);

    child.emit('exit', 137);
    killSpy.mockClear();
    transport.kill();
    expect(killSpy).not.toHaveBeenCalled();
    expect(child.killed).toBe(0);
  });

  it('kill() before the process has a pid asks Electron to kill it', () => {
    const { transport, child } = start();
    transport.kill();
    expect(killSpy).not.toHaveBeenCalled();
    expect(child.killed).toBe(1);
  });

  it('uses the Node transport (not a utility process) when engine hosts are pointed at another Node binary', () => {
    const forked: EngineHostSpawnSpec[] = [];
    const nodeTransport = (s: EngineHostSpawnSpec) => {
      forked.push(s);
      return { pid: 1 } as unknown as EngineHostTransport;
    };
    const factory = createUtilityProcessTransport({ adapterEntry: ADAPTER, ownExecPath: OWN_EXEC, nodeTransport });
    factory(spec({ nodePath: '/opt/node22/bin/node' }));
    expect(fake.state.forks).toHaveLength(0);
    expect(forked.map((s) => s.nodePath)).toEqual(['/opt/node22/bin/node']);
  });
});
