/**
 * The engine-host child process: loads one plugin, calls its `register(api)`, keeps engine instances by
 * handle and runs their methods on request of the app. Started by EngineHost (its channel: childChannel.ts);
 * plugin code only ever runs here. Every incoming message is validated; anything malformed is logged back, never acted on.
 */
import { GUARDED_METHODS } from '../../contract';
import { createOpenClawPluginSdk, installPluginSdkGlobal } from '../sdk/pluginSdk';
import { createHostApi, emptyRegisterReport } from './childHostApi';
import { dispatchHooks, type HookHandlerRecord } from './hookDispatch';
import { EntryLoadFailure, describeLoadError, engineHostDir, loadEntry } from './loadEntry';
import { engineHostCodeDirs } from './moduleCoverage';
import { assertShimsPresent, buildSdkShimMap, installSdkResolution } from './moduleResolution';
import {
  CallEngineRequest,
  CreateEngineRequest,
  ENGINE_HOST_PROTOCOL_VERSION,
  InvokeFunctionRequest,
  RegisterRequest,
  RunHooksRequest,
  describeParentMessageViolation,
  type CreateEngineReply,
  type LogLevel,
  type RegisterReport,
} from './protocol';
import { RpcPeer } from './rpcPeer';
import { HOST_CODEC_ENV, hostCodecFromEnv, type HostCodecName } from './channelCodec';
import { openChildChannel, type ChildChannel } from './childChannel';
import { DATA_ONLY_ENCODE, encodeWire } from './wireCodec';
import { toError } from '../../common/errorText';
import { nameAccessDenials, setAccessDeniedReporter } from './accessDenied';
import { installConfinedFlush } from './confinedFs';
import { fileURLToPath } from 'node:url';

const ENGINE_MEMBER_METHODS = [...GUARDED_METHODS, 'dispose'] as const;

function notStartedByContextScope(): never {
  process.stderr.write('engineHostMain must be started by ContextScope (its channel to the app is missing).\n');
  process.exit(2);
}
const channel: ChildChannel = openChildChannel() ?? notStartedByContextScope();

/** The channel's codec as the app chose it (channelCodec.ts); the plugin's environment is the lane's, without it. */
function channelCodecOfApp(): HostCodecName {
  try {
    return hostCodecFromEnv(process.env);
  } catch (error) {
    process.stderr.write(`engine host: ${toError(error).message}\n`);
    process.exit(2);
  } finally {
    delete process.env[HOST_CODEC_ENV];
  }
}
const codec = channelCodecOfApp();

function send(message: Record<string, unknown>, then?: () => void): void {
  channel.send(message, then);
}

const MAX_LOG_CHARS = 60_000; // below the protocol's 64 000 limit

function log(level: LogLevel, raw: string, pluginId?: string): void {
  const message =
    raw.length > MAX_LOG_CHARS
      ? `${raw.slice(0, MAX_LOG_CHARS)}… [${raw.length - MAX_LOG_CHARS} more characters]`
      : raw;
  send(pluginId === undefined ? { type: 'log', level, message } : { type: 'log', level, message, pluginId });
}

/** Node's permission model is on in this process (the app started it with --permission / --experimental-permission). */
const confined = (process as { permission?: unknown }).permission !== undefined;

// what the permission model refused the plugin, as it leaves the plugin (accessDenied.ts); at most 500 reports
let deniedSent = 0;
setAccessDeniedReporter((denial) => {
  if (deniedSent >= 500) return;
  deniedSent++;
  send({ type: 'denied', ...denial, resource: denial.resource.slice(0, 8192) });
});

let fatalSent = false;
function reportFatal(origin: 'uncaughtException' | 'unhandledRejection', error: unknown): void {
  if (fatalSent) return;
  fatalSent = true;
  nameAccessDenials(error, origin);
  let encoded: unknown;
  try {
    encoded = encodeWire(toError(error), DATA_ONLY_ENCODE);
  } catch {
    encoded = encodeWire(new Error(String(error)), DATA_ONLY_ENCODE);
  }
  // exit once the report is flushed; the timer covers a dead channel
  const exit = () => process.exit(1);
  setTimeout(exit, 500).unref();
  send({ type: 'fatal', origin, error: encoded }, exit);
}

const factories = new Map<number, unknown>();
const engines = new Map<number, Record<string, unknown>>();
const hookHandlers = new Map<string, HookHandlerRecord[]>();
let nextHandle = 1;
let registered = false;

const peer = new RpcPeer({
  side: 'child',
  codec,
  send: (message) => send(message),
  sendMany: (messages) => channel.sendMany(messages),
  onProtocolError: (problem) => log('error', `engine host: ignored an invalid message from the app: ${problem}`),
  argSchemas: {
    register: RegisterRequest,
    createEngine: CreateEngineRequest,
    callEngine: CallEngineRequest,
    invokeFunction: InvokeFunctionRequest,
    runHooks: RunHooksRequest,
  },
  handlers: {
    register: ([req]) => register(req as RegisterRequest),
    createEngine: ([req]) => createEngine(req as CreateEngineRequest),
    callEngine: ([req]) => callEngine(req as CallEngineRequest),
    runHooks: ([req]) => dispatchHooks(hookHandlers, (req as RunHooksRequest).invocations),
  },
});

/** The plugin SDK the shims serve; it learns where each session's transcript is from the engine calls. */
let sdk: ReturnType<typeof createOpenClawPluginSdk> | undefined;

async function register(req: RegisterRequest): Promise<RegisterReport> {
  if (registered) throw new Error('this engine host already loaded its plugin; start a new host to load again');
  registered = true;
  if (confined) await installConfinedFlush(fileURLToPath(import.meta.url));
  const shims = buildSdkShimMap(req.shimDir);
  assertShimsPresent(shims);
  sdk = createOpenClawPluginSdk({
    delegateCompaction: async (params) => (await peer.request('delegateCompaction', [params])) as never,
    memoryPromptSection: req.sdk.memoryPromptSection,
  });
  installPluginSdkGlobal(sdk);
  const coverage = { covered: req.covered, exemptDirs: engineHostCodeDirs(req.shimDir, engineHostDir()) };
  installSdkResolution(shims, coverage);
  const report = emptyRegisterReport();
  for (const entry of req.entries) {
    const record: RegisterReport['entries'][number] = {
      pluginId: entry.pluginId,
      file: entry.file,
      loaded: false,
      asyncRegister: false,
    };
    report.entries.push(record);
    let loaded;
    try {
      loaded = await loadEntry(entry.file, entry.format, shims, req.transpileCacheDir, coverage);
    } catch (error) {
      record.error = error instanceof EntryLoadFailure ? error.detail : describeLoadError(error, 'import');
      continue;
    }
    const api = createHostApi({
      pluginId: entry.pluginId,
      pluginName: req.pluginName,
      pluginDescription: req.pluginDescription,
      pluginVersion: req.pluginVersion,
      source: entry.file,
      pluginRoot: req.pluginRoot,
      registrationMode: req.registrationMode,
      config: req.config,
      pluginConfig: req.pluginConfig,
      report,
      factories,
      hookHandlers,
      log,
      ...(req.llmAvailable ? { llmComplete: (params: unknown) => peer.request('llm.complete', [params]) } : {}),
    });
    try {
      const result = loaded.register(api);
      if (result && typeof (result as PromiseLike<unknown>).then === 'function') {
        record.asyncRegister = true;
        await result;
      }
      record.loaded = true;
    } catch (error) {
      record.error = describeLoadError(error, 'register');
    }
  }
  return report;
}

async function createEngine(req: CreateEngineRequest): Promise<CreateEngineReply> {
  const factory = factories.get(req.seq);
  if (typeof factory !== 'function') throw new Error(`no context engine factory with registration number ${req.seq}`);
  let value: unknown;
  try {
    value = await (factory as (ctx: unknown) => unknown)(req.ctx);
  } catch (error) {
    nameAccessDenials(error, 'factory');
    throw error;
  }
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return { kind: 'value', value };
  const engine = value as Record<string, unknown>;
  const handle = nextHandle++;
  engines.set(handle, engine);
  let info: unknown;
  let hasInfo = false;
  try {
    hasInfo = 'info' in engine;
    info = engine.info;
  } catch (error) {
    log('warn', `reading info of the engine from registration ${req.seq} threw: ${String(error)}`);
  }
  const methods = ENGINE_MEMBER_METHODS.filter((name) => typeof engine[name] === 'function');
  return { kind: 'engine', handle, hasInfo, info, methods };
}

async function callEngine(req: CallEngineRequest): Promise<unknown> {
  const engine = engines.get(req.handle);
  if (!engine) throw new Error(`engine instance ${req.handle} no longer exists (it was disposed)`);
  const method = engine[req.method];
  if (typeof method !== 'function') throw new TypeError(`engine.${req.method} is not a function`);
  // calls carry sessionId + sessionFile: later reads by {sessionId, sessionKey} alone find the transcript
  sdk?.transcripts.noteEngineCall(req.params[0]);
  try {
    return await (method as (...args: unknown[]) => unknown).apply(engine, req.params);
  } catch (error) {
    nameAccessDenials(error, `engine.${req.method}`);
    throw error;
  } finally {
    if (req.method === 'dispose') engines.delete(req.handle);
  }
}

process.on('uncaughtException', (error) => reportFatal('uncaughtException', error));
process.on('unhandledRejection', (reason) => reportFatal('unhandledRejection', reason));
channel.onClose(() => process.exit(0));
channel.onMessage((raw: unknown) => {
  const problem = describeParentMessageViolation(raw);
  if (problem) {
    log('error', `engine host: ignored an invalid message from the app: ${problem}`);
    return;
  }
  const message = raw as { type: string } & Record<string, unknown>;
  if (message.type === 'ping') {
    send({ type: 'pong', nonce: message.nonce });
    return;
  }
  if (message.type === 'shutdown') {
    void shutdown();
    return;
  }
  peer.handleMessage(message);
});

async function shutdown(): Promise<void> {
  for (const [handle, engine] of engines) {
    engines.delete(handle);
    try {
      if (typeof engine.dispose === 'function') await (engine.dispose as () => unknown).call(engine);
    } catch (error) {
      log('warn', `dispose() of engine instance ${handle} threw during shutdown: ${String(error)}`);
    }
  }
  process.exit(0);
}

send({
  type: 'ready',
  protocol: ENGINE_HOST_PROTOCOL_VERSION,
  pid: process.pid,
  node: process.version,
  confined,
  codec,
});
