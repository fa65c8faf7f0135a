/**
 * A Proxy that forwards to an engine object without using it as the Proxy target. Engines may be frozen
 * (`Object.freeze({info, ...})`); a Proxy whose target is a frozen object must return the target's own values,
 * which would forbid wrapping methods or swapping `info`. An empty shell target has no such invariants.
 */
import type { ContextEngine } from '../contract';

/** Create a proxy that reads every property through `read(property)` and forwards everything else to `engine`. */
export function createForwardingProxy(
  engine: ContextEngine,
  read: (property: PropertyKey) => unknown,
  extraKeys: readonly PropertyKey[] = [],
): ContextEngine {
  const extra = new Set(extraKeys);
  const shell = Object.create(Object.getPrototypeOf(engine) as object | null) as object;
  return new Proxy(shell, {
    get: (_shell, property) => read(property),
    has: (_shell, property) => extra.has(property) || Reflect.has(engine, property),
    set: (_shell, property, value) => Reflect.set(engine, property, value),
    deleteProperty: (_shell, property) => Reflect.deleteProperty(engine, property),
    ownKeys: () => Reflect.ownKeys(engine),
    getOwnPropertyDescriptor: (_shell, property) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(engine, property);
      if (!descriptor) return undefined;
      return { configurable: true, enumerable: descriptor.enumerable ?? false, writable: true, value: read(property) };
    },
  }) as ContextEngine;
}
