import type { Static } from '@sinclair/typebox';
import { bridgeError, BridgeMethodError, type BridgeError } from './errors';
import { eventTopics, type BridgeEvent, type EventPayload, type EventTopic } from './events';
import type { MethodSpec, MethodSpecs } from './methodSpec';
import { methods } from './methods';
import { createSchemaCompiler, type CompiledValidator } from './schemaValidator';
import type { BridgeMethods, BridgeOutcome } from './types';
import { WireRequestSchema, type WireRequestId, type WireResponse } from './wire';
import { errorMessage } from '../common/errorText';
import { createLargeMessages, type LargeMessageOptions, type LargeMessages } from './largeMessages';
import { isRecord } from '../common/guards';

/** Requests larger than this are refused with `payload_too_large` before they are parsed. */
export const DEFAULT_MAX_REQUEST_BYTES = 10 * 1024 * 1024;

export interface HandlerContext {
  /** The method being served. */
  readonly method: string;
  /** Pushes an event to the caller (e.g. `progress`). A no-op when the transport has no event stream. */
  emit<T extends EventTopic>(topic: T, payload: EventPayload<T>): void;
}

export type HandlerFor<S extends MethodSpec> = (
  params: Static<S['request']>,
  ctx: HandlerContext,
) => Static<S['response']> | Promise<Static<S['response']>>;

export type HandlersFor<S extends MethodSpecs> = { [M in keyof S]: HandlerFor<S[M]> };

/** The ONE handler table's type: a handler for every method in the contract. */
export type BridgeHandlers = HandlersFor<BridgeMethods>;

export type EventSink = (event: BridgeEvent) => void;

export interface DispatcherOptions extends LargeMessageOptions {
  /** Check every result against its response schema (default: when NODE_ENV is 'test' or 'development'). */
  validateResponses?: boolean;
  /** Check every emitted event against its topic schema (default: same as validateResponses). */
  validateEvents?: boolean;
  /** Size cap for one request, in bytes of JSON (default 10 MiB). */
  maxRequestBytes?: number;
  /** Told about every handler exception (for logs); the caller only sees the structured error. */
  onHandlerError?: (error: unknown, method: string) => void;
}

export interface BridgeDispatcher {
  readonly methodNames: readonly string[];
  /** Validates and runs one call (IPC, in-process). Always resolves; failures are `{ ok: false, error }`. */
  call(method: unknown, params: unknown, sink?: EventSink): Promise<BridgeOutcome>;
  /** Handles one raw WebSocket message `{id, method, params}`; sends exactly one response and any events. */
  handleMessage(raw: string | Uint8Array, send: (message: WireResponse | BridgeEvent) => void): Promise<void>;
}

/** Dispatcher over the contract's methods (`src/bridge/methods`). */
export function createBridgeDispatcher(handlers: BridgeHandlers, options: DispatcherOptions = {}): BridgeDispatcher {
  return createDispatcherFor(methods, handlers, options);
}

function defaultValidation(): boolean {
  const mode = typeof process === 'undefined' ? undefined : process.env.NODE_ENV;
  return mode === 'test' || mode === 'development';
}

/** Dispatcher over any set of method specs (tests and embedders use their own). */
export function createDispatcherFor<S extends MethodSpecs>(
  specs: S,
  handlers: HandlersFor<S>,
  options: DispatcherOptions = {},
): BridgeDispatcher {
  const d = compileDispatch(specs, handlers, options);
  return {
    methodNames: d.methodNames,
    call: (method, params, sink) => callAsIpc(d, method, params, sink),
    handleMessage: (raw, send) => handleWireMessage(d, raw, send),
  };
}

/** The specs, handlers and compiled validators one dispatcher serves with. */
interface Dispatch {
  readonly specs: MethodSpecs;
  readonly methodNames: readonly string[];
  readonly handlerTable: Record<string, HandlerFor<MethodSpec> | undefined>;
  readonly requestValidator: (method: string) => CompiledValidator;
  /** undefined unless responses are validated */
  readonly responseValidator: (method: string) => CompiledValidator | undefined;
  /** undefined unless events are validated */
  readonly eventValidator: (topic: string) => CompiledValidator | undefined;
  readonly envelopeValidator: CompiledValidator;
  readonly maxRequestBytes: number;
  /** bridge.piece, bridge.upload and the answers and params over the bound (largeMessages.ts) */
  readonly large: LargeMessages;
  readonly onHandlerError?: (error: unknown, method: string) => void;
}

type Failure = { ok: false; error: BridgeError };

function compileDispatch<S extends MethodSpecs>(
  specs: S,
  handlers: HandlersFor<S>,
  options: DispatcherOptions,
): Dispatch {
  const validateResponses = options.validateResponses ?? defaultValidation();
  const validateEvents = options.validateEvents ?? validateResponses;
  // each schema is compiled on its first use (the compiler keeps it): compiling every method's request, response and
  // event schemas up front made each start of the app 1.9 s slower where responses are validated, 0.3 s where not.
  // test/unit/bridge/contract.test.ts compiles every one of them under strict ajv.
  const compile = createSchemaCompiler();
  const large = createLargeMessages(compile, options);
  return {
    specs,
    // the dispatcher's own methods last (the Electron shell registers a channel for every name)
    methodNames: [...Object.keys(specs), ...large.methodNames],
    handlerTable: handlers as unknown as Record<string, HandlerFor<MethodSpec> | undefined>,
    requestValidator: (method) => compile(specs[method]!.request),
    responseValidator: (method) => (validateResponses ? compile(specs[method]!.response) : undefined),
    eventValidator: (topic) => (validateEvents ? compile(eventTopics[topic as EventTopic]) : undefined),
    envelopeValidator: compile(WireRequestSchema),
    maxRequestBytes: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
    large,
    onHandlerError: options.onHandlerError,
  };
}

function makeContext(d: Dispatch, method: string, sink: EventSink | undefined): HandlerContext {
  return {
    method,
    emit(topic, payload) {
      if (!Object.hasOwn(eventTopics, topic)) {
        throw new Error(
          `Handler for ${method} emitted unknown event topic "${topic}"; add it to src/bridge/events.ts.`,
        );
      }
      const problem = d.eventValidator(topic)?.(payload);
      if (problem) {
        throw new Error(
          `Handler for ${method} emitted a "${topic}" event that does not match its schema at ${problem.path || '/'}: ${problem.message}.`,
        );
      }
      sink?.({ type: 'event', topic, payload } as BridgeEvent);
    },
  };
}

/** Validates the request, runs its handler and validates the result. */
async function run(d: Dispatch, method: unknown, params: unknown, sink: EventSink | undefined): Promise<BridgeOutcome> {
  const own = d.large.call(method, params);
  if (own) return own;
  const uploaded = d.large.params(method, params);
  if (!uploaded.ok) return uploaded;
  const effectiveParams = uploaded.params === undefined ? {} : uploaded.params;
  const refused = checkRequest(d, method, effectiveParams);
  if (refused) return refused;
  const name = method as string;
  const handler = d.handlerTable[name]!;
  let result: unknown;
  try {
    result = await handler(effectiveParams as never, makeContext(d, name, sink));
  } catch (error) {
    d.onHandlerError?.(error, name);
    if (error instanceof BridgeMethodError) return fail(error.code, name, error.path, error.message);
    const reason = errorMessage(error);
    return fail('handler_failed', name, '', `${name} failed: ${reason}`);
  }
  const responseProblem = d.responseValidator(name)?.(result);
  if (responseProblem) {
    return fail(
      'invalid_response',
      name,
      responseProblem.path,
      `The handler for ${name} returned a result that does not match its response schema at ${responseProblem.path || '/'}: ${responseProblem.message}. This is a bug in the handler (main/handlers.ts).`,
    );
  }
  return { ok: true, result: d.large.answer(result) };
}

/** Why a request is refused before its handler runs (method, params, handler), or undefined. */
function checkRequest(d: Dispatch, method: unknown, params: unknown): Failure | undefined {
  if (typeof method !== 'string') {
    return fail('invalid_message', '', '', 'method must be a string naming a bridge method, e.g. "app.info".');
  }
  if (!Object.hasOwn(d.specs, method)) {
    return fail(
      'unknown_method',
      method,
      '',
      `Unknown bridge method "${method}". Known methods: ${d.methodNames.join(', ')}.`,
    );
  }
  const problem = d.requestValidator(method)(params);
  if (problem) {
    return fail(
      'invalid_params',
      method,
      problem.path,
      `Invalid params for ${method} at ${problem.path || '/'}: ${problem.message}.`,
    );
  }
  if (typeof d.handlerTable[method] !== 'function') {
    return fail(
      'not_implemented',
      method,
      '',
      `${method} is part of the contract but this shell has no handler for it (main/handlers.ts).`,
    );
  }
  return undefined;
}

async function callAsIpc(d: Dispatch, method: unknown, params: unknown, sink?: EventSink): Promise<BridgeOutcome> {
  // IPC delivers structured-clone data (Maps, Dates, cycles...). Only plain JSON is part of the contract, so
  // round-trip through JSON: it measures the size and drops everything a schema could not describe.
  let json: string | undefined;
  try {
    json = JSON.stringify(params);
  } catch (error) {
    const reason = errorMessage(error);
    return fail(
      'invalid_params',
      typeof method === 'string' ? method : '',
      '',
      `params must be plain JSON data: ${reason}.`,
    );
  }
  if (json !== undefined && Buffer.byteLength(json, 'utf8') > d.maxRequestBytes) {
    return tooLarge(typeof method === 'string' ? method : '', Buffer.byteLength(json, 'utf8'), d.maxRequestBytes);
  }
  return run(d, method, json === undefined ? undefined : JSON.parse(json), sink);
}

async function handleWireMessage(
  d: Dispatch,
  raw: string | Uint8Array,
  send: (message: WireResponse | BridgeEvent) => void,
): Promise<void> {
  const { request, refusal } = parseWireRequest(d, raw);
  if (!request) {
    send(refusal);
    return;
  }
  const outcome = await run(d, request.method, request.params, (event) => send(event));
  send({ id: request.id, ...outcome });
}

type WireRequest = { id: WireRequestId; method: string; params?: unknown };
type WireRefusal = Failure & { id: WireRequestId | null };
type ParsedWireMessage = { request: WireRequest; refusal?: undefined } | { request?: undefined; refusal: WireRefusal };

/** The request envelope in a raw message, or the response refusing it (too large, not JSON, not an envelope). */
function parseWireRequest(d: Dispatch, raw: string | Uint8Array): ParsedWireMessage {
  const size = typeof raw === 'string' ? Buffer.byteLength(raw, 'utf8') : raw.byteLength;
  if (size > d.maxRequestBytes) return { refusal: { id: null, ...tooLarge('', size, d.maxRequestBytes) } };
  const text = typeof raw === 'string' ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    const reason = errorMessage(error);
    const advice = `The bridge message is not valid JSON (${reason}). Send {"id", "method", "params"}.`;
    return { refusal: { id: null, ...fail('invalid_json', '', '', advice) } };
  }
  const problem = d.envelopeValidator(message);
  if (problem) {
    const method = isRecord(message) && typeof message.method === 'string' ? message.method : '';
    const advice = `The bridge message is not a request envelope {"id", "method", "params"}: at ${problem.path || '/'} ${problem.message}.`;
    return { refusal: { id: readId(message), ...fail('invalid_message', method, problem.path, advice) } };
  }
  return { request: message as WireRequest };
}

function fail(code: string, method: string, path: string, message: string): Failure {
  return { ok: false, error: bridgeError(code, method, path, message) };
}

function tooLarge(method: string, size: number, cap: number): Failure {
  return fail(
    'payload_too_large',
    method,
    '',
    `The request is ${size} bytes; the bridge accepts at most ${cap} bytes per request. Send large data by path or in parts.`,
  );
}

function readId(message: unknown): WireRequestId | null {
  if (!isRecord(message)) return null;
  const id = message.id;
  if (typeof id === 'string' && id.length > 0 && id.length <= 128) return id;
  if (typeof id === 'number' && Number.isInteger(id)) return id;
  return null;
}
