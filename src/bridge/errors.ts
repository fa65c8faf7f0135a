import { Type, type Static } from '@sinclair/typebox';

export const BRIDGE_ERROR_CODES = [
  /** The message was not valid JSON. */
  'invalid_json',
  /** The message was JSON but not a request envelope `{ id, method, params? }`. */
  'invalid_message',
  /** The message (or the params) exceeded the size cap. */
  'payload_too_large',
  /** No method by that name exists in the contract. */
  'unknown_method',
  /** The params did not satisfy the method's request schema. */
  'invalid_params',
  /** The method exists in the contract but the running shell has no handler for it. */
  'not_implemented',
  /** The handler threw. */
  'handler_failed',
  /** The handler returned something its response schema rejects (a bug in the handler). */
  'invalid_response',
  /** The caller is not allowed to use the bridge (wrong frame origin). */
  'forbidden',
  /** The connection to the runtime is gone. */
  'disconnected',
] as const;

export type BridgeErrorCode = (typeof BRIDGE_ERROR_CODES)[number];

export const BridgeErrorSchema = Type.Object(
  {
    code: Type.String(),
    /** The method the request named ('' when it named none). */
    method: Type.String(),
    /** JSON pointer into params (or into the result) where the problem is; '' when it is not about one field. */
    path: Type.String(),
    message: Type.String(),
  },
  { additionalProperties: false },
);

/** Code is open-ended (`string`) so handlers can report domain codes such as `not_found`. */
export type BridgeError = Static<typeof BridgeErrorSchema> & { code: BridgeErrorCode | (string & {}) };

/**
 * Throw this from a handler to answer with a specific code and path instead of the generic `handler_failed`.
 * The message reaches a person: say what happened, where, and what to do.
 */
export class BridgeMethodError extends Error {
  readonly code: string;
  readonly path: string;
  constructor(code: string, message: string, path = '') {
    super(message);
    this.name = 'BridgeMethodError';
    this.code = code;
    this.path = path;
  }
}

/** Longest method name, path and message an error echoes back (a 9.9 MB replayId must not return a 9.9 MB error). */
export const BRIDGE_ERROR_LIMITS = { method: 200, path: 500, message: 2000 } as const;

/** `text` cut to `max` characters with how long it was, so an echoed value stays recognisable but bounded. */
export function capEchoedText(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `… (${text.length} characters)`;
  return text.slice(0, Math.max(0, max - note.length)) + note;
}

export function bridgeError(
  code: BridgeErrorCode | (string & {}),
  method: string,
  path: string,
  message: string,
): BridgeError {
  return {
    code: capEchoedText(code, BRIDGE_ERROR_LIMITS.method),
    method: capEchoedText(method, BRIDGE_ERROR_LIMITS.method),
    path: capEchoedText(path, BRIDGE_ERROR_LIMITS.path),
    message: capEchoedText(message, BRIDGE_ERROR_LIMITS.message),
  };
}
