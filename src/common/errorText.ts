/** The message of a thrown value, whatever was thrown (`throw 'text'` and rejected non-Errors included). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The stack of a thrown Error (its message when it has none), or the thrown value as text. */
export function errorStack(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** A thrown value as an Error: itself when it is one, else an Error carrying its text. */
export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
