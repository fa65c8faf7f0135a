/**
 * How an OpenClaw release shapes the chat request after the context engine (what the model receives, beyond
 * what `assemble` returned). Observed on the wire by the differential runner (test/differential) against
 * openclaw@2026.7.35 and openclaw@2026.9.6, and read in 9.6's dist (`normalizeMessagesForLlmBoundary`,
 * `buildTimestampPrefix`, `buildRuntimeLine`, the internal runtime context):
 * - both stamp every user message with `[Ddd YYYY-MM-DD HH:MM TZ] ` from the message's own timestamp (storage
 *   stays bare);
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
  const [year, month] = match ? [Number(match[1]), Number(match[2])] : [2026, 7];
  const current = year > 2026 || month >= 8;
  return { version: version.trim(), timestampPrefix: true, runtimeSuffix: current, internalContext: current };
}
