/** The sentence a failed bridge call shows: the runtime's structured message (BridgeCallError) or the error text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
