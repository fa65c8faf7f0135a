/**
 * Functions the engine host provides itself. An app function marked with one of these names crosses the boundary
 * as that name (a `provided` node), and the host calls its own copy instead of calling back into the app: one
 * round trip and two copies of the arguments fewer per call. Only functions whose result depends on their
 * arguments alone qualify, so both copies answer alike: the offline summarizer's `complete`, which a plugin's
 * `runtimeContext.llm.complete` is when the replay summarizes deterministically.
 */
import type { LlmCompleteParams } from '../../contract';
import { createDeterministicSummarizer } from '../../summarize/deterministicSummarizer';

const deterministic = createDeterministicSummarizer();

/** Named like the app's functions, as a plugin logging `llm.complete.name` would see in process. */
const IMPLEMENTATIONS: Record<'deterministic-summarizer.complete', (...args: unknown[]) => unknown> = {
  'deterministic-summarizer.complete': function complete(params) {
    return deterministic.complete(params as LlmCompleteParams);
  },
};

export type HostProvidedName = keyof typeof IMPLEMENTATIONS;

const marks = new WeakMap<object, HostProvidedName>();

/** `fn`, marked as the host's own `name` (the app still calls `fn` itself in-process). */
export function markHostProvided<F extends (...args: never[]) => unknown>(name: HostProvidedName, fn: F): F {
  marks.set(fn, name);
  return fn;
}

/** The name `fn` was marked with, if any. */
export function hostProvidedName(fn: object): HostProvidedName | undefined {
  return marks.get(fn);
}

/** The host's copy of the function named `name`, or undefined for a name it does not provide. */
export function hostProvidedFunction(name: string): ((...args: unknown[]) => unknown) | undefined {
  return Object.prototype.hasOwnProperty.call(IMPLEMENTATIONS, name)
    ? IMPLEMENTATIONS[name as HostProvidedName]
    : undefined;
}
