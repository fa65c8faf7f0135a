/** The outcome of a call that may throw or reject, as a value (the doctor records failures, it never rethrows them). */
export async function settle<T>(
  promise: Promise<T> | T,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}
