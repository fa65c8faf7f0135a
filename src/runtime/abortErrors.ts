/**
 * Abort detection for guarded lifecycle calls (behaviour §4.1, §4.3). Aborts are the caller's decision, so they are
 * rethrown and never quarantine an engine. Only a call whose `abortSignal` is aborted can be an abort.
 */

/** Message of the AbortError thrown when a call arrives with an already-aborted signal that carries no reason. */
export const CONTEXT_ENGINE_ABORTED_MESSAGE = 'Context engine operation aborted.';

/** An Error named `AbortError` with the given message. */
export function createAbortError(message = CONTEXT_ENGINE_ABORTED_MESSAGE): Error {
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}

/** The `abortSignal` of a params object, when it carries one. */
export function readAbortSignal(params: unknown): AbortSignal | undefined {
  if (params === null || typeof params !== 'object') return undefined;
  const signal = (params as { abortSignal?: unknown }).abortSignal;
  if (signal && typeof signal === 'object' && 'aborted' in signal) return signal as AbortSignal;
  return undefined;
}

/** What to throw for an already-aborted signal: its Error reason, else an AbortError (string reason as message). */
export function abortErrorForSignal(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return createAbortError(typeof reason === 'string' && reason ? reason : CONTEXT_ENGINE_ABORTED_MESSAGE);
}

const ABORT_WORDS = /abort|cancelled|canceled/iu;

/**
 * True when, with the call's signal aborted, `error` is the signal's reason, an Error named `AbortError`, or an
 * Error / string mentioning abort / cancelled / canceled.
 */
export function isContextEngineAbortError(error: unknown, signal: AbortSignal | undefined): boolean {
  if (!signal?.aborted) return false;
  if (error === signal.reason) return true;
  if (error instanceof Error) return error.name === 'AbortError' || ABORT_WORDS.test(error.message);
  return typeof error === 'string' && ABORT_WORDS.test(error);
}
