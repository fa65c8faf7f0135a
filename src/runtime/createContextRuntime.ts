/**
 * A context runtime instance: registry, slot resolution, quarantine, compat wrapping and the plugin api
 * (spec §2, §4). All state lives in the instance, so replay lanes and tests never share it.
 */
import {
  describeContextEngineContractError,
  type ContextEngine,
  type ContextEngineFactory,
  type ContextEngineFactoryContext,
  type ContextEngineQuarantine,
  type Logger,
  type OpenClawConfig,
} from '../contract';
import { createContextEnginePluginApi, type CreatePluginApiOptions, type PluginApiHandle } from './pluginApi';
import { wrapContextEngineWithRuntimeQuarantine } from './quarantineProxy';
import { DEFAULT_CONTEXT_ENGINE_ID, describeQuarantineReason, QuarantineStore } from './quarantineStore';
import {
  ContextEngineRegistry,
  CORE_CONTEXT_ENGINE_OWNER,
  normalizeContextEngineOwner,
  PUBLIC_SDK_CONTEXT_ENGINE_OWNER,
  type ContextEngineRegistration,
  type RegisterContextEngineOptions,
  type RegisterContextEngineResult,
} from './registry';
import { RuntimeEventHub, type RuntimeEventListener, type RuntimeLogLevel } from './runtimeEvents';
import { resolveContextEngineSlotId } from './slotSelection';
import { wrapContextEngineCompat } from './wrapContextEngineCompat';

/** Options of `createContextRuntime` (src/engines), which supplies the built-in legacy engine. */
export interface ContextRuntimeOptions {
  /** receives every log line (default: console) */
  logger?: Logger;
  /** the factory registered as `legacy` (owner core); default: the built-in legacy engine with built-in compaction */
  legacyFactory?: ContextEngineFactory;
  /** receives every quarantine and log event */
  onEvent?: RuntimeEventListener;
  /** clock for quarantine timestamps (tests) */
  now?: () => Date;
}

/** Directories passed to engine factories on resolution. */
export interface ResolveContextEngineContext {
  agentDir?: string;
  workspaceDir?: string;
}

/** What the runtime knows about an engine object it returned from `resolveContextEngine`. */
export interface ResolvedEngineDescription {
  /** the registered (slot) id the wrapper stands for */
  engineId: string;
  owner?: string;
  /** true while that id is quarantined (calls go to legacy) */
  quarantined: boolean;
}

/** A quarantine recorded from outside a guarded call (e.g. an engine-host crash). */
export interface QuarantineContextEngineInput {
  engineId: string;
  operation: string;
  /** the thrown value or a reason string */
  error: unknown;
  /** defaults to the registered owner of `engineId` */
  owner?: string;
}

/** One isolated context-engine runtime (registry, resolution, quarantine, plugin api). */
export interface ContextRuntime {
  /** Register `factory` as `id` for `owner` under OpenClaw's owner/refresh rules. */
  registerContextEngineForOwner(
    id: string,
    factory: ContextEngineFactory,
    owner: string,
    opts?: RegisterContextEngineOptions,
  ): RegisterContextEngineResult;
  /** The public-SDK registration (owner `public-sdk`). */
  registerContextEngine(id: string, factory: ContextEngineFactory): RegisterContextEngineResult;
  /** Register core's `legacy` when absent (idempotent; done at creation). */
  ensureContextEnginesInitialized(): void;
  /** Resolve the slot's engine: compat-wrapped, and quarantine-wrapped unless it is the default. */
  resolveContextEngine(config?: OpenClawConfig, ctx?: ResolveContextEngineContext): Promise<ContextEngine>;
  /** Resolve the default engine strictly (throws instead of falling back). */
  resolveDefaultContextEngine(ctx?: ContextEngineFactoryContext): Promise<ContextEngine>;
  /** Quarantine records, in the order they were recorded. */
  listContextEngineQuarantines(): ContextEngineQuarantine[];
  /** Whether `engineId` is quarantined. */
  isContextEngineQuarantined(engineId: string): boolean;
  /** Record a quarantine directly (first failure wins); logs and emits like any other. */
  quarantineContextEngine(input: QuarantineContextEngineInput): ContextEngineQuarantine;
  /** Lift `engineId`'s quarantine; true when there was one. */
  clearContextEngineQuarantine(engineId: string): boolean;
  /** Remove every engine `owner` registered and lift their quarantines; returns the removed ids. */
  clearContextEnginesForOwner(owner: string): string[];
  /** Registered engine ids, sorted. */
  listContextEngineIds(): string[];
  /** Registered entries `{id, factory, owner, lifecycle}`. */
  listContextEngineRegistrations(): ContextEngineRegistration[];
  /** The owner `engineId` is registered under, if any. */
  getEngineOwner(engineId: string): string | undefined;
  /** `{engineId, owner, quarantined}` for an engine this runtime resolved, else undefined. */
  describeResolvedEngine(engine: ContextEngine): ResolvedEngineDescription | undefined;
  /** OpenClaw's owner attribution: the plugin id behind a resolved engine; none once it is quarantined. */
  resolveContextEngineOwnerPluginId(engine: ContextEngine): string | undefined;
  /** A plugin api for `pluginId`; its registrations use owner `plugin:<pluginId>`. */
  createPluginApi(pluginId: string, options?: CreatePluginApiOptions): PluginApiHandle;
  /** Listen to quarantine and log events; returns the unsubscribe function. */
  subscribe(listener: RuntimeEventListener): () => void;
  /** The logger every runtime line goes through. */
  readonly logger: Logger;
}

function consoleLogger(): Logger {
  return {
    debug: (message, ...rest) => console.debug(message, ...rest),
    info: (message, ...rest) => console.info(message, ...rest),
    warn: (message, ...rest) => console.warn(message, ...rest),
    error: (message, ...rest) => console.error(message, ...rest),
  };
}

function factoryContext(
  config: OpenClawConfig | undefined,
  ctx: ResolveContextEngineContext | undefined,
): ContextEngineFactoryContext {
  return { config, agentDir: ctx?.agentDir, workspaceDir: ctx?.workspaceDir };
}

/**
 * An isolated context runtime with `legacyFactory` registered as `legacy` (owner core). The runtime does not know the
 * built-in engines (they sit above it); `createContextRuntime` in src/engines supplies the built-in legacy engine.
 */
export function createContextRuntimeCore(
  options: ContextRuntimeOptions & { legacyFactory: ContextEngineFactory },
): ContextRuntime {
  const baseLogger = options.logger ?? consoleLogger();
  const hub = new RuntimeEventHub(options.onEvent);
  const now = options.now ?? (() => new Date());
  const registry = new ContextEngineRegistry();
  const resolvedMeta = new WeakMap<object, { engineId: string; owner?: string }>();
  const legacyFactory = options.legacyFactory;

  const log = (level: RuntimeLogLevel, message: string) => {
    try {
      baseLogger[level](message);
    } finally {
      hub.emit({ type: 'log', level, message });
    }
  };
  const logger: Logger = {
    debug: (message) => log('debug', message),
    info: (message) => log('info', message),
    warn: (message) => log('warn', message),
    error: (message) => log('error', message),
  };

  const quarantines = new QuarantineStore({
    onQuarantine(record, line) {
      log('error', line);
      hub.emit({
        type: 'quarantine',
        engineId: record.engineId,
        ...(record.owner ? { owner: record.owner } : {}),
        operation: record.operation,
        reason: record.reason,
        failedAt: record.failedAt.getTime(),
      });
    },
  });

  const quarantine = (engineId: string, operation: string, error: unknown, owner?: string) =>
    quarantines.quarantine({
      engineId,
      operation,
      error,
      owner: owner ?? registry.get(engineId)?.owner,
      failedAt: now(),
    });

  const availableEngines = () => {
    const ids = registry.ids();
    return ids.length > 0 ? ids.join(', ') : '(none)';
  };

  const registerContextEngineForOwner: ContextRuntime['registerContextEngineForOwner'] = (
    id,
    factory,
    owner,
    opts = {},
  ) => {
    const outcome = registry.register(id, factory, owner, opts);
    // E2: a live (runtime) registration lifts the id's quarantine immediately.
    if (outcome.stored && (opts.lifecycle ?? 'runtime') === 'runtime') quarantines.clear(id);
    return outcome.result;
  };

  const ensureContextEnginesInitialized = () => {
    if (!registry.has(DEFAULT_CONTEXT_ENGINE_ID)) {
      registerContextEngineForOwner(DEFAULT_CONTEXT_ENGINE_ID, legacyFactory, CORE_CONTEXT_ENGINE_OWNER, {
        allowSameOwnerRefresh: true,
        lifecycle: 'runtime',
      });
    }
  };

  const resolveDefaultContextEngine = async (ctx: ContextEngineFactoryContext = {}): Promise<ContextEngine> => {
    const entry = registry.get(DEFAULT_CONTEXT_ENGINE_ID);
    if (!entry) {
      throw new Error(
        `[context-engine] fallback failed: default engine "${DEFAULT_CONTEXT_ENGINE_ID}" is not registered. Available engines: ${availableEngines()}`,
      );
    }
    const engine: unknown = await entry.factory(ctx);
    const contractError = describeContextEngineContractError(DEFAULT_CONTEXT_ENGINE_ID, engine);
    if (contractError) throw new Error(`[context-engine] ${contractError}`);
    const wrapped = wrapContextEngineCompat(engine as ContextEngine);
    resolvedMeta.set(wrapped, { engineId: DEFAULT_CONTEXT_ENGINE_ID, owner: entry.owner });
    return wrapped;
  };

  const resolveContextEngine: ContextRuntime['resolveContextEngine'] = async (config, ctx) => {
    const engineId = resolveContextEngineSlotId(config);
    const isDefault = engineId === DEFAULT_CONTEXT_ENGINE_ID;
    const fctx = factoryContext(config, ctx);

    if (!isDefault && quarantines.has(engineId)) return resolveDefaultContextEngine(fctx);

    const entry = registry.get(engineId);
    if (!entry) {
      if (isDefault) {
        throw new Error(
          `Context engine "${DEFAULT_CONTEXT_ENGINE_ID}" is not registered. Available engines: ${availableEngines()}`,
        );
      }
      quarantine(engineId, 'resolve', 'not registered');
      return resolveDefaultContextEngine(fctx);
    }

    if (!isDefault && entry.lifecycle === 'readOnlyDiscovery') {
      logger.warn(
        `[context-engine] Context engine "${engineId}" owner=${entry.owner} is registered for read-only discovery only; ` +
          `falling back to default engine "${DEFAULT_CONTEXT_ENGINE_ID}" without quarantine until runtime activation registers it.`,
      );
      return resolveDefaultContextEngine(fctx);
    }

    let engine: unknown;
    try {
      engine = await entry.factory(fctx);
    } catch (error) {
      if (isDefault) throw error;
      quarantine(engineId, 'factory', error, entry.owner);
      return resolveDefaultContextEngine(fctx);
    }

    let contractError: string | undefined;
    try {
      contractError = describeContextEngineContractError(engineId, engine);
    } catch (error) {
      contractError = describeQuarantineReason(error);
    }
    if (contractError !== undefined) {
      if (isDefault) throw new Error(contractError);
      quarantine(engineId, 'contract-validation', contractError, entry.owner);
      return resolveDefaultContextEngine(fctx);
    }

    const compat = wrapContextEngineCompat(engine as ContextEngine);
    if (isDefault) {
      resolvedMeta.set(compat, { engineId, owner: entry.owner });
      return compat;
    }
    const wrapper = wrapContextEngineWithRuntimeQuarantine(compat, {
      engineId,
      owner: entry.owner,
      isQuarantined: (id) => quarantines.has(id),
      quarantine: (input) => void quarantine(input.engineId, input.operation, input.error, input.owner),
      resolveFallback: () => resolveDefaultContextEngine(fctx),
    });
    resolvedMeta.set(wrapper, { engineId, owner: entry.owner });
    return wrapper;
  };

  const describeResolvedEngine = (engine: ContextEngine): ResolvedEngineDescription | undefined => {
    const meta = engine !== null && typeof engine === 'object' ? resolvedMeta.get(engine) : undefined;
    if (!meta) return undefined;
    return {
      engineId: meta.engineId,
      ...(meta.owner ? { owner: meta.owner } : {}),
      quarantined: meta.engineId !== DEFAULT_CONTEXT_ENGINE_ID && quarantines.has(meta.engineId),
    };
  };

  const runtime: ContextRuntime = {
    logger,
    registerContextEngineForOwner,
    registerContextEngine: (id, factory) =>
      registerContextEngineForOwner(id, factory, PUBLIC_SDK_CONTEXT_ENGINE_OWNER, { lifecycle: 'runtime' }),
    ensureContextEnginesInitialized,
    resolveContextEngine,
    resolveDefaultContextEngine,
    listContextEngineQuarantines: () => quarantines.list(),
    isContextEngineQuarantined: (engineId) => quarantines.has(engineId),
    quarantineContextEngine: (input) => quarantine(input.engineId, input.operation, input.error, input.owner),
    clearContextEngineQuarantine: (engineId) => quarantines.clear(engineId),
    clearContextEnginesForOwner: (owner) => {
      const removed = registry.removeOwner(normalizeContextEngineOwner(owner));
      for (const id of removed) quarantines.clear(id);
      return removed;
    },
    listContextEngineIds: () => registry.ids(),
    listContextEngineRegistrations: () => registry.list(),
    getEngineOwner: (engineId) => registry.get(engineId)?.owner,
    describeResolvedEngine,
    resolveContextEngineOwnerPluginId: (engine) => {
      const description = describeResolvedEngine(engine);
      if (!description || description.quarantined || !description.owner?.startsWith('plugin:')) return undefined;
      return description.owner.slice('plugin:'.length);
    },
    createPluginApi: (pluginId, pluginOptions = {}) =>
      createContextEnginePluginApi(pluginId, pluginOptions, registerContextEngineForOwner, logger),
    subscribe: (listener) => hub.subscribe(listener),
  };

  ensureContextEnginesInitialized();
  return runtime;
}
