// Token estimate for AgentMessages: characters / 4, counted per role the way OpenClaw's compaction estimator
// does (no tokenizer; the host budgets with the same heuristic, so matching it keeps the window honest).

const CHARS_PER_TOKEN = 4;
// An image costs as much as 8000 characters of text in OpenClaw's estimator.
const IMAGE_CHARS = 8000;

function textLength(value) {
  return typeof value === 'string' ? value.length : 0;
}

/** Characters of a user/toolResult/custom content field: a string, or text and image blocks. */
function contentChars(content) {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (!block || typeof block !== 'object') continue;
    if (block.type === 'text') chars += textLength(block.text);
    else if (block.type === 'image') chars += IMAGE_CHARS;
  }
  return chars;
}

/** Characters of an assistant message: text, thinking, and each tool call's name plus JSON arguments. */
function assistantChars(content) {
  if (!Array.isArray(content)) return textLength(content);
  let chars = 0;
  for (const block of content) {
    if (!block || typeof block !== 'object') continue;
    if (block.type === 'text') chars += textLength(block.text);
    else if (block.type === 'thinking') chars += textLength(block.thinking);
    else if (block.type === 'toolCall') chars += textLength(block.name) + JSON.stringify(block.arguments ?? {}).length;
  }
  return chars;
}

/** Characters one message contributes to the prompt. Messages excluded from context cost nothing. */
export function estimateMessageChars(message) {
  if (!message || typeof message !== 'object' || message.excludeFromContext === true) return 0;
  switch (message.role) {
    case 'user':
    case 'toolResult':
    case 'custom':
      return contentChars(message.content);
    case 'assistant':
      return assistantChars(message.content);
    case 'bashExecution':
      return textLength(message.command) + textLength(message.output);
    case 'compactionSummary':
    case 'branchSummary':
      return textLength(message.summary);
    default:
      // Unknown roles are dropped by convertToLlm; count them anyway so the estimate never undershoots.
      return JSON.stringify(message).length;
  }
}

export function estimateMessageTokens(message) {
  return Math.ceil(estimateMessageChars(message) / CHARS_PER_TOKEN);
}

export function estimateTextTokens(text) {
  return typeof text === 'string' ? Math.ceil(text.length / CHARS_PER_TOKEN) : 0;
}
