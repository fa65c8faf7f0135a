/**
 * Recognising summaries in an assembled context, and what they say they cover.
 *
 * A message is a summary when any of these holds (first match wins for the covered set):
 * 1. its role is `compactionSummary` (covers everything before its `firstKeptEntryId`, when set) or `branchSummary`;
 * 2. it carries an explicit covered list: `details.coversEntryIds`, `details.summaryOf` or `coversEntryIds`
 *    (string arrays of entry ids) — the convention for plugin authors who want ContextScope to link summaries;
 * 3. `details.firstKeptEntryId` is a string (covers everything before that entry);
 * 4. its `customType` contains "summary";
 * 5. its text starts with OpenClaw's compaction/branch summary wrapper (a summary already passed through
 *    `convertToLlm`) or with a summary heading: `<summary`, `[summary`, `[compacted`, `# Summary` (any case).
 * Rules 4 and 5 do not apply to tool results: an engine that rewrote a tool result to a placeholder such as
 * `[compacted: 12 KB of build output]` kept the result (it is `modified`), it did not summarize the conversation.
 */
import type { AgentMessage } from '../../contract';
import { BRANCH_SUMMARY_PREFIX, COMPACTION_SUMMARY_PREFIX } from '../../transcripts';

export interface SummaryMarker {
  /** entry ids the summary says it covers, as the engine reported them */
  coversEntryIds?: string[];
  /** the summary covers every transcript message before this entry */
  coversBeforeEntryId?: string;
}

const SUMMARY_HEADING_RE = /^\s*(?:<summary\b|\[summary\b|\[compacted\b|#{1,6}\s*summary\b)/i;

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

function leadingText(message: AgentMessage): string {
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    for (const block of content) {
      if (block && typeof block === 'object' && (block as { type?: unknown }).type === 'text') {
        const text = (block as { text?: unknown }).text;
        return typeof text === 'string' ? text : '';
      }
    }
  }
  return '';
}

/** The summary marker of `message`, or null when it is not recognisably a summary. */
export function readSummaryMarker(message: AgentMessage): SummaryMarker | null {
  const record = message as unknown as Record<string, unknown>;
  const details =
    record.details && typeof record.details === 'object' ? (record.details as Record<string, unknown>) : {};

  if (message.role === 'compactionSummary') {
    const first = typeof message.firstKeptEntryId === 'string' ? message.firstKeptEntryId : undefined;
    return first ? { coversBeforeEntryId: first } : {};
  }
  if (message.role === 'branchSummary') return {};

  const explicit =
    stringArray(details.coversEntryIds) ?? stringArray(details.summaryOf) ?? stringArray(record.coversEntryIds);
  if (explicit) return { coversEntryIds: explicit };
  if (typeof details.firstKeptEntryId === 'string') return { coversBeforeEntryId: details.firstKeptEntryId };

  if (message.role === 'toolResult') return null;
  if (typeof record.customType === 'string' && /summary/i.test(record.customType)) return {};

  const text = leadingText(message);
  if (text.startsWith(COMPACTION_SUMMARY_PREFIX) || text.startsWith(BRANCH_SUMMARY_PREFIX)) return {};
  if (SUMMARY_HEADING_RE.test(text)) return {};
  return null;
}
