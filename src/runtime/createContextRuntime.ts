/**
 * A context runtime instance: registry, slot resolution, quarantine, compat wrapping and the plugin api
 * (behaviour §2, §4). All state lives in the instance, so replay lanes and tests never share it.
 */
import type { ContextEngineFactory } from '../contract';
import type { ContextRuntime, ContextRuntimeOptions } from './contextRuntimeTypes';
import {
  describeResolvedEngine,
  resolveContextEngine,
  resolveDefaultContextEngine,
  unguardedContextEngine,
} from './engineResolution';
import { createContextEnginePluginApi } from './pluginApi';
import { PUBLIC_SDK_CONTEXT_ENGINE_OWNER } from './registry';
import {
  clearContextEnginesForOwner,
  createRuntimeState,
  ensureContextEnginesInitialized,
  recordQuarantine,
  registerContextEngineForOwner,
} from './runtimeState';

/**
 * An isolated context runtime with `legacyFactory` registered as `legacy` (owner core). The runtime does not know the
 * built-in engines (they sit above it); `createContextRuntime` in src/engines supplies the built-in legacy engine.
 */
export function createContextRuntimeCore(
  options: ContextRuntimeOptions & { legacyFactory: ContextEngineFactory },
): ContextRuntime {
  const state = createRuntimeState(options);
  const { logger, registry, quarantines, hub } = state;
  const registerForOwner: ContextRuntime['registerContextEngineForOwner'] = (id, factory, owner, opts) =>
    registerContextEngineForOwner(state, id, factory, owner, opts);

  const runtime: ContextRuntime = {
    logger,
    registerContextEngineForOwner: registerForOwner,
    registerContextEngine: (id, factory) =>
      registerForOwner(id, factory, PUBLIC_SDK_CONTEXT_ENGINE_OWNER, { lifecycle: 'runtime' }),
    ensureContextEnginesInitialized: () => ensureContextEnginesInitialized(state),
    resolveContextEngine: (config, ctx) => resolveContextEngine(state, config, ctx),
    resolveDefaultContextEngine: (ctx) => resolveDefaultContextEngine(state, ctx),
    listContextEngineQuarantines: () => quarantines.list(),
    isContextEngineQuarantined: (engineId) => quarantines.has(engineId),
    quarantineContextEngine: (input) =>
      recordQuarantine(state, input.engineId, input.operation, input.error, input.owner),
    clearContextEngineQuarantine: (engineId) => quarantines.clear(engineId),
    clearContextEnginesForOwner: (owner) => clearContextEnginesForOwner(state, owner),
    listContextEngineIds: () => registry.ids(),
    listContextEngineRegistrations: () => registry.list(),
    getEngineOwner: (engineId) => registry.get(engineId)?.owner,
    describeResolvedEngine: (engine) => describeResolvedEngine(state, engine),
    unguardedContextEngine: (engine) => unguardedContextEngine(state, engine),
    resolveContextEngineOwnerPluginId: (engine) => {
      const description = describeResolvedEngine(state, engine);
      if (!description || description.quarantined || !description.owner?.startsWith('plugin:')) return undefined;
      return description.owner.slice('plugin:'.length);
    },
    createPluginApi: (pluginId, pluginOptions = {}) =>
      createContextEnginePluginApi(pluginId, pluginOptions, registerForOwner, logger),
    subscribe: (listener) => hub.subscribe(listener),
  };

  ensureContextEnginesInitialized(state);
  return runtime;
}
