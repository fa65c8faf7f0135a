/**
 * Parent side of one engine-host process: starts it, sends requests with deadlines, answers its callbacks
 * (runtime.llm.complete, delegateCompactionToRuntime), and turns every way the process can fail — a timeout,
 * an exit, a crash, a kill — into an EngineHostError whose message is the reason a quarantine records.
 *
 * After a deadline passes the host is probed with a ping: a host that still answers (an engine awaiting a
 * promise that never settles) keeps running for the other engines; one that does not answer within the grace
 * period (a synchronous infinite loop) is killed with SIGKILL.
 */
import type { CompactParams, CompactResult, LlmCompleteParams, LlmCompleteResult } from '../../contract';
import { EngineHostError } from './engineHostError';
import { HostOutput } from './hostOutput';
import {
  DEFAULT_MAX_HEAP_MB,
  DEFAULT_MAX_MESSAGE_BYTES,
  diedOutOfMemory,
  heapCapArg,
  outOfMemoryReason,
  oversizedReason,
} from './hostLimits';
import { resolveEngineHostEntry, type EngineHostEntry } from './hostEntry';
import { InvokeFunctionRequest, describeChildMessageViolation, previewMessage, type LogLevel } from './protocol';
import { RpcPeer } from './rpcPeer';
import {
  forkTransport,
  type EngineHostExit,
  type EngineHostTransport,
  type EngineHostTransportFactory,
} from './transport';
import { DATA_ONLY_DECODE, decodeWire } from './wireCodec';
import { HOST_CODEC_ENV, hostCodecFromEnv, type HostCodecName } from './channelCodec';
import type { AccessDenial } from './accessDenied';

export type PluginLogLevel = LogLevel | 'stdout' | 'stderr';

export interface PluginLogEntry {
  level: PluginLogLevel;
  message: string;
  pluginId?: string;
  /** ms since epoch */
  at: number;
}

export interface EngineHostCallbacks {
  llmComplete?(params: LlmCompleteParams): Promise<LlmCompleteResult>;
  delegateCompaction?(params: CompactParams): Promise<CompactResult>;
}

export interface EngineHostOptions {
  /** used in messages ("engine host for <label>") */
  label: string;
  env: Record<string, string>;
  cwd: string;
  nodePath: string;
  entry?: Partial<EngineHostEntry>;
  transport?: EngineHostTransportFactory;
  /** deadline for the process to start and report ready (default 20 s) */
  startDeadlineMs?: number;
  /** how long a host may stay silent after a call's deadline before it is killed (default 1 s) */
  unresponsiveGraceMs?: number;
  /** deadline for calls the host makes through function references (rollback handles); default 30 s */
  callbackDeadlineMs?: number;
  callbacks?: EngineHostCallbacks;
  /** the largest message taken from the host, in bytes (default 64 MiB; see hostLimits.ts) */
  maxMessageBytes?: number;
  /**
   * how values cross the channel (channelCodec.ts): `refs` (message references) or `json` (every value whole);
   * default: CONTEXTSCOPE_HOST_CODEC of this process, else `refs`. The host gets it in its environment.
   */
  codec?: HostCodecName;
  /** the host's V8 heap cap in MiB (`--max-old-space-size`, default 2048) */
  maxHeapMb?: number;
  /** Node's permission-model flags (hostPermissions.ts `permissionArgv`); absent: the host runs unconfined */
  permissionArgv?: string[];
  /** the permission model refused the plugin something (the host's `denied` message) */
  onAccessDenied?(denial: AccessDenial): void;
  onLog?(entry: PluginLogEntry): void;
  /** an invalid or unexpected message from the child (it is ignored) */
  onProtocolError?(problem: string): void;
}

export interface CallOptions {
  deadlineMs: number;
  /** the operation named in errors and in the kill reason (`assemble`, `factory`, `register`) */
  operation: string;
}

export class EngineHost {
  readonly entry: EngineHostEntry;
  private readonly options: EngineHostOptions;
  private readonly transport: EngineHostTransport;
  private readonly peer: RpcPeer;
  private stopped: string | undefined;
  private fatal: string | undefined;
  private readonly output: HostOutput;
  private readonly stopListeners: ((reason: string) => void)[] = [];
  private readyResolve!: (info: { pid: number; node: string }) => void;
  private readyReject!: (error: Error) => void;
  private readonly ready: Promise<{ pid: number; node: string }>;
  private nodeVersion: string | undefined;
  private hostConfined: boolean | undefined;
  private nextNonce = 1;
  private readonly pongs = new Map<number, () => void>();
  private probing: Promise<boolean> | undefined;
  private readonly exitPromise: Promise<EngineHostExit>;
  private readonly maxMessageBytes: number;
  /** the channel's codec, as the app chose it; the host must report the same one when it is ready */
  readonly codec: HostCodecName;
  /** operations of the calls in flight, oldest first (an over-cap message is reported against the oldest) */
  private readonly inFlight = new Set<{ operation: string }>();

  private constructor(options: EngineHostOptions) {
    this.options = options;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.codec = options.codec ?? hostCodecFromEnv(process.env);
    this.output = new HostOutput(options.onLog);
    this.entry = resolveEngineHostEntry(options.entry);
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    this.ready.catch(() => undefined);
    this.peer = new RpcPeer({
      side: 'parent',
      codec: this.codec,
      send: (message) => this.transport.send(message),
      sendMany: (messages) =>
        this.transport.sendMany ? this.transport.sendMany(messages) : messages.forEach((m) => this.transport.send(m)),
      onProtocolError: (problem) => this.reportProtocolError(problem),
      argSchemas: { invokeFunction: InvokeFunctionRequest },
      invokeOptions: {
        deadlineMs: options.callbackDeadlineMs ?? 30_000,
        timeoutError: (ms) => new EngineHostError('timeout', `timeout after ${ms} ms`, 'callback'),
        onDeadline: () => this.probeAfterTimeout('callback'),
      },
      handlers: {
        'llm.complete': async ([params]) => {
          const llm = options.callbacks?.llmComplete;
          if (!llm)
            throw new Error(
              'runtime.llm.complete is not available: this plugin loader was started without an LLM (summarizer) for plugins',
            );
          return await llm(params as LlmCompleteParams);
        },
        delegateCompaction: async ([params]) => {
          const delegate = options.callbacks?.delegateCompaction;
          if (!delegate)
            throw new Error(
              'delegateCompactionToRuntime is not available: this plugin loader was started without a compaction delegate',
            );
          return await delegate(params as CompactParams);
        },
      },
    });
    const transportFactory = options.transport ?? forkTransport;
    this.transport = transportFactory({
      entry: this.entry.entry,
      execArgv: [heapCapArg(options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB), ...this.entry.execArgv],
      ...(options.permissionArgv ? { permissionArgv: options.permissionArgv } : {}),
      nodePath: options.nodePath,
      // set whatever the app's own environment says: both ends of the channel must agree
      env: { ...options.env, [HOST_CODEC_ENV]: this.codec },
      cwd: options.cwd,
      maxMessageBytes: this.maxMessageBytes,
    });
    this.exitPromise = new Promise((resolve) => this.transport.onExit(resolve));
    this.transport.onMessage((message) => this.onMessage(message));
    this.transport.onOversized?.((bytes) => this.onOversized(bytes));
    this.transport.onOutput((stream, text) => this.output.write(stream, text));
    void this.exitPromise.then((exit) => this.onExit(exit));
  }

  /** Starts an engine host and waits until it reports ready. */
  static async start(options: EngineHostOptions): Promise<EngineHost> {
    const host = new EngineHost(options);
    const deadlineMs = options.startDeadlineMs ?? 20_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        host.ready,
        new Promise((_, reject) => {
          timer = setTimeout(() => {
            host.kill(`failed to start within ${deadlineMs} ms`);
            reject(
              new EngineHostError(
                'start-failed',
                `engine host for ${options.label} did not start within ${deadlineMs} ms`,
                'start',
              ),
            );
          }, deadlineMs);
        }),
      ]);
    } finally {
      if (timer) clearTimeout(timer);
    }
    return host;
  }

  get pid(): number | undefined {
    return this.transport.pid;
  }
  get node(): string | undefined {
    return this.nodeVersion;
  }
  get running(): boolean {
    return this.stopped === undefined;
  }
  /**
   * Whether the host runs under Node's permission model: it was started with the flags, its transport applied them
   * and the process said so when it was ready (undefined before then).
   */
  get confined(): boolean | undefined {
    if (this.hostConfined === undefined) return undefined;
    return this.hostConfined && this.options.permissionArgv !== undefined && !this.transport.unconfinedReason;
  }
  /** why the transport did not apply the permission flags (Electron's utility process), when it did not */
  get transportUnconfinedReason(): string | undefined {
    return this.transport.unconfinedReason;
  }
  /** why the host is not running (`exited with code 3`, `killed after timeout in assemble`, `closed`) */
  get stopReason(): string | undefined {
    return this.stopped;
  }

  onStop(listener: (reason: string) => void): void {
    if (this.stopped !== undefined) listener(this.stopped);
    else this.stopListeners.push(listener);
  }

  /** Resolves once the process has exited. */
  whenExited(): Promise<EngineHostExit> {
    return this.exitPromise;
  }

  request(op: string, args: unknown[], call: CallOptions): Promise<unknown> {
    if (this.stopped !== undefined) {
      return Promise.reject(
        new EngineHostError('not-running', `engine host is not running (${this.stopped})`, call.operation),
      );
    }
    const flight = { operation: call.operation };
    this.inFlight.add(flight);
    const reply = this.peer.request(op, args, {
      deadlineMs: call.deadlineMs,
      timeoutError: (ms) => new EngineHostError('timeout', `timeout after ${ms} ms`, call.operation),
      onDeadline: () => this.probeAfterTimeout(call.operation),
    });
    void reply.then(
      () => this.inFlight.delete(flight),
      () => this.inFlight.delete(flight),
    );
    return reply;
  }

  /** Asks the host to dispose its engines and exit; kills it when it does not exit within `graceMs`. */
  async close(graceMs = 2000): Promise<void> {
    if (this.stopped === undefined) {
      this.stopped = 'closed';
      try {
        this.transport.send({ type: 'shutdown' });
      } catch {
        // already gone
      }
      const timer = setTimeout(() => this.transport.kill(), graceMs);
      await this.exitPromise;
      clearTimeout(timer);
    } else {
      this.transport.kill();
      await this.exitPromise;
    }
  }

  /** Ends the process now (SIGKILL). `reason` is what later calls report. */
  kill(reason: string): void {
    if (this.stopped === undefined) this.stopped = reason;
    this.transport.kill();
  }

  /**
   * Pings the host. Resolves true when it answers within `graceMs`; when it does not, it is killed with
   * `killReason` and this resolves false. A probe already in flight is shared.
   */
  probe(
    graceMs = this.options.unresponsiveGraceMs ?? 1000,
    killReason = 'killed: stopped answering',
  ): Promise<boolean> {
    if (this.stopped !== undefined) return Promise.resolve(false);
    if (this.probing) return this.probing;
    const nonce = this.nextNonce++;
    this.probing = new Promise<boolean>((resolve) => {
      const finish = (alive: boolean) => {
        clearTimeout(timer);
        this.pongs.delete(nonce);
        this.probing = undefined;
        resolve(alive);
      };
      const timer = setTimeout(() => {
        this.kill(killReason);
        finish(false);
      }, graceMs);
      this.pongs.set(nonce, () => finish(this.stopped === undefined));
      try {
        this.transport.send({ type: 'ping', nonce });
      } catch {
        // the exit handler settles it
      }
    });
    return this.probing;
  }

  private probeAfterTimeout(operation: string): void {
    void this.probe(undefined, `killed after timeout in ${operation}`);
  }

  /** A message past the cap: the call in flight fails with the reason, and the host is stopped (it is not read). */
  private onOversized(bytes: number): void {
    const operation = this.inFlight.values().next().value?.operation;
    const reason = oversizedReason(operation, bytes, this.maxMessageBytes);
    this.peer.close(new EngineHostError('oversized', reason, operation));
    this.kill(reason);
  }

  /** Text from the transport: measured against the cap, then parsed. */
  private parseText(text: string): unknown {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: most texts need no count
    const bytes = text.length * 3 > this.maxMessageBytes ? Buffer.byteLength(text) : 0;
    if (bytes > this.maxMessageBytes) {
      this.onOversized(bytes);
      return undefined;
    }
    try {
      return JSON.parse(text);
    } catch {
      this.reportProtocolError(`a message that is not JSON (${text.length} characters)`);
      return undefined;
    }
  }

  private onMessage(received: unknown): void {
    const raw = typeof received === 'string' ? this.parseText(received) : received;
    if (raw === undefined) return;
    const problem = describeChildMessageViolation(raw);
    if (problem) {
      this.reportProtocolError(`${problem} (message: ${previewMessage(raw)})`);
      return;
    }
    const message = raw as { type: string } & Record<string, unknown>;
    switch (message.type) {
      case 'ready':
        // the first one counts: plugin code, which runs later, cannot claim another state
        if (this.nodeVersion !== undefined) return;
        if ((message.codec ?? 'refs') !== this.codec) {
          // a host that decodes with another codec would misread every call: it is not used
          const problem = `it decodes with the ${message.codec ?? 'refs'} codec, the app with the ${this.codec} codec`;
          this.readyReject(
            new EngineHostError('start-failed', `engine host for ${this.options.label}: ${problem}`, 'start'),
          );
          this.kill(`not used: ${problem}`);
          return;
        }
        this.nodeVersion = message.node as string;
        this.hostConfined = message.confined === true;
        this.readyResolve({ pid: message.pid as number, node: message.node as string });
        return;
      case 'denied':
        this.options.onAccessDenied?.({
          permission: message.permission as string,
          resource: message.resource as string,
          operation: message.operation as string,
        });
        return;
      case 'pong': {
        const done = this.pongs.get(message.nonce as number);
        this.pongs.delete(message.nonce as number);
        done?.();
        return;
      }
      case 'log':
        this.options.onLog?.({
          level: message.level as LogLevel,
          message: message.message as string,
          ...(typeof message.pluginId === 'string' ? { pluginId: message.pluginId } : {}),
          at: Date.now(),
        });
        return;
      case 'fatal': {
        let text: string;
        try {
          const error = decodeWire(message.error, DATA_ONLY_DECODE);
          text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        } catch {
          text = 'an error that could not be decoded';
        }
        this.fatal = `${message.origin as string}: ${text}`;
        return;
      }
      default:
        this.peer.handleMessage(message);
    }
  }

  private onExit(exit: EngineHostExit): void {
    this.output.flush();
    const outOfMemory = this.stopped === undefined && !exit.spawnError && diedOutOfMemory(this.output.stderrTail);
    const reason =
      this.stopped ??
      (outOfMemory ? outOfMemoryReason(this.options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB) : describeExit(exit, this.fatal));
    this.stopped = reason;
    const code = exit.spawnError ? 'start-failed' : outOfMemory ? 'out-of-memory' : 'exited';
    const error = new EngineHostError(code, `engine host ${reason}`);
    this.peer.close(error);
    for (const done of this.pongs.values()) done();
    this.pongs.clear();
    const tail = this.output.stderrTail.trim();
    this.readyReject(
      new EngineHostError(
        'start-failed',
        `engine host for ${this.options.label} ${reason} before it was ready${tail ? `; its stderr ends with:\n${tail}` : ''}`,
        'start',
      ),
    );
    for (const listener of this.stopListeners.splice(0)) listener(reason);
  }

  private reportProtocolError(problem: string): void {
    this.options.onProtocolError?.(problem);
    this.options.onLog?.({
      level: 'error',
      message: `engine host sent an invalid message (ignored): ${problem}`,
      at: Date.now(),
    });
  }
}

export function describeExit(exit: EngineHostExit, fatal?: string): string {
  if (exit.spawnError) return `failed to start: ${exit.spawnError.message}`;
  if (fatal) return `crashed: ${fatal}`;
  if (exit.signal) return `killed by ${exit.signal}`;
  return `exited with code ${exit.code ?? 'unknown'}`;
}
