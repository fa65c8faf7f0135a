/**
 * How the app starts and talks to an engine-host process. The loader only needs this small interface, so the
 * Electron app can supply a `utilityProcess` adapter (in main/, since src/ never imports electron) while Node
 * (CLI, serve mode, tests) uses `child_process.fork`.
 */
import { fork } from 'node:child_process';

export interface EngineHostSpawnSpec {
  /** the engine-host entry module (engine-host.mjs, or engineHostMain.ts run through tsx) */
  entry: string;
  /** Node flags for the child (`['--import', <tsx>]` when running from source) */
  execArgv: string[];
  /** the Node binary (ignored by adapters that cannot choose it, such as Electron's utilityProcess) */
  nodePath: string;
  env: Record<string, string>;
  cwd: string;
}

export interface EngineHostExit {
  code: number | null;
  signal: string | null;
  /** set when the process could not be started at all (e.g. ENOENT for a wrong nodePath) */
  spawnError?: Error;
}

export interface EngineHostTransport {
  readonly pid: number | undefined;
  /** posts one message; throws when the channel is closed */
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** called exactly once when the process is gone */
  onExit(listener: (exit: EngineHostExit) => void): void;
  /** stdout/stderr text of the child (plugins' console output) */
  onOutput(listener: (stream: 'stdout' | 'stderr', text: string) => void): void;
  /** ends the process immediately (SIGKILL where signals exist) */
  kill(): void;
}

export type EngineHostTransportFactory = (spec: EngineHostSpawnSpec) => EngineHostTransport;

/** The Node transport: `child_process.fork` with an IPC channel (JSON serialization) and piped output. */
export const forkTransport: EngineHostTransportFactory = (spec) => {
  const child = fork(spec.entry, [], {
    execPath: spec.nodePath,
    execArgv: spec.execArgv,
    env: spec.env,
    cwd: spec.cwd,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'json',
  });
  const exitListeners: ((exit: EngineHostExit) => void)[] = [];
  let exited: EngineHostExit | undefined;
  const finish = (exit: EngineHostExit) => {
    if (exited) return;
    exited = exit;
    for (const listener of exitListeners) listener(exit);
  };
  child.on('exit', (code, signal) => finish({ code, signal }));
  child.on('error', (error) => {
    // 'error' without a pid means the spawn itself failed; after a spawn, errors are send failures (ignored)
    if (child.pid === undefined) finish({ code: null, signal: null, spawnError: error });
  });
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  return {
    get pid() {
      return child.pid;
    },
    send(message) {
      if (!child.connected) throw new Error('engine host channel is closed');
      child.send(message as object);
    },
    onMessage(listener) {
      child.on('message', listener);
    },
    onExit(listener) {
      if (exited) listener(exited);
      else exitListeners.push(listener);
    },
    onOutput(listener) {
      child.stdout?.on('data', (text: string) => listener('stdout', text));
      child.stderr?.on('data', (text: string) => listener('stderr', text));
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
};
