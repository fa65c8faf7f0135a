/**
 * E3 compat: `info.acceptedHostParams` projection (behaviour §4.6, OpenClaw's `projectContextEngineHostParams`).
 * Host-added keys reach the engine only when it declared them; there is no retry, so a validator error is an
 * ordinary lifecycle failure.
 */
import { isRecord } from '../common';
import { createMethodWrappingProxy } from './forwardingProxy';
import { GUARDED_METHODS, type ContextEngine } from '../contract';
import { compatLayer } from './compatLayer';

/** The keys the host adds to lifecycle params. */
export const CONTEXT_ENGINE_HOST_PARAM_KEYS = [
  'sessionKey',
  'prompt',
  'runtimeSettings',
  'sessionTarget',
  'runtimeContext',
  'abortSignal',
] as const;

const HOST_KEYS: ReadonlySet<string> = new Set(CONTEXT_ENGINE_HOST_PARAM_KEYS);
const GUARDED: ReadonlySet<string> = new Set(GUARDED_METHODS);

/**
 * Keep a param when the engine accepts it, when it is not a host key, or when it is `abortSignal` on `compact`
 * (compact always receives its signal). `acceptedHostParams` undefined means everything passes.
 */
export function projectContextEngineHostParams<T>(
  method: string,
  params: T,
  acceptedHostParams: readonly string[] | undefined,
): T {
  if (acceptedHostParams === undefined || !isRecord(params)) return params;
  const accepted = new Set(acceptedHostParams);
  const projected: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (!HOST_KEYS.has(key) || accepted.has(key) || (key === 'abortSignal' && method === 'compact')) {
      projected[key] = value;
    }
  }
  return projected as T;
}

/** Wrap `engine` so every lifecycle call is projected through its `info.acceptedHostParams`. */
export function wrapContextEngineWithHostParamProjection(
  engine: ContextEngine,
  acceptedHostParams: readonly string[],
): ContextEngine {
  const accepted = [...acceptedHostParams];
  return createMethodWrappingProxy(
    engine,
    compatLayer((name, method) =>
      GUARDED.has(name)
        ? async (params: unknown) => method.call(engine, projectContextEngineHostParams(name, params, accepted))
        : undefined,
    ),
  );
}
