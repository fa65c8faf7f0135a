/**
 * OpenClaw's compaction token estimator (harness `estimateTokens(message)`, behaviour §11.1): `ceil(chars / 4)` with
 * chars counted per role. It decides the compaction trigger's trailing estimate and the cut point.
 */
import type { AgentMessage } from '../contract';
import { CHARS_PER_TOKEN_ESTIMATE, estimateStringChars } from './estimateStringChars';
import { isRuntimeContextCarrier } from '../transcripts';
import { formatPersistedSenderSuffix, getCompactionContent, stringifyCompactionValue } from './compactionContent';

/** Tokens charged per image block by the compaction estimator (2000 tokens = 8000 chars). */
export const COMPACTION_IMAGE_TOKENS = 2000;
const IMAGE_CHARS = COMPACTION_IMAGE_TOKENS * CHARS_PER_TOKEN_ESTIMATE;
/** The serializer's `"\n\n[Tool result]: "` separator, charged once with any omission note. */
const OMISSION_SEPARATOR_CHARS = '\n\n[Tool result]: '.length;

function contentChars(content: unknown): number {
  const blocks = content as Parameters<typeof getCompactionContent>[0];
  const { text, omissionText } = getCompactionContent(blocks);
  const images = Array.isArray(blocks) ? blocks.filter((b) => b.type === 'image').length : 0;
  const omission = omissionText ? omissionText.length + OMISSION_SEPARATOR_CHARS : 0;
  return estimateStringChars(text) + images * IMAGE_CHARS + omission;
}

/** Weighted chars the compaction estimator counts for one message (before the `/4`). */
export function estimateMessageChars(message: AgentMessage): number {
  if ((message as { excludeFromContext?: unknown }).excludeFromContext === true) return 0;
  switch (message.role) {
    case 'assistant': {
      let chars = 0;
      for (const block of message.content ?? []) {
        if (block.type === 'text') chars += estimateStringChars(block.text ?? '');
        else if (block.type === 'thinking') chars += estimateStringChars(block.thinking ?? '');
        else if (block.type === 'toolCall')
          chars +=
            estimateStringChars(block.name ?? '') + estimateStringChars(stringifyCompactionValue(block.arguments));
      }
      return chars;
    }
    case 'user':
      return contentChars(message.content) + estimateStringChars(formatPersistedSenderSuffix(message));
    case 'custom':
    case 'toolResult':
      return contentChars(message.content);
    case 'bashExecution':
      return estimateStringChars(message.command ?? '') + estimateStringChars(message.output ?? '');
    case 'branchSummary':
    case 'compactionSummary':
      return estimateStringChars(message.summary ?? '');
    default:
      return 0;
  }
}

/** `ceil(estimateMessageChars(message) / 4)` — OpenClaw's compaction `estimateTokens(message)`. */
export function estimateMessageTokens(message: AgentMessage): number {
  return Math.ceil(estimateMessageChars(message) / CHARS_PER_TOKEN_ESTIMATE);
}

/**
 * OpenClaw's `estimateMessagesTokens(messages)`: the sum of per-message estimates after dropping runtime-context
 * carriers (tool-result `details` are stripped there too, but they never count towards the estimate anyway).
 */
export function estimateMessagesTokens(messages: readonly AgentMessage[]): number {
  let total = 0;
  for (const message of messages) {
    if (!isRuntimeContextCarrier(message)) total += estimateMessageTokens(message);
  }
  return total;
}
