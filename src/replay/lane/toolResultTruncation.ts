/**
 * Oversized tool results and the precheck's truncate routes (behaviour §7.3). OpenClaw caps one tool result at 30 %
 * of the context window (in chars, 4 per token), never above 400,000 chars; what lies beyond that cap in the
 * assembled context is "reducible". The truncate routes cut those results down in the session transcript.
 */
import type { AgentMessage, TextContent, ToolResultMessage } from '../../contract';

export const MAX_TOOL_RESULT_CONTEXT_SHARE = 0.3;
export const HARD_MAX_TOOL_RESULT_CHARS = 400_000;
/** a truncated result always keeps at least this much of its text */
export const MIN_KEPT_TOOL_RESULT_CHARS = 2_000;
const CHARS_PER_TOKEN = 4;

export function maxToolResultChars(contextWindow: number): number {
  const share = Math.floor(contextWindow * MAX_TOOL_RESULT_CONTEXT_SHARE * CHARS_PER_TOKEN);
  return Math.max(MIN_KEPT_TOOL_RESULT_CHARS, Math.min(share, HARD_MAX_TOOL_RESULT_CHARS));
}

function textChars(message: ToolResultMessage): number {
  let chars = 0;
  for (const block of message.content ?? []) if (block.type === 'text') chars += block.text.length;
  return chars;
}

/** Characters of tool-result text above the per-result cap, summed over `messages`. */
export function reducibleToolResultChars(messages: readonly AgentMessage[], contextWindow: number): number {
  const cap = maxToolResultChars(contextWindow);
  let total = 0;
  for (const message of messages) {
    if (message.role === 'toolResult') total += Math.max(0, textChars(message) - cap);
  }
  return total;
}

/** The truncated copy of an oversized tool result (text blocks cut to the cap, head kept), or undefined. */
export function truncateToolResult(message: ToolResultMessage, contextWindow: number): ToolResultMessage | undefined {
  const cap = maxToolResultChars(contextWindow);
  const total = textChars(message);
  if (total <= cap) return undefined;
  let budget = cap;
  const content = message.content.map((block) => {
    if (block.type !== 'text') return block;
    const kept = block.text.slice(0, Math.max(0, budget));
    budget -= kept.length;
    return { ...block, text: kept } as TextContent;
  });
  const removed = total - cap;
  content.push({
    type: 'text',
    text: `\n\n[Tool result truncated: ${removed} characters removed to fit the context window]`,
  });
  return { ...message, content };
}
