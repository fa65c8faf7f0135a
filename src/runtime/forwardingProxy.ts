/**
 * A Proxy that forwards to an engine object without using it as the Proxy target. Engines may be frozen
 * (`Object.freeze({info, ...})`); a Proxy whose target is a frozen object must return the target's own values,
 * which would forbid wrapping methods or swapping `info`. An empty shell target has no such invariants. The compat
 * layers and the quarantine proxy are all `createMethodWrappingProxy`s.
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

/** Wrapper functions per property, rebuilt when the engine swaps the underlying function. */
export type MethodCache = Map<PropertyKey, { original: unknown; fn: unknown }>;

/** Return the cached wrapper of `original` for `property`, building it on first use. */
export function cachedMethod(
  cache: MethodCache,
  property: PropertyKey,
  original: unknown,
  build: () => unknown,
): unknown {
  const hit = cache.get(property);
  if (hit && hit.original === original) return hit.fn;
  const fn = build();
  cache.set(property, { original, fn });
  return fn;
}

export type EngineMethod = (...args: unknown[]) => unknown;

export interface MethodWrappingOptions {
  /** The wrapper for the engine's method `name` (built once per underlying function), or undefined to bind it. */
  wrap(name: string, method: EngineMethod): EngineMethod | undefined;
  /** Answers a property before the engine is read: `{ value }` for a property it handles, else undefined. */
  intercept?(property: PropertyKey): { value: unknown } | undefined;
  /** properties `in` reports although the engine lacks them */
  extraKeys?: readonly PropertyKey[];
}

/**
 * A forwarding proxy over `engine` whose methods are `wrap`ped or bound to the engine, and whose other properties
 * read through (with the raw engine as receiver, so getters and private fields keep working).
 */
export function createMethodWrappingProxy(engine: ContextEngine, options: MethodWrappingOptions): ContextEngine {
  const cache: MethodCache = new Map();
  const read = (property: PropertyKey): unknown => {
    const intercepted = options.intercept?.(property);
    if (intercepted) return intercepted.value;
    const value = Reflect.get(engine, property);
    if (typeof value !== 'function') return value;
    return cachedMethod(cache, property, value, () => {
      const method = value as EngineMethod;
      return (typeof property === 'string' ? options.wrap(property, method) : undefined) ?? method.bind(engine);
    });
  };
  return createForwardingProxy(engine, read, options.extraKeys);
}
