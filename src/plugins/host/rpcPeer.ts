/**
 * Whole on purpose (about 410 lines with its doc comments, under 400 without them): requests, replies, deadlines
 * and the function/signal references share one id space and one lifetime table; split, each half would reach into
 * the other's maps. The wire codec (wireEncode/wireDecode) and the framing (frameChannel) are already apart.
 *
 * One end of the engine-host channel: requests with ids, replies, deadlines, and the function/AbortSignal
 * references that cross the boundary. Both the app (parent) and the engine host (child) use it.
 *
 * Lifetimes: a function or signal exported while encoding an outgoing *request* lives until that request
 * settles (e.g. `runtimeContext.llm.complete` for one engine call); one exported in a *response* lives until
 * the peer closes (e.g. the `rollback` of a subagent spawn preparation). Signals imported with an incoming
 * request are aborted when the sender cancels that request (its deadline passed).
 *
 * Request arguments and replies go through this peer's codec (channelCodec.ts: the message reference table by
 * default, or plain JSON); what a payload defines is committed once it was encoded and handed to the transport
 * (sender) or decoded in full (receiver). Messages are sent and handled in order on both sides, so both ends stay in
 * step. With the reference table the app releases engine-named ids with `release` messages, which the engine host
 * answers with `released`.
 */
import { decodeWire, encodeWire, type WireSide } from './wireCodec';
import { describeProtocolViolation } from './protocol';
import {
  createChannelCodec,
  DEFAULT_HOST_CODEC,
  type ChannelCodec,
  type ChannelDecodeContext,
  type ChannelEncodeContext,
  type HostCodecName,
} from './channelCodec';
import type { TSchema } from '@sinclair/typebox';
import { errorMessage } from '../../common/errorText';

export interface RequestOptions {
  deadlineMs?: number;
  /** builds the error thrown when the deadline passes */
  timeoutError?: (deadlineMs: number) => Error;
  /** called after a deadline rejected the request */
  onDeadline?: () => void;
}

export interface IncomingCall {
  id: number;
  op: string;
}

export type RequestHandler = (args: unknown[], call: IncomingCall) => Promise<unknown> | unknown;

export interface RpcPeerOptions {
  side: WireSide;
  /** how payloads are encoded (both ends of a channel must use the same; default: the reference table) */
  codec?: HostCodecName;
  send(message: Record<string, unknown>): void;
  /** posts several messages at once, in order (one write); without it they are sent one by one */
  sendMany?(messages: Record<string, unknown>[]): void;
  handlers: Record<string, RequestHandler>;
  /** the reason reported when a malformed or unexpected message arrives */
  onProtocolError(problem: string): void;
  /** schemas for decoded request args, by op (args[0] is checked) */
  argSchemas?: Record<string, TSchema>;
  /** options for calls through function references received from the other side (e.g. a rollback) */
  invokeOptions?: RequestOptions;
}

interface Pending {
  op: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

interface Scope {
  functions: number[];
  signals: { id: number; signal: AbortSignal; listener: () => void }[];
}

const PERSISTENT = 0;

export class RpcPeer {
  private readonly options: RpcPeerOptions;
  private nextId = 1;
  private nextFnId = 1;
  private nextSignalId = 1;
  private readonly pending = new Map<number, Pending>();
  /** ids that settled by deadline or failure; a late response for them is expected, not hostile */
  private readonly abandoned = new Set<number>();
  private readonly localFunctions = new Map<number, (...args: unknown[]) => unknown>();
  private readonly localSignals = new Map<number, AbortSignal>();
  private readonly scopes = new Map<number, Scope>();
  /** signals imported per incoming request id (PERSISTENT for ones from responses) */
  private readonly importedSignals = new Map<number, Map<number, AbortController>>();
  private readonly importedSignalScope = new Map<number, number>();
  private readonly remoteRefs = new WeakMap<object, { kind: 'fn' | 'signal'; id: number; side: WireSide }>();
  private closedError: Error | undefined;
  /** messages held while a batch is open (sent together at its end) */
  private outbox: Record<string, unknown>[] | undefined;
  /** engine host: released ids not yet answered with `released` */
  private releasedAnswer: number[] = [];
  /** how this channel's payloads are encoded, and what it remembers between them (channelCodec.ts) */
  readonly codec: ChannelCodec;

  constructor(options: RpcPeerOptions) {
    this.options = options;
    this.codec = createChannelCodec(options.codec ?? DEFAULT_HOST_CODEC, options.side);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Sends a request; resolves with the decoded reply or rejects with the decoded error. */
  request(op: string, args: unknown[], options: RequestOptions = {}): Promise<unknown> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    const scope: Scope = { functions: [], signals: [] };
    this.scopes.set(id, scope);
    let encoded: unknown[];
    const payload = this.codec.beginEncode();
    try {
      const ctx = this.encodeContext(scope);
      encoded = args.map((arg) => payload.encode(arg, ctx));
    } catch (error) {
      this.releaseScope(id);
      return Promise.reject(error);
    }
    return new Promise<unknown>((resolve, reject) => {
      const entry: Pending = { op, resolve, reject };
      this.pending.set(id, entry);
      if (options.deadlineMs !== undefined && Number.isFinite(options.deadlineMs)) {
        const deadlineMs = options.deadlineMs;
        entry.timer = setTimeout(() => {
          if (!this.pending.has(id)) return;
          this.settle(id);
          this.abandoned.add(id);
          this.safeSend({ type: 'cancel', id, reason: `deadline of ${deadlineMs} ms passed` });
          reject(options.timeoutError?.(deadlineMs) ?? new Error(`timeout after ${deadlineMs} ms`));
          options.onDeadline?.();
        }, deadlineMs);
      }
      this.batch(() => {
        this.safeSend({ type: 'request', id, op, args: encoded });
        payload.commit();
        this.sendReleases();
      });
    });
  }

  /** Rejects every pending request with `error`; later requests reject with it too. */
  close(error: Error): void {
    this.closedError = error;
    for (const [id, entry] of [...this.pending]) {
      this.settle(id);
      entry.reject(error);
    }
    for (const controllers of this.importedSignals.values()) {
      for (const controller of controllers.values()) if (!controller.signal.aborted) controller.abort(error);
    }
    this.importedSignals.clear();
    this.localFunctions.clear();
    this.localSignals.clear();
    this.codec.reset();
  }

  /** Handles request/response/abort/cancel messages. Returns false for message types it does not own. */
  handleMessage(message: { type: string } & Record<string, unknown>): boolean {
    switch (message.type) {
      case 'request':
        void this.onRequest(message.id as number, message.op as string, message.args as unknown[]);
        return true;
      case 'response':
        this.onResponse(message.id as number, message.ok as boolean, message.value, message.error);
        return true;
      case 'abort': {
        const scopeId = this.importedSignalScope.get(message.signalId as number);
        const controller =
          scopeId === undefined ? undefined : this.importedSignals.get(scopeId)?.get(message.signalId as number);
        if (controller && !controller.signal.aborted)
          controller.abort(decodeWire(message.reason, this.decodeContext(PERSISTENT)));
        return true;
      }
      case 'release': {
        const ids = message.ids as number[];
        this.codec.releaseOwn(ids);
        // answered with the next message this side sends (the app resolves the ids until then)
        for (const id of ids) this.releasedAnswer.push(id);
        return true;
      }
      case 'released': {
        const problem = this.codec.confirmReleased(message.ids as number[]);
        if (problem) this.options.onProtocolError(problem);
        return true;
      }
      case 'cancel': {
        const controllers = this.importedSignals.get(message.id as number);
        if (controllers) {
          const reason = new Error(`cancelled by the host: ${String(message.reason)}`);
          reason.name = 'AbortError';
          for (const controller of controllers.values()) if (!controller.signal.aborted) controller.abort(reason);
        }
        return true;
      }
      default:
        return false;
    }
  }

  private async onRequest(id: number, op: string, rawArgs: unknown[]): Promise<unknown> {
    const handler: RequestHandler | undefined = Object.prototype.hasOwnProperty.call(this.options.handlers, op)
      ? this.options.handlers[op]
      : op === 'invokeFunction'
        ? ([req]) => {
            const { fnId, args } = req as { fnId: number; args: unknown[] };
            return this.invokeLocalFunction(fnId, args);
          }
        : undefined;
    let ok = true;
    let value: unknown;
    try {
      if (!handler) throw new Error(`unsupported operation "${op}"`);
      const payload = this.codec.beginDecode();
      const ctx = this.decodeContext(id);
      const args = rawArgs.map((arg) => payload.decode(arg, ctx));
      payload.commit();
      this.sendReleases();
      const schema = this.options.argSchemas?.[op];
      if (schema) {
        const problem = describeProtocolViolation(schema, args[0]);
        if (problem) throw new Error(`invalid "${op}" request: ${problem}`);
      }
      value = await handler(args, { id, op });
    } catch (error) {
      ok = false;
      value = error;
    } finally {
      const controllers = this.importedSignals.get(id);
      if (controllers) for (const signalId of controllers.keys()) this.importedSignalScope.delete(signalId);
      this.importedSignals.delete(id);
    }
    const respondScope: Scope = { functions: [], signals: [] };
    let encoded: unknown;
    // what a failed encoding defined is dropped with its payload: the error goes in a fresh one
    let payload = this.codec.beginEncode();
    try {
      encoded = payload.encode(value, this.encodeContext(respondScope));
    } catch (encodeError) {
      payload = this.codec.beginEncode();
      const what = ok ? 'result' : 'error';
      ok = false;
      const reason = errorMessage(encodeError);
      encoded = encodeWire(
        new Error(`the ${what} of "${op}" cannot be sent across the process boundary: ${reason}`),
        this.encodeContext(respondScope),
      );
    }
    this.batch(() => {
      this.safeSend(ok ? { type: 'response', id, ok, value: encoded } : { type: 'response', id, ok, error: encoded });
      payload.commit();
      this.sendReleases();
    });
    return undefined;
  }

  private onResponse(id: number, ok: boolean, value: unknown, error: unknown): void {
    const entry = this.pending.get(id);
    if (!entry) {
      if (!this.abandoned.delete(id)) this.options.onProtocolError(`response for unknown request id ${id}`);
      return;
    }
    if (entry.timer) clearTimeout(entry.timer);
    this.pending.delete(id);
    let decoded: unknown;
    try {
      // decoded before the request's scope is released: the reply may hand back a function the request passed
      const payload = this.codec.beginDecode();
      decoded = payload.decode(ok ? value : error, this.decodeContext(PERSISTENT));
      payload.commit();
      this.sendReleases();
    } catch (decodeError) {
      this.releaseScope(id);
      const reason = errorMessage(decodeError);
      this.options.onProtocolError(`malformed reply to "${entry.op}": ${reason}`);
      entry.reject(new Error(`malformed reply to "${entry.op}" from the other process: ${reason}`));
      return;
    }
    this.releaseScope(id);
    if (ok) entry.resolve(decoded);
    else
      entry.reject(
        decoded instanceof Error
          ? decoded
          : new Error(`"${entry.op}" failed with a non-Error value: ${String(decoded)}`),
      );
  }

  private settle(id: number): void {
    const entry = this.pending.get(id);
    if (entry?.timer) clearTimeout(entry.timer);
    this.pending.delete(id);
    this.releaseScope(id);
  }

  private releaseScope(id: number): void {
    const scope = this.scopes.get(id);
    if (!scope) return;
    this.scopes.delete(id);
    for (const fnId of scope.functions) this.localFunctions.delete(fnId);
    for (const { id: signalId, signal, listener } of scope.signals) {
      signal.removeEventListener('abort', listener);
      this.localSignals.delete(signalId);
    }
  }

  private encodeContext(scope: Scope): ChannelEncodeContext {
    return {
      side: this.options.side,
      exportFunction: (fn) => {
        const fnId = this.nextFnId++;
        this.localFunctions.set(fnId, fn);
        scope.functions.push(fnId);
        return fnId;
      },
      exportSignal: (signal) => {
        const signalId = this.nextSignalId++;
        this.localSignals.set(signalId, signal);
        const listener = () => {
          let reason: unknown;
          try {
            reason = encodeWire(signal.reason, this.encodeContext({ functions: [], signals: [] }));
          } catch {
            reason = encodeWire(new Error(String(signal.reason)), this.encodeContext({ functions: [], signals: [] }));
          }
          this.safeSend({ type: 'abort', signalId, reason });
        };
        if (!signal.aborted) signal.addEventListener('abort', listener, { once: true });
        scope.signals.push({ id: signalId, signal, listener });
        return signalId;
      },
      remoteRef: (value) =>
        (typeof value === 'object' || typeof value === 'function') && value !== null
          ? this.remoteRefs.get(value)
          : undefined,
    };
  }

  /** functions and signals decoded in the context of `scopeId` (an incoming request, or PERSISTENT) */
  private decodeContext(scopeId: number): ChannelDecodeContext {
    return {
      side: this.options.side,
      localFunction: (fnId) => this.localFunctions.get(fnId),
      localSignal: (signalId) => this.localSignals.get(signalId),
      importFunction: (fnId, name) => {
        const proxy = (...args: unknown[]) =>
          this.request('invokeFunction', [{ fnId, args }], this.options.invokeOptions);
        Object.defineProperty(proxy, 'name', { value: name || `remoteFunction${fnId}` });
        this.remoteRefs.set(proxy, { kind: 'fn', id: fnId, side: this.options.side === 'parent' ? 'child' : 'parent' });
        return proxy;
      },
      importSignal: (signalId, aborted, reason) => {
        const controller = new AbortController();
        if (aborted) controller.abort(reason);
        let controllers = this.importedSignals.get(scopeId);
        if (!controllers) {
          controllers = new Map();
          this.importedSignals.set(scopeId, controllers);
        }
        controllers.set(signalId, controller);
        this.importedSignalScope.set(signalId, scopeId);
        this.remoteRefs.set(controller.signal, {
          kind: 'signal',
          id: signalId,
          side: this.options.side === 'parent' ? 'child' : 'parent',
        });
        return controller.signal;
      },
    };
  }

  /** Runs a function this side exported earlier (the other side called its reference). */
  async invokeLocalFunction(fnId: number, args: unknown[]): Promise<unknown> {
    const fn = this.localFunctions.get(fnId);
    if (!fn) {
      throw new Error(`callback ${fnId} is no longer available: the engine call that passed it has finished`);
    }
    return await fn(...args);
  }

  /** The app tells the engine host which engine-named message ids it released (see messageRefTable.ts). */
  private sendReleases(): void {
    const ids = this.codec.takeReleases();
    if (ids.length > 0) this.safeSend({ type: 'release', ids });
  }

  /** Runs `fn`, sending what it sends in one write at its end. */
  private batch(fn: () => void): void {
    if (this.outbox) return fn();
    const box: Record<string, unknown>[] = [];
    this.outbox = box;
    try {
      fn();
    } finally {
      this.outbox = undefined;
      this.post(box);
    }
  }

  private safeSend(message: Record<string, unknown>): void {
    const answer = this.releasedAnswer;
    if (answer.length === 0) return this.post([message]);
    this.releasedAnswer = [];
    this.post([{ type: 'released', ids: answer }, message]);
  }

  private post(messages: Record<string, unknown>[]): void {
    if (this.outbox) {
      for (const m of messages) this.outbox.push(m);
      return;
    }
    try {
      if (messages.length > 1 && this.options.sendMany) this.options.sendMany(messages);
      else for (const m of messages) this.options.send(m);
    } catch {
      // the transport is gone; the exit handler rejects what is pending
    }
  }
}
