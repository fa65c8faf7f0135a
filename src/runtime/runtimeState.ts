/**
 * The state one context runtime instance keeps (logger, events, registry, quarantines, what it resolved) and the
 * operations on it that registration and resolution share.
 */
import type { ContextEngine, ContextEngineFactory, ContextEngineQuarantine, Logger } from '../contract';
import type { ContextRuntimeOptions } from './contextRuntimeTypes';
import { DEFAULT_CONTEXT_ENGINE_ID, QuarantineStore } from './quarantineStore';
import {
  ContextEngineRegistry,
  CORE_CONTEXT_ENGINE_OWNER,
  normalizeContextEngineOwner,
  type RegisterContextEngineOptions,
  type RegisterContextEngineResult,
} from './registry';
import { RuntimeEventHub, type RuntimeLogLevel } from './runtimeEvents';

export interface RuntimeState {
  /** every line goes to the configured logger and is emitted as a `log` event */
  readonly logger: Logger;
  readonly hub: RuntimeEventHub;
  readonly registry: ContextEngineRegistry;
  readonly quarantines: QuarantineStore;
  /**
   * the engine id and owner behind each engine object `resolveContextEngine` returned, and for a quarantine proxy
   * the compat-wrapped engine it guards
   */
  readonly resolvedMeta: WeakMap<object, { engineId: string; owner?: string; unguarded?: ContextEngine }>;
  readonly now: () => Date;
  readonly legacyFactory: ContextEngineFactory;
}

export function createRuntimeState(
  options: ContextRuntimeOptions & { legacyFactory: ContextEngineFactory },
): RuntimeState {
  const hub = new RuntimeEventHub(options.onEvent);
  const logger = eventLogger(options.logger ?? consoleLogger(), hub);
  const quarantines = new QuarantineStore({
    onQuarantine(record, line) {
      logger.error(line);
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
  return {
    logger,
    hub,
    registry: new ContextEngineRegistry(),
    quarantines,
    resolvedMeta: new WeakMap(),
    now: options.now ?? (() => new Date()),
    legacyFactory: options.legacyFactory,
  };
}

function consoleLogger(): Logger {
  return {
    debug: (message, ...rest) => console.debug(message, ...rest),
    info: (message, ...rest) => console.info(message, ...rest),
    warn: (message, ...rest) => console.warn(message, ...rest),
    error: (message, ...rest) => console.error(message, ...rest),
  };
}

/** A logger that writes through `base` and then emits the line as a `log` event (even when `base` throws). */
function eventLogger(base: Logger, hub: RuntimeEventHub): Logger {
  const log = (level: RuntimeLogLevel, message: string) => {
    try {
      base[level](message);
    } finally {
      hub.emit({ type: 'log', level, message });
    }
  };
  return {
    debug: (message) => log('debug', message),
    info: (message) => log('info', message),
    warn: (message) => log('warn', message),
    error: (message) => log('error', message),
  };
}

/** Quarantines `engineId` (first failure wins), attributed to `owner` or else its registered owner. */
export function recordQuarantine(
  state: RuntimeState,
  engineId: string,
  operation: string,
  error: unknown,
  owner?: string,
): ContextEngineQuarantine {
  return state.quarantines.quarantine({
    engineId,
    operation,
    error,
    owner: owner ?? state.registry.get(engineId)?.owner,
    failedAt: state.now(),
  });
}

/** The registered ids for an error message, or `(none)`. */
export function availableEngines(state: RuntimeState): string {
  const ids = state.registry.ids();
  return ids.length > 0 ? ids.join(', ') : '(none)';
}

export function registerContextEngineForOwner(
  state: RuntimeState,
  id: string,
  factory: ContextEngineFactory,
  owner: string,
  opts: RegisterContextEngineOptions = {},
): RegisterContextEngineResult {
  const outcome = state.registry.register(id, factory, owner, opts);
  // E2: a live (runtime) registration lifts the id's quarantine immediately.
  if (outcome.stored && (opts.lifecycle ?? 'runtime') === 'runtime') state.quarantines.clear(id);
  return outcome.result;
}

/** Registers core's `legacy` when absent (idempotent). */
export function ensureContextEnginesInitialized(state: RuntimeState): void {
  if (!state.registry.has(DEFAULT_CONTEXT_ENGINE_ID)) {
    registerContextEngineForOwner(state, DEFAULT_CONTEXT_ENGINE_ID, state.legacyFactory, CORE_CONTEXT_ENGINE_OWNER, {
      allowSameOwnerRefresh: true,
      lifecycle: 'runtime',
    });
  }
}

/** Removes every engine `owner` registered and lifts their quarantines; returns the removed ids. */
export function clearContextEnginesForOwner(state: RuntimeState, owner: string): string[] {
  const removed = state.registry.removeOwner(normalizeContextEngineOwner(owner));
  for (const id of removed) state.quarantines.clear(id);
  return removed;
}
