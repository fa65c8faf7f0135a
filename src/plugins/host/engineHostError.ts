/**
 * The errors the parent side throws when an engine-host call cannot complete. The message is exactly the
 * reason the runtime's quarantine proxy records (`timeout after 30000 ms`, `engine host exited with code 3`,
 * `engine host is not running (killed after timeout in assemble)`), so a quarantine reads like OpenClaw's.
 */
export type EngineHostErrorCode =
  | 'timeout'
  | 'exited'
  | 'out-of-memory'
  | 'oversized'
  | 'not-running'
  | 'start-failed'
  | 'protocol'
  | 'callback-unavailable';

export class EngineHostError extends Error {
  readonly code: EngineHostErrorCode;
  /** the operation that was in flight (`assemble`, `factory`, `register`, ...), when known */
  readonly operation?: string;
  constructor(code: EngineHostErrorCode, message: string, operation?: string) {
    super(message);
    this.name = 'EngineHostError';
    this.code = code;
    if (operation !== undefined) this.operation = operation;
  }
}

export function isEngineHostError(value: unknown): value is EngineHostError {
  return value instanceof EngineHostError;
}
