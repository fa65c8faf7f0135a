/**
 * Chooses the compat layer every resolved engine gets (behaviour §2.4 step 7): the E3 projection when the engine
 * declares `info.acceptedHostParams`, otherwise the E2 strict-validator retry. Idempotent.
 */
import type { ContextEngine } from '../contract';
import { wrapContextEngineWithHostParamProjection } from './hostParamProjection';
import { CONTEXT_ENGINE_COMPAT_MARKER } from './compatLayer';
import { wrapContextEngineWithStrictValidatorRetry } from './strictValidatorRetry';

/** Which compat layer applies to an engine with this info. */
export function selectCompatMode(engine: ContextEngine): 'projection' | 'retry' {
  return Array.isArray(engine.info?.acceptedHostParams) ? 'projection' : 'retry';
}

/** Wrap `engine` in its compat layer unless it already has one. */
export function wrapContextEngineCompat(engine: ContextEngine): ContextEngine {
  if ((engine as unknown as Record<symbol, unknown>)[CONTEXT_ENGINE_COMPAT_MARKER] === true) return engine;
  const accepted = engine.info?.acceptedHostParams;
  if (Array.isArray(accepted)) {
    return wrapContextEngineWithHostParamProjection(
      engine,
      accepted.filter((key): key is string => typeof key === 'string'),
    );
  }
  return wrapContextEngineWithStrictValidatorRetry(engine);
}
