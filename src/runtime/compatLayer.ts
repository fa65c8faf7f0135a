/** What the two compat layers (E2 strict-validator retry, E3 host-param projection) share: the marker. */
import type { MethodWrappingOptions } from './forwardingProxy';

/** Marks an engine already wrapped by a compat proxy (E2 retry or E3 projection), so wrapping is idempotent. */
export const CONTEXT_ENGINE_COMPAT_MARKER = Symbol.for('openclaw.contextEngine.sessionKeyCompat');

const MARKED = { value: true };

/** A compat layer's proxy options: its `wrap`, with the compat marker reading true. */
export function compatLayer(wrap: MethodWrappingOptions['wrap']): MethodWrappingOptions {
  return {
    wrap,
    intercept: (property) => (property === CONTEXT_ENGINE_COMPAT_MARKER ? MARKED : undefined),
    extraKeys: [CONTEXT_ENGINE_COMPAT_MARKER],
  };
}
