// chars/4 token estimate per message, counted per role like OpenClaw's compaction estimator, so the engine's
// budget arithmetic matches what the host will measure.

import type { AgentMessage, ContentBlock } from './types.ts';

const CHARS_PER_TOKEN = 4;
const IMAGE_CHARS = 8000;

function blockChars(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'thinking':
      return block.thinking.length;
    case 'image':
      return IMAGE_CHARS;
    case 'toolCall':
      return block.name.length + JSON.stringify(block.arguments ?? {}).length;
    default:
      return 0;
  }
}

function contentChars(content: AgentMessage['content']): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) if (block && typeof block === 'object') chars += blockChars(block);
  return chars;
}

export function estimateMessageTokens(message: AgentMessage): number {
  if (message.excludeFromContext === true) return 0;
  let chars: number;
  switch (message.role) {
    case 'user':
    case 'assistant':
    case 'toolResult':
    case 'custom':
      chars = contentChars(message.content);
      break;
    case 'bashExecution':
      chars = (message.command ?? '').length + (message.output ?? '').length;
      break;
    case 'compactionSummary':
    case 'branchSummary':
      chars = (message.summary ?? '').length;
      break;
    default:
      chars = JSON.stringify(message).length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
