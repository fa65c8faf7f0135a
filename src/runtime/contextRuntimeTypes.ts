/** The public shape of a context runtime instance and its options (behaviour §2, §4). */
import type {
  ContextEngine,
  ContextEngineFactory,
  ContextEngineFactoryContext,
  ContextEngineQuarantine,
  Logger,
  OpenClawConfig,
} from '../contract';
import type { CreatePluginApiOptions, PluginApiHandle } from './pluginApi';
import type { ContextEngineRegistration, RegisterContextEngineOptions, RegisterContextEngineResult } from './registry';
import type { RuntimeEventListener } from './runtimeEvents';

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
  /**
   * The compat-wrapped engine behind a resolved engine's quarantine proxy, as a 2026.8+ logical turn calls it
   * (failures reach the caller, nothing is quarantined); `engine` itself when it has no proxy.
   */
  unguardedContextEngine(engine: ContextEngine): ContextEngine;
  /** OpenClaw's owner attribution: the plugin id behind a resolved engine; none once it is quarantined. */
  resolveContextEngineOwnerPluginId(engine: ContextEngine): string | undefined;
  /** A plugin api for `pluginId`; its registrations use owner `plugin:<pluginId>`. */
  createPluginApi(pluginId: string, options?: CreatePluginApiOptions): PluginApiHandle;
  /** Listen to quarantine and log events; returns the unsubscribe function. */
  subscribe(listener: RuntimeEventListener): () => void;
  /** The logger every runtime line goes through. */
  readonly logger: Logger;
}
