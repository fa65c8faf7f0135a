/**
 * E2 compat proxy for engines with strict param validators (behaviour §4.5). Host-added keys an engine rejects are
 * detected from the thrown error, remembered for this wrapped instance across all methods, and the call is
 * retried without them. When nothing new is learned the original error propagates (and the quarantine proxy
 * outside decides what happens next).
 */
import { compatLayer } from './compatLayer';
import { createMethodWrappingProxy } from './forwardingProxy';
import type { ContextEngine } from '../contract';

/** Host-added keys each method may drop on a strict-validator rejection. */
export const STRICT_VALIDATOR_DROPPABLE_KEYS = {
  bootstrap: ['sessionKey', 'runtimeSettings', 'sessionTarget', 'runtimeContext'],
  maintain: ['sessionKey', 'runtimeSettings', 'sessionTarget', 'runtimeContext'],
  afterTurn: ['sessionKey', 'runtimeSettings', 'sessionTarget', 'runtimeContext'],
  compact: ['sessionKey', 'runtimeSettings', 'sessionTarget', 'runtimeContext'],
  ingest: ['sessionKey'],
  ingestBatch: ['sessionKey'],
  assemble: ['sessionKey', 'prompt', 'runtimeSettings'],
} as const satisfies Record<string, readonly string[]>;

/** Methods the strict-validator retry applies to. */
export type StrictValidatorMethod = keyof typeof STRICT_VALIDATOR_DROPPABLE_KEYS;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The seven case-insensitive message patterns that name `key` as rejected. */
export function rejectedKeyMessagePatterns(key: string): RegExp[] {
  const k = escapeRegExp(key);
  const quoted = `['"\`]${k}['"\`]`;
  const nouns = '(?:property|properties|field|fields|key|keys)';
  return [
    new RegExp(`\\bunrecognized key(?:\\(s\\)|s)? in object:.*${quoted}`, 'i'),
    new RegExp(`\\badditional propert(?:y|ies)\\b.*${quoted}`, 'i'),
    new RegExp(`\\bmust not have additional propert(?:y|ies)\\b.*${quoted}`, 'i'),
    new RegExp(`\\b(?:unexpected|extraneous)\\s+${nouns}\\b.*${quoted}`, 'i'),
    new RegExp(`\\b(?:unknown|invalid)\\s+${nouns}\\b.*${quoted}`, 'i'),
    new RegExp(`${quoted}.*\\b(?:was|is)\\s+not allowed\\b`, 'i'),
    new RegExp(`"code"\\s*:\\s*"unrecognized_keys"[\\s\\S]*"${k}"`, 'i'),
  ];
}

/**
 * The subset of `candidates` that `error` rejects: walks the error, its `cause` chain, arrays and `issues` /
 * `errors` arrays, matching zod-style `unrecognized_keys` issues and the seven message patterns.
 */
export function detectRejectedKeys(error: unknown, candidates: readonly string[]): Set<string> {
  const found = new Set<string>();
  const patterns = new Map(candidates.map((key) => [key, rejectedKeyMessagePatterns(key)] as const));
  const seen = new Set<unknown>();
  const stack: unknown[] = [error];

  const checkMessage = (message: string) => {
    for (const [key, keyPatterns] of patterns) {
      if (!found.has(key) && keyPatterns.some((pattern) => pattern.test(message))) found.add(key);
    }
  };

  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || value === undefined || seen.has(value)) continue;
    if (typeof value === 'string') {
      checkMessage(value);
      continue;
    }
    if (typeof value !== 'object') continue;
    seen.add(value);
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    const record = value as Record<string, unknown>;
    if (record.code === 'unrecognized_keys' && Array.isArray(record.keys)) {
      for (const key of record.keys) if (typeof key === 'string' && patterns.has(key)) found.add(key);
    }
    if (typeof record.message === 'string') checkMessage(record.message);
    stack.push(record.cause, record.issues, record.errors);
  }
  return found;
}

function omitKeys(params: Record<string, unknown>, keys: Iterable<string>): Record<string, unknown> {
  const copy = { ...params };
  for (const key of keys) delete copy[key];
  return copy;
}

/** Wrap `engine` with the E2 strict-validator retry; rejected keys are remembered by the returned wrapper. */
export function wrapContextEngineWithStrictValidatorRetry(engine: ContextEngine): ContextEngine {
  const rejected = new Set<string>();

  const makeRetrying = (method: StrictValidatorMethod, original: (params: unknown) => Promise<unknown>) => {
    const droppable: readonly string[] = STRICT_VALIDATOR_DROPPABLE_KEYS[method];
    return async (params: unknown): Promise<unknown> => {
      if (params === null || typeof params !== 'object' || !droppable.some((key) => Object.hasOwn(params, key))) {
        return original.call(engine, params);
      }
      const source = params as Record<string, unknown>;
      // Only keys this call actually carries can be blamed for a rejection.
      const present = droppable.filter((key) => Object.hasOwn(source, key));
      const omitted = () => present.filter((key) => rejected.has(key));
      for (;;) {
        try {
          return await original.call(engine, omitKeys(source, omitted()));
        } catch (error) {
          const learned = [...detectRejectedKeys(error, present)].filter((key) => !rejected.has(key));
          if (learned.length === 0) throw error;
          for (const key of learned) rejected.add(key);
        }
      }
    };
  };

  return createMethodWrappingProxy(
    engine,
    compatLayer((name, method) =>
      Object.hasOwn(STRICT_VALIDATOR_DROPPABLE_KEYS, name)
        ? makeRetrying(name as StrictValidatorMethod, method as (params: unknown) => Promise<unknown>)
        : undefined,
    ),
  );
}
