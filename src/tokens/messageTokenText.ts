/**
 * The LLM-visible text of a message, as the tokenizer counts it: text + thinking + each tool call's name and
 * JSON arguments + tool-result text, with summaries and bash runs rendered the way `convertToLlm` sends them
 * (parts joined by "\n"). Images carry no text; they are counted separately as a fixed number of tokens each.
 */
import type { AgentMessage } from '../contract';
import {
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  bashExecutionToText,
} from '../transcripts';

/**
 * Tokens counted per image by the tokenizer counter. Real image cost depends on the provider and the image size,
 * which transcripts do not record; 2000 is OpenClaw's own per-image charge (`IMAGE_BLOCK_TOKENS`), so the exact
 * and the estimated columns agree on images.
 */
export const TOKENIZER_IMAGE_TOKENS = 2000;

export interface MessageTokenText {
  /** the canonical text that gets tokenized */
  text: string;
  /** image blocks, counted as `images × TOKENIZER_IMAGE_TOKENS` */
  images: number;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

function contentParts(content: unknown, parts: string[]): number {
  if (typeof content === 'string') {
    parts.push(content);
    return 0;
  }
  if (!Array.isArray(content)) return 0;
  let images = 0;
  for (const block of content) {
    if (!block || typeof block !== 'object') continue;
    const b = block as { type?: unknown; text?: unknown };
    if (b.type === 'image') images++;
    else if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
  }
  return images;
}

/** The text and image count a tokenizer sees for `message` (empty for `excludeFromContext` messages). */
export function messageTokenText(message: AgentMessage): MessageTokenText {
  if ((message as { excludeFromContext?: unknown }).excludeFromContext === true) return { text: '', images: 0 };
  const parts: string[] = [];
  let images = 0;
  switch (message.role) {
    case 'assistant':
      for (const block of message.content ?? []) {
        if (block.type === 'text') parts.push(block.text ?? '');
        else if (block.type === 'thinking') parts.push(block.thinking ?? '');
        else if (block.type === 'toolCall') parts.push(block.name ?? '', safeJson(block.arguments));
      }
      break;
    case 'user':
    case 'toolResult':
    case 'custom':
      images = contentParts(message.content, parts);
      break;
    case 'bashExecution':
      parts.push(bashExecutionToText(message));
      break;
    case 'compactionSummary':
      parts.push(COMPACTION_SUMMARY_PREFIX + (message.summary ?? '') + COMPACTION_SUMMARY_SUFFIX);
      break;
    case 'branchSummary':
      parts.push(BRANCH_SUMMARY_PREFIX + (message.summary ?? '') + BRANCH_SUMMARY_SUFFIX);
      break;
  }
  return { text: parts.join('\n'), images };
}
