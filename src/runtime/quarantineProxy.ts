/**
 * The runtime quarantine proxy around a non-default engine (behaviour §4.3, OpenClaw's
 * `wrapContextEngineWithRuntimeQuarantine`). A guarded method that throws quarantines the engine (first failure
 * wins) and the call — and every later call — goes to the default engine, except `compact` and
 * `prepareSubagentSpawn`, which rethrow after quarantining. Aborts are rethrown and never quarantine.
 */
import { createMethodWrappingProxy } from './forwardingProxy';
import { GUARDED_METHODS, type ContextEngine, type ContextEngineInfo, type GuardedMethod } from '../contract';
import { abortErrorForSignal, isContextEngineAbortError, readAbortSignal } from './abortErrors';
import type { QuarantineInput } from './quarantineStore';

/** The reason canned fallback results give. */
export const DOWNGRADED_TO_LEGACY_REASON = 'context engine downgraded to legacy';

/** What `info` reads while quarantined and before the fallback engine has been resolved. */
export const UNRESOLVED_FALLBACK_INFO: ContextEngineInfo = Object.freeze({
  id: 'legacy',
  name: 'Legacy Context Engine',
});

/** Methods whose failure is rethrown (after quarantining) instead of silently downgraded. */
export const RETHROWING_GUARDED_METHODS: ReadonlySet<GuardedMethod> = new Set<GuardedMethod>([
  'compact',
  'prepareSubagentSpawn',
]);

const GUARDED: ReadonlySet<string> = new Set(GUARDED_METHODS);

/** The result of a guarded method when the fallback engine does not implement it (behaviour §4.3 table). */
export function cannedFallbackResult(method: GuardedMethod): unknown {
  switch (method) {
    case 'bootstrap':
      return { bootstrapped: false, reason: DOWNGRADED_TO_LEGACY_REASON };
    case 'maintain':
      return { changed: false, bytesFreed: 0, rewrittenEntries: 0, reason: DOWNGRADED_TO_LEGACY_REASON };
    case 'ingest':
      return { ingested: false };
    case 'ingestBatch':
      return { ingestedCount: 0 };
    case 'afterTurn':
    case 'prepareSubagentSpawn':
    case 'onSubagentEnded':
    case 'commitTurn':
      return undefined;
    case 'assemble':
    case 'compact':
      throw new Error(`No legacy fallback result for ${method}`);
  }
}

/** What the quarantine proxy needs from its runtime. */
export interface QuarantineProxyOptions {
  engineId: string;
  owner?: string;
  isQuarantined(engineId: string): boolean;
  quarantine(input: QuarantineInput): void;
  /** resolves the default engine (called lazily, at most once successfully per proxy) */
  resolveFallback(): Promise<ContextEngine>;
}

/** Wrap a resolved (compat-wrapped) engine with the runtime quarantine proxy. */
export function wrapContextEngineWithRuntimeQuarantine(
  engine: ContextEngine,
  options: QuarantineProxyOptions,
): ContextEngine {
  const { engineId, owner } = options;
  let fallback: ContextEngine | undefined;
  let fallbackPromise: Promise<ContextEngine> | undefined;

  const getFallback = (): Promise<ContextEngine> => {
    if (!fallbackPromise) {
      fallbackPromise = options.resolveFallback().then(
        (resolved) => (fallback = resolved),
        (error: unknown) => {
          fallbackPromise = undefined; // let a later call try again
          throw error;
        },
      );
    }
    return fallbackPromise;
  };

  const callFallback = async (method: GuardedMethod, params: unknown): Promise<unknown> => {
    const resolved = await getFallback();
    const fn = (resolved as unknown as Record<string, unknown>)[method];
    if (typeof fn === 'function') return (fn as (p: unknown) => Promise<unknown>).call(resolved, params);
    return cannedFallbackResult(method);
  };

  const makeGuarded =
    (method: GuardedMethod, original: (params: unknown) => Promise<unknown>) =>
    async (params: unknown): Promise<unknown> => {
      const signal = readAbortSignal(params);
      if (signal?.aborted) throw abortErrorForSignal(signal);
      if (options.isQuarantined(engineId)) return callFallback(method, params);
      try {
        return await original.call(engine, params);
      } catch (error) {
        if (isContextEngineAbortError(error, signal)) throw error;
        options.quarantine({ engineId, owner, operation: method, error });
        if (RETHROWING_GUARDED_METHODS.has(method)) throw error;
        try {
          return await callFallback(method, params);
        } catch {
          throw error;
        }
      }
    };

  return createMethodWrappingProxy(engine, {
    wrap: (name, method) =>
      GUARDED.has(name)
        ? makeGuarded(name as GuardedMethod, method as (params: unknown) => Promise<unknown>)
        : undefined,
    intercept: (property) => {
      if (property !== 'info') return undefined;
      if (options.isQuarantined(engineId)) return { value: fallback?.info ?? UNRESOLVED_FALLBACK_INFO };
      return { value: Reflect.get(engine, property) };
    },
  });
}
