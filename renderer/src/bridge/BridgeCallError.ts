import type { BridgeError } from '../../../src/bridge';

/** A failed bridge call, as the UI sees it: the structured error from the runtime, as an Error. */
export class BridgeCallError extends Error {
  readonly code: string;
  readonly method: string;
  readonly path: string;
  constructor(error: BridgeError) {
    super(error.message);
    this.name = 'BridgeCallError';
    this.code = error.code;
    this.method = error.method;
    this.path = error.path;
  }
}
