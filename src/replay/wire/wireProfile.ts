/**
 * How an OpenClaw release shapes the chat request after the context engine (what the model receives, beyond
 * what `assemble` returned). Observed on the wire by the differential runner (test/differential) against
 * openclaw@2026.7.35 and openclaw@2026.9.6, and read in 9.6's dist (`normalizeMessagesForLlmBoundary`,
 * `buildTimestampPrefix`, `buildRuntimeLine`, the internal runtime context):
 * - from 2026.6.5 every user message is stamped with `[Ddd YYYY-MM-DD HH:MM TZ] ` from the message's own
 *   timestamp (storage stays bare), unless its text already starts with such an envelope, carries a cron
 *   message's `Current time: ` marker, is an `[Inter-session message]` or is empty (2026.5.2 sends the stored text
 *   unstamped: seen on the wire by the differential runner);
 * - 2026.8+ moves the system prompt's relocatable `Runtime: …` line to the end of the request's first user message,
 *   and appends one user message of internal runtime context (`<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>`) that is
 *   never stored.
 */

export interface WireProfile {
  /** the release as given */
  version: string;
  timestampPrefix: boolean;
  runtimeSuffix: boolean;
  internalContext: boolean;
}

const VERSION = /^(\d{4})\.(\d{1,2})\.(\d+)/;

export function wireProfileFor(version: string): WireProfile {
  const match = VERSION.exec(version.trim());
  const [year, month, patch] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [2026, 7, 0];
  const current = year > 2026 || month >= 8;
  // the stamps at the LLM boundary came with 2026.6.5 (`stampUserTextWithMessageTimestamp`, selection-*.js; not in
  // 6.1): before, a stamp was put into the stored text where one was put at all, and the wire sent it as stored
  const stamps = year > 2026 || month > 6 || (month === 6 && patch >= 5);
  return { version: version.trim(), timestampPrefix: stamps, runtimeSuffix: current, internalContext: current };
}
