/**
 * Resolving the slot's engine (behaviour §2.4, §4): the default engine strictly, any other through the factory and
 * contract validation into the quarantine proxy, falling back to the default on every failure.
 */
import {
  describeContextEngineContractError,
  type ContextEngine,
  type ContextEngineFactoryContext,
  type OpenClawConfig,
} from '../contract';
import type { ResolveContextEngineContext, ResolvedEngineDescription } from './contextRuntimeTypes';
import { wrapContextEngineWithRuntimeQuarantine } from './quarantineProxy';
import { DEFAULT_CONTEXT_ENGINE_ID, describeQuarantineReason } from './quarantineStore';
import type { ContextEngineRegistration } from './registry';
import { availableEngines, recordQuarantine, type RuntimeState } from './runtimeState';
import { resolveContextEngineSlotId } from './slotSelection';
import { wrapContextEngineCompat } from './wrapContextEngineCompat';

/** The default engine, compat-wrapped; throws instead of falling back. */
export async function resolveDefaultContextEngine(
  state: RuntimeState,
  ctx: ContextEngineFactoryContext = {},
): Promise<ContextEngine> {
  const entry = state.registry.get(DEFAULT_CONTEXT_ENGINE_ID);
  if (!entry) {
    throw new Error(
      `[context-engine] fallback failed: default engine "${DEFAULT_CONTEXT_ENGINE_ID}" is not registered. Available engines: ${availableEngines(state)}`,
    );
  }
  const engine: unknown = await entry.factory(ctx);
  const contractError = describeContextEngineContractError(DEFAULT_CONTEXT_ENGINE_ID, engine);
  if (contractError) throw new Error(`[context-engine] ${contractError}`);
  const wrapped = wrapContextEngineCompat(engine as ContextEngine);
  state.resolvedMeta.set(wrapped, { engineId: DEFAULT_CONTEXT_ENGINE_ID, owner: entry.owner });
  return wrapped;
}

export async function resolveContextEngine(
  state: RuntimeState,
  config?: OpenClawConfig,
  ctx?: ResolveContextEngineContext,
): Promise<ContextEngine> {
  const engineId = resolveContextEngineSlotId(config);
  const isDefault = engineId === DEFAULT_CONTEXT_ENGINE_ID;
  const fctx: ContextEngineFactoryContext = { config, agentDir: ctx?.agentDir, workspaceDir: ctx?.workspaceDir };
  const fallback = () => resolveDefaultContextEngine(state, fctx);

  if (!isDefault && state.quarantines.has(engineId)) return fallback();

  const entry = state.registry.get(engineId);
  if (!entry) {
    if (isDefault) {
      throw new Error(
        `Context engine "${DEFAULT_CONTEXT_ENGINE_ID}" is not registered. Available engines: ${availableEngines(state)}`,
      );
    }
    recordQuarantine(state, engineId, 'resolve', 'not registered');
    return fallback();
  }

  if (!isDefault && entry.lifecycle === 'readOnlyDiscovery') {
    state.logger.warn(
      `[context-engine] Context engine "${engineId}" owner=${entry.owner} is registered for read-only discovery only; ` +
        `falling back to default engine "${DEFAULT_CONTEXT_ENGINE_ID}" without quarantine until runtime activation registers it.`,
    );
    return fallback();
  }

  const engine = await createValidEngine(state, entry, isDefault, fctx);
  if (engine === undefined) return fallback();
  return wrapResolvedEngine(state, entry, isDefault, engine, fallback);
}

/**
 * Calls the factory and validates the contract. The default engine's failures throw; any other engine's quarantine
 * it (operation `factory` or `contract-validation`) and give `undefined`.
 */
async function createValidEngine(
  state: RuntimeState,
  entry: ContextEngineRegistration,
  isDefault: boolean,
  fctx: ContextEngineFactoryContext,
): Promise<ContextEngine | undefined> {
  const engineId = entry.id;
  let engine: unknown;
  try {
    engine = await entry.factory(fctx);
  } catch (error) {
    if (isDefault) throw error;
    recordQuarantine(state, engineId, 'factory', error, entry.owner);
    return undefined;
  }

  let contractError: string | undefined;
  try {
    contractError = describeContextEngineContractError(engineId, engine);
  } catch (error) {
    contractError = describeQuarantineReason(error);
  }
  if (contractError !== undefined) {
    if (isDefault) throw new Error(contractError);
    recordQuarantine(state, engineId, 'contract-validation', contractError, entry.owner);
    return undefined;
  }
  return engine as ContextEngine;
}

/** Compat-wraps the engine and, unless it is the default, puts it behind the quarantine proxy. */
function wrapResolvedEngine(
  state: RuntimeState,
  entry: ContextEngineRegistration,
  isDefault: boolean,
  engine: ContextEngine,
  fallback: () => Promise<ContextEngine>,
): ContextEngine {
  const engineId = entry.id;
  const compat = wrapContextEngineCompat(engine);
  const wrapped = isDefault
    ? compat
    : wrapContextEngineWithRuntimeQuarantine(compat, {
        engineId,
        owner: entry.owner,
        isQuarantined: (id) => state.quarantines.has(id),
        quarantine: (input) => void recordQuarantine(state, input.engineId, input.operation, input.error, input.owner),
        resolveFallback: fallback,
      });
  state.resolvedMeta.set(wrapped, { engineId, owner: entry.owner, ...(isDefault ? {} : { unguarded: compat }) });
  return wrapped;
}

/**
 * The engine as OpenClaw 2026.8+ hands it to a logical turn: compat-wrapped but not behind the quarantine proxy
 * (9.6 registry-*.mjs `resolveLogicalTurnContextEngines` creates it without a default engine, so
 * `wrapResolvedContextEngine` adds no fallback): its failures reach the caller and quarantine nothing. `engine`
 * itself when it has no quarantine proxy (the default engine, or one this runtime did not resolve).
 */
export function unguardedContextEngine(state: RuntimeState, engine: ContextEngine): ContextEngine {
  const meta = engine !== null && typeof engine === 'object' ? state.resolvedMeta.get(engine) : undefined;
  return meta?.unguarded ?? engine;
}

export function describeResolvedEngine(
  state: RuntimeState,
  engine: ContextEngine,
): ResolvedEngineDescription | undefined {
  const meta = engine !== null && typeof engine === 'object' ? state.resolvedMeta.get(engine) : undefined;
  if (!meta) return undefined;
  return {
    engineId: meta.engineId,
    ...(meta.owner ? { owner: meta.owner } : {}),
    quarantined: meta.engineId !== DEFAULT_CONTEXT_ENGINE_ID && state.quarantines.has(meta.engineId),
  };
}
