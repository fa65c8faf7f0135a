/**
 * The persisted compaction summary (harness `compact()`, behaviour §3.3 "The final summary string"):
 *
 *   [## Latest unresolved user request\n<JSON string>\n\n]
 *   <history summary>
 *   [\n\n---\n\n**Turn Context (split turn):**\n\n<prefix summary>]
 *   [\n\n<read-files>…</read-files>\n\n<modified-files>…</modified-files>]
 *
 * hard-capped at 16 000 chars: the history keeps at least half the budget, the split-turn context gets what
 * remains after the required parts, and a cut is marked with `\n\n[Compaction summary truncated to fit budget]`
 * while the file lists (the preserved suffix) stay intact.
 */
import { getCompactionContent } from '../../tokens';
import type { AgentMessage } from '../../contract';

export const MAX_COMPACTION_SUMMARY_CHARS = 16_000;
export const SUMMARY_TRUNCATED_MARKER = '\n\n[Compaction summary truncated to fit budget]';
export const TURN_CONTEXT_PREFIX = '\n\n---\n\n**Turn Context (split turn):**\n\n';
export const MAX_LATEST_USER_REQUEST_CHARS = 800;
export const LATEST_USER_REQUEST_TRUNCATED_MARKER = '\n[... latest user request truncated ...]\n';

/** `text.slice(0, maxChars)` that never ends on the high half of a surrogate pair. */
export function truncateUtf16Safe(text: string, maxChars: number): string {
  if (maxChars <= 0) return '';
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/** The last `count` chars of `text`, never starting on the low half of a surrogate pair. */
function tailUtf16Safe(text: string, count: number): string {
  if (count <= 0) return '';
  let start = Math.max(0, text.length - count);
  const code = text.charCodeAt(start);
  if (start > 0 && code >= 0xdc00 && code <= 0xdfff) start++;
  return text.slice(start);
}

/**
 * The text of the last user message with text, capped at 800 chars as head + marker + tail, or undefined.
 * Used when the run that triggered compaction still owes the user an answer.
 */
export function extractLatestUserRequest(messages: readonly AgentMessage[]): string | undefined {
  let source = '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'user') continue;
    source = getCompactionContent(message.content).text.trim();
    if (source) break;
  }
  if (!source) return undefined;
  if (source.length <= MAX_LATEST_USER_REQUEST_CHARS) return source;
  const budget = MAX_LATEST_USER_REQUEST_CHARS - LATEST_USER_REQUEST_TRUNCATED_MARKER.length;
  const head = Math.floor(budget / 2);
  return `${truncateUtf16Safe(source, head)}${LATEST_USER_REQUEST_TRUNCATED_MARKER}${tailUtf16Safe(source, budget - head)}`;
}

/** Caps `summary` at `maxChars`, marking the cut and keeping `preservedSuffix` when the summary ends with it. */
export function capCompactionSummary(
  summary: string,
  maxChars = MAX_COMPACTION_SUMMARY_CHARS,
  preservedSuffix = '',
): string {
  if (maxChars <= 0 || summary.length <= maxChars) return summary;
  const suffix = preservedSuffix && summary.endsWith(preservedSuffix) ? preservedSuffix : '';
  if (maxChars < SUMMARY_TRUNCATED_MARKER.length + suffix.length) return truncateUtf16Safe(summary, maxChars);
  const budget = maxChars - SUMMARY_TRUNCATED_MARKER.length - suffix.length;
  const prefix = suffix ? summary.slice(0, -suffix.length) : summary;
  return `${truncateUtf16Safe(prefix, budget)}${SUMMARY_TRUNCATED_MARKER}${suffix}`;
}

export interface CompactionSummaryParts {
  historySummary: string;
  /** the split-turn prefix summary, when the cut split a turn */
  turnPrefixSummary?: string;
  /** output of `formatFileOperations` ('' when there are no files) */
  fileOperations: string;
  latestUnresolvedUserRequest?: string;
}

export function composeCompactionSummary(parts: CompactionSummaryParts): string {
  const maxChars = MAX_COMPACTION_SUMMARY_CHARS;
  const requestBlock = parts.latestUnresolvedUserRequest
    ? `## Latest unresolved user request\n${JSON.stringify(parts.latestUnresolvedUserRequest)}\n\n`
    : '';
  const latestContext = parts.turnPrefixSummary !== undefined ? `${TURN_CONTEXT_PREFIX}${parts.turnPrefixSummary}` : '';
  const requiredChars = parts.fileOperations.length + requestBlock.length;
  const preservedHistoryChars = Math.min(parts.historySummary.length, Math.floor(maxChars / 2));
  const latestContextBudget = maxChars - requiredChars - SUMMARY_TRUNCATED_MARKER.length - preservedHistoryChars;
  const suffix = `${latestContextBudget > 0 ? capCompactionSummary(latestContext, latestContextBudget) : ''}${parts.fileOperations}`;
  return `${requestBlock}${capCompactionSummary(`${parts.historySummary}${suffix}`, maxChars - requestBlock.length, suffix)}`;
}
