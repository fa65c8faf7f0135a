/**
 * Log-line sanitising (OpenClaw passes every interpolated part of the quarantine line through `sanitizeForLog`):
 * terminal escape sequences are removed and control characters (including newlines) become spaces, so an
 * engine's error message cannot forge extra log lines or recolour the terminal.
 */

// Built from strings so the source file holds no raw control characters.
const ANSI_ESCAPE = new RegExp(
  '\\u001b(?:\\[[0-?]*[ -/]*[@-~]|\\][^\\u0007\\u001b]*(?:\\u0007|\\u001b\\\\)|[@-Z\\\\-_])',
  'g',
);
const CONTROL_CHARS = new RegExp('[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]', 'g');

/** Make an arbitrary value safe to interpolate into a single log line. */
export function sanitizeForLog(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return text.replace(ANSI_ESCAPE, '').replace(CONTROL_CHARS, ' ');
}
