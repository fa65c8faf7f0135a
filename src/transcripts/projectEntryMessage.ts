/**
 * Turning persisted entries into the AgentMessages the harness replays (OpenClaw `harness/messages.ts`
 * `create*Message` and `session.ts` `projectSessionEntryMessage`). Timestamps become epoch milliseconds.
 */
import type {
  AgentMessage,
  AssistantMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
  ImageContent,
  SessionEntry,
  TextContent,
} from '../contract';
import { sessionTimestampMsOrZero } from './timestamps';

export function createCompactionSummaryMessage(
  summary: string,
  tokensBefore: number,
  timestamp: string,
): CompactionSummaryMessage {
  return { role: 'compactionSummary', summary, tokensBefore, timestamp: sessionTimestampMsOrZero(timestamp) };
}

export function createBranchSummaryMessage(summary: string, fromId: string, timestamp: string): BranchSummaryMessage {
  return { role: 'branchSummary', summary, fromId, timestamp: sessionTimestampMsOrZero(timestamp) };
}

export function createCustomMessage(
  customType: string,
  content: string | (TextContent | ImageContent)[],
  display: boolean,
  details: unknown,
  timestamp: string,
): CustomMessage {
  return { role: 'custom', customType, content, display, details, timestamp: sessionTimestampMsOrZero(timestamp) };
}

/** The message an entry contributes to context, or undefined (non-message entries, `excludeFromContext`). */
export function projectSessionEntryMessage(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case 'message':
      return (entry.message as { excludeFromContext?: unknown }).excludeFromContext === true
        ? undefined
        : entry.message;
    case 'custom_message':
      return createCustomMessage(entry.customType, entry.content, entry.display, entry.details, entry.timestamp);
    case 'branch_summary':
      return createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp);
    case 'compaction':
      return createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp);
    default:
      return undefined;
  }
}

const SERVER_COMPACTION_REPLAY_TYPES = new Set([
  'anthropic-compaction',
  'openai-responses-compaction',
  'openai-responses-retained-compaction',
]);

/**
 * Assistant messages kept from before a boundary lose a provider-side compaction checkpoint
 * (`providerReplay` of a server-compaction type): it is bound to a prefix that no longer exists.
 */
export function stripCompactionReplayCheckpoint(message: AssistantMessage): AssistantMessage {
  const replay = message.providerReplay as { type?: unknown } | undefined;
  if (!replay || typeof replay !== 'object' || !SERVER_COMPACTION_REPLAY_TYPES.has(replay.type as string)) {
    return message;
  }
  const copy = { ...message };
  delete copy.providerReplay;
  return copy;
}
