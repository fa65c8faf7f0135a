'use strict';
// chars/4 token estimate per message (the heuristic OpenClaw itself budgets with).

function contentChars(content) {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (!block || typeof block !== 'object') continue;
    if (block.type === 'text') chars += String(block.text ?? '').length;
    else if (block.type === 'thinking') chars += String(block.thinking ?? '').length;
    else if (block.type === 'image') chars += 8000;
    else if (block.type === 'toolCall')
      chars += String(block.name ?? '').length + JSON.stringify(block.arguments ?? {}).length;
  }
  return chars;
}

function estimateMessageTokens(message) {
  if (!message || typeof message !== 'object' || message.excludeFromContext === true) return 0;
  let chars;
  if (message.role === 'bashExecution')
    chars = String(message.command ?? '').length + String(message.output ?? '').length;
  else if (message.role === 'compactionSummary' || message.role === 'branchSummary')
    chars = String(message.summary ?? '').length;
  else chars = contentChars(message.content);
  return Math.ceil(chars / 4);
}

function estimateMessagesTokens(messages) {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

module.exports = { estimateMessageTokens, estimateMessagesTokens };
