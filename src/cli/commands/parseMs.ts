/** A `--flag <ms>` value: a positive whole number of milliseconds, else a `UsageError` naming the flag. */
export function parseMilliseconds(
  flag: string,
  text: string | undefined,
  UsageError: new (message: string) => Error,
): number | undefined {
  if (text === undefined) return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms <= 0) {
    throw new UsageError(`${flag} ${text}: give a positive whole number of milliseconds, e.g. ${flag} 120000`);
  }
  return ms;
}
