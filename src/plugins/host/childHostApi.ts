/**
 * Engine-host side: the `api` object a plugin's `register(api)` receives, shaped like OpenClaw's plugin API
 * (behaviour §16.2). Everything the plugin registers is recorded into a
 * RegisterReport for the parent; engine factories stay here, addressed by their registration sequence number.
 */
import { formatWithOptions } from 'node:util';
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import type { HookHandlerRecord } from './hookDispatch';
import type { LogLevel, RegisterReport } from './protocol';

export interface HostApiOptions {
  pluginId: string;
  pluginName?: string;
  pluginDescription?: string;
  pluginVersion?: string;
  /** the entry file being registered */
  source: string;
  pluginRoot: string;
  registrationMode: string;
  config: unknown;
  pluginConfig: unknown;
  report: RegisterReport;
  factories: Map<number, unknown>;
  /** handlers by event name, in registration order (the dispatcher sorts by priority) */
  hookHandlers: Map<string, HookHandlerRecord[]>;
  log(level: LogLevel, message: string, pluginId: string): void;
  /** undefined when the app offers no LLM: api.runtime.llm is then absent, as on hosts without it */
  llmComplete?: (params: unknown) => Promise<unknown>;
}

/** Optional host API methods ContextScope accepts and records as no-ops. */
export const NO_OP_REGISTRATIONS = [
  'registerHook',
  'registerService',
  'registerGatewayMethod',
  'registerHttpRoute',
  'registerHttpHandler',
  'registerCli',
  'registerProvider',
  'registerChannel',
] as const;

export interface PluginLogger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

function makeLogger(emit: (level: LogLevel, message: string) => void, prefix = ''): PluginLogger {
  const at =
    (level: LogLevel) =>
    (...args: unknown[]) =>
      emit(level, prefix + formatWithOptions({ colors: false, depth: 4 }, ...args));
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function nameOf(value: unknown): string | null {
  if (value && (typeof value === 'object' || typeof value === 'function')) {
    const name = (value as { name?: unknown }).name;
    if (typeof name === 'string' && name.trim()) return name;
  }
  return null;
}

export function createHostApi(options: HostApiOptions): Record<string, unknown> {
  const { pluginId } = options;
  const emit = (level: LogLevel, message: string) => options.log(level, message, pluginId);

  const api: Record<string, unknown> = {
    id: pluginId,
    name: options.pluginName ?? pluginId,
    description: options.pluginDescription,
    version: options.pluginVersion,
    source: options.source,
    rootDir: options.pluginRoot,
    registrationMode: options.registrationMode,
    config: options.config,
    pluginConfig: options.pluginConfig,
    logger: makeLogger(emit),
    resolvePath(input: string): string {
      if (typeof input !== 'string') return input;
      if (input === '~' || input.startsWith('~/')) return resolve(homedir(), input.slice(2));
      return isAbsolute(input) ? input : resolve(options.pluginRoot, input);
    },
    ...recordingRegistrations(options),
    runtime: hostRuntime(options, emit),
  };
  for (const method of NO_OP_REGISTRATIONS) {
    api[method] = () => {
      options.report.stubs.push({ pluginId, method });
    };
  }
  return api;
}

/** The api's register* methods and `on`: each records what the plugin registered into the report. */
function recordingRegistrations(options: HostApiOptions) {
  const { report, pluginId } = options;
  return {
    registerContextEngine(id: unknown, factory: unknown): void {
      const seq = report.engines.length;
      report.engines.push({ seq, pluginId, id, factoryIsFunction: typeof factory === 'function' });
      if (typeof factory === 'function') options.factories.set(seq, factory);
    },
    registerTool(toolOrFactory: unknown, opts?: { name?: unknown; names?: unknown }): void {
      const isFactory = typeof toolOrFactory === 'function';
      const names = Array.isArray(opts?.names) ? opts.names.filter((n): n is string => typeof n === 'string') : [];
      if (names.length > 0) {
        for (const name of names) report.tools.push({ pluginId, name, isFactory });
        return;
      }
      const name = typeof opts?.name === 'string' ? opts.name : isFactory ? null : nameOf(toolOrFactory);
      report.tools.push({ pluginId, name, isFactory });
    },
    registerCommand(def: unknown): void {
      report.commands.push({ pluginId, name: nameOf(def) });
    },
    on(event: unknown, handler: unknown, opts?: { priority?: unknown; timeoutMs?: unknown }): void {
      const name = String(event);
      report.hooks.push({ pluginId, event: name });
      const list = options.hookHandlers.get(name) ?? [];
      const priority = typeof opts?.priority === 'number' && Number.isFinite(opts.priority) ? opts.priority : 0;
      const timeoutMs =
        typeof opts?.timeoutMs === 'number' && opts.timeoutMs > 0 ? Math.floor(opts.timeoutMs) : undefined;
      list.push({ pluginId, handler, priority, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
      options.hookHandlers.set(name, list);
    },
    session: {
      controls: {
        registerSessionAction(): void {
          report.stubs.push({ pluginId, method: 'session.controls.registerSessionAction' });
        },
      },
    },
  };
}

/** `api.runtime`: the config, child loggers and (when the app offers one) the LLM. */
function hostRuntime(options: HostApiOptions, emit: (level: LogLevel, message: string) => void) {
  return {
    config: {
      current: () => options.config,
      loadConfig: () => options.config,
    },
    logging: {
      getChildLogger: (bindings?: unknown) => {
        const label = childLoggerLabel(bindings);
        return makeLogger(emit, label ? `[${label}] ` : '');
      },
      shouldLogVerbose: () => false,
    },
    ...(options.llmComplete ? { llm: { complete: options.llmComplete } } : {}),
  };
}

function childLoggerLabel(bindings: unknown): string {
  if (bindings && typeof bindings === 'object') {
    return Object.entries(bindings as Record<string, unknown>)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' ');
  }
  return typeof bindings === 'string' ? bindings : '';
}

export function emptyRegisterReport(): RegisterReport {
  return { entries: [], engines: [], tools: [], commands: [], hooks: [], stubs: [] };
}
