/**
 * OpenClaw's compaction token estimator (harness `estimateTokens(message)`, behaviour §11.1): `ceil(chars / 4)` with
 * chars counted per role. It decides the compaction trigger's trailing estimate and the cut point. Two variants:
 * - weighted (2026.8+: 8.1 compaction-*.js, 9.6 compaction-*.mjs): CJK characters count 4, images 8,000 chars, the
 *   persisted sender label and the omission notes count, `excludeFromContext` messages count 0;
 * - plain (2026.3 – 2026.7: pi-coding-agent 0.64 – 0.71 `estimateTokens`, 6.11 and 7.35 proxy-*.js): UTF-16 length,
 *   images 4,800 chars, nothing else. On Chinese text the weighted count is about four times the plain one.
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

/** The 2026.3 – 2026.7 image charge (pi-coding-agent `estimateTokens`, 7.35 proxy-*.js `IMAGE_BLOCK_CHARS`). */
const PLAIN_IMAGE_CHARS = 4800;

function plainContentChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content as { type?: unknown; text?: unknown; content?: unknown }[]) {
    if (block?.type === 'image') chars += PLAIN_IMAGE_CHARS;
    else if (block?.type === 'text' && typeof block.text === 'string') chars += block.text.length;
    else if (block?.type === 'toolResult' || block?.type === 'tool_result') {
      if (typeof block.text === 'string' && block.text) chars += block.text.length;
      else if (typeof block.content === 'string') chars += block.content.length;
    }
  }
  return chars;
}

function length(value: unknown): number {
  return typeof value === 'string' ? value.length : 0;
}

/**
 * Chars the 2026.3 – 2026.7 estimator counts for one message (7.35 proxy-*.js `estimateTokens`; pi-coding-agent
 * 0.70 left a user message's images out and counted no `tool_result` blocks, rare enough to share this form).
 */
export function estimatePlainMessageChars(message: AgentMessage): number {
  switch (message.role) {
    case 'assistant': {
      let chars = 0;
      for (const block of message.content ?? []) {
        if (block.type === 'text') chars += length(block.text);
        else if (block.type === 'thinking') chars += length(block.thinking);
        else if (block.type === 'toolCall')
          chars += length(block.name) + stringifyCompactionValue(block.arguments).length;
      }
      return chars;
    }
    case 'user':
    case 'custom':
    case 'toolResult':
      return plainContentChars(message.content);
    case 'bashExecution':
      return length(message.command) + length(message.output);
    case 'branchSummary':
    case 'compactionSummary':
      return length(message.summary);
    default:
      return 0;
  }
}

/** Which of OpenClaw's two compaction estimators a release runs (see the top of this file). */
export type MessageEstimator = 'weighted' | 'plain';

/** `ceil(chars / 4)` by the given estimator. */
export function estimateMessageTokensBy(message: AgentMessage, estimator: MessageEstimator): number {
  const chars = estimator === 'plain' ? estimatePlainMessageChars(message) : estimateMessageChars(message);
  return Math.ceil(chars / CHARS_PER_TOKEN_ESTIMATE);
}

/** `ceil(estimateMessageChars(message) / 4)` — OpenClaw 2026.8+'s compaction `estimateTokens(message)`. */
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
