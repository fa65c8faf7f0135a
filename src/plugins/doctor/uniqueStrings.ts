/** The non-empty strings of `values`, each once, in first-seen order. */
export function uniqueStrings(values: (string | null)[]): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length > 0))];
}
