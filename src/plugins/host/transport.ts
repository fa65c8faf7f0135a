/**
 * How the app starts and talks to an engine-host process. The loader only needs this small interface, so the
 * Electron app can supply a `utilityProcess` adapter (in main/, since src/ never imports electron) while Node
 * (CLI, serve mode, tests) uses a `child_process` with a line channel on fd 3 (frameChannel.ts).
 *
 * A transport delivers messages as parsed objects or as JSON text; the engine host measures and parses text itself
 * (its size cap applies before anything is parsed). A transport that reads the bytes itself drops a message past
 * `maxMessageBytes` and reports its size through `onOversized`.
 */
import { spawn } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { FRAME_CHANNEL_FD, FRAME_CHANNEL_FLAG, FrameReader, frameOf } from './frameChannel';

export interface EngineHostSpawnSpec {
  /** the engine-host entry module (engine-host.mjs, or engineHostMain.ts run through tsx) */
  entry: string;
  /** Node flags for the child (`['--import', <tsx>]` when running from source) */
  execArgv: string[];
  /**
   * Node's permission-model flags for the child (hostPermissions.ts), before `execArgv`; absent: none. A transport
   * whose runtime cannot apply them leaves them out and says why in `unconfinedReason`.
   */
  permissionArgv?: string[];
  /** the Node binary (ignored by adapters that cannot choose it, such as Electron's utilityProcess) */
  nodePath: string;
  env: Record<string, string>;
  cwd: string;
  /** the largest message the app takes from the host, in bytes (default: no cap in the transport) */
  maxMessageBytes?: number;
}

export interface EngineHostExit {
  code: number | null;
  signal: string | null;
  /** set when the process could not be started at all (e.g. ENOENT for a wrong nodePath) */
  spawnError?: Error;
}

export interface EngineHostTransport {
  readonly pid: number | undefined;
  /** set when this transport did not apply the spec's `permissionArgv` (a sentence: why) */
  readonly unconfinedReason?: string;
  /** posts one message; throws when the channel is closed */
  send(message: unknown): void;
  /** posts several messages in order in one write (optional: without it they are sent one by one) */
  sendMany?(messages: unknown[]): void;
  /** a parsed message, or a message's JSON text */
  onMessage(listener: (message: unknown) => void): void;
  /** a message past `maxMessageBytes` that was dropped unread (transports that read bytes themselves) */
  onOversized?(listener: (bytes: number) => void): void;
  /** called exactly once when the process is gone */
  onExit(listener: (exit: EngineHostExit) => void): void;
  /** stdout/stderr text of the child (plugins' console output) */
  onOutput(listener: (stream: 'stdout' | 'stderr', text: string) => void): void;
  /** ends the process immediately (SIGKILL where signals exist) */
  kill(): void;
}

export type EngineHostTransportFactory = (spec: EngineHostSpawnSpec) => EngineHostTransport;

/**
 * The Node transport: a child process running the entry with `execArgv`, its output piped, and the channel a line
 * pipe on fd 3 (no Node IPC channel: the plugin gets no `process.send` to write around the cap).
 */
export const forkTransport: EngineHostTransportFactory = (spec) => {
  const child = spawn(
    spec.nodePath,
    [...(spec.permissionArgv ?? []), ...spec.execArgv, spec.entry, FRAME_CHANNEL_FLAG],
    {
      env: spec.env,
      cwd: spec.cwd,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    },
  );
  const channel = child.stdio[FRAME_CHANNEL_FD] as Duplex;
  const messageListeners: ((message: unknown) => void)[] = [];
  const oversizedListeners: ((bytes: number) => void)[] = [];
  const reader = new FrameReader(
    spec.maxMessageBytes ?? Infinity,
    (text) => {
      for (const listener of messageListeners) listener(text);
    },
    (bytes) => {
      for (const listener of oversizedListeners) listener(bytes);
    },
  );
  channel.on('data', (chunk: Buffer) => reader.push(chunk));
  channel.on('error', () => undefined); // a closed pipe: the exit handler reports the host
  let open = true;
  channel.on('close', () => (open = false));
  const exitListeners: ((exit: EngineHostExit) => void)[] = [];
  let exited: EngineHostExit | undefined;
  const finish = (exit: EngineHostExit) => {
    if (exited) return;
    exited = exit;
    for (const listener of exitListeners) listener(exit);
  };
  child.on('exit', (code, signal) => {
    // its last output (an out-of-memory report) may still be in the pipes: finish once they closed, or soon
    const timer = setTimeout(() => finish({ code, signal }), 500);
    child.on('close', () => {
      clearTimeout(timer);
      finish({ code, signal });
    });
  });
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
      if (!open || exited) throw new Error('engine host channel is closed');
      channel.write(frameOf(message));
    },
    sendMany(messages) {
      if (!open || exited) throw new Error('engine host channel is closed');
      channel.write(messages.map(frameOf).join(''));
    },
    onMessage(listener) {
      messageListeners.push(listener);
    },
    onOversized(listener) {
      oversizedListeners.push(listener);
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
