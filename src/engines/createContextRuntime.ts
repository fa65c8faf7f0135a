import type { ContextRuntime, ContextRuntimeOptions } from '../runtime/contextRuntimeTypes';
import { createContextRuntimeCore } from '../runtime/createContextRuntime';
import { createLegacyContextEngine } from './legacy/legacyEngine';

/** An isolated context runtime with `legacy` registered (owner core): by default the built-in legacy engine. */
export function createContextRuntime(options: ContextRuntimeOptions = {}): ContextRuntime {
  return createContextRuntimeCore({
    ...options,
    legacyFactory: options.legacyFactory ?? (() => createLegacyContextEngine()),
  });
}
