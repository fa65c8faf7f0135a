/**
 * The conversation as plain text for a summary request (OpenClaw harness `serializeConversation` applied to
 * `convertToLlm(messages)`): `[User]: …`, `[Assistant]: …`, `[Assistant tool calls]: name(k=v, …)`,
 * `[Tool result]: …`, entries separated by a blank line. Runtime-context carriers, thinking blocks and tool-result
 * `details` never reach the summary; tool-result text is cut at 2000 chars.
 */
import type { AgentMessage } from '../contract';
import { formatPersistedSenderSuffix, getCompactionContent, stringifyCompactionValue } from '../tokens';
import { convertToLlm } from '../transcripts';

/** Tool-result text longer than this is cut, with a marker saying how much was dropped. */
export const TOOL_RESULT_MAX_CHARS = 2000;
/** Omission notes are written for at most this many messages; later ones share one overflow line. */
const MAX_OMISSION_MESSAGES = 8;
const OMISSION_OVERFLOW = '[More image/non-text data omitted from summary input]';

function truncateToolResult(text: string): string {
  if (text.length <= TOOL_RESULT_MAX_CHARS) return text;
  let cut = TOOL_RESULT_MAX_CHARS;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--; // never split a surrogate pair
  return `${text.slice(0, cut)}\n\n[... ${text.length - cut} more characters truncated]`;
}

/** One conversation entry per visible part of each message, in order. */
export function serializeConversationEntries(messages: readonly AgentMessage[]): string[] {
  const parts: string[] = [];
  let omissionMessages = 0;
  for (const message of convertToLlm(messages)) {
    if (message.role === 'user' || message.role === 'toolResult') {
      if (message.runtimeContextCarrier === true) continue;
      const { text, omissionText } = getCompactionContent(message.content);
      if (omissionText && omissionMessages++ === MAX_OMISSION_MESSAGES) parts.push(OMISSION_OVERFLOW);
      const isToolResult = message.role === 'toolResult';
      const body = [
        omissionMessages <= MAX_OMISSION_MESSAGES ? omissionText : '',
        isToolResult ? truncateToolResult(text) : text,
      ]
        .filter(Boolean)
        .join('\n');
      if (body)
        parts.push(`[${isToolResult ? 'Tool result' : `User${formatPersistedSenderSuffix(message)}`}]: ${body}`);
    } else if (message.role === 'assistant') {
      const texts: string[] = [];
      const calls: string[] = [];
      for (const block of message.content ?? []) {
        if (block.type === 'text') texts.push(block.text);
        else if (block.type === 'toolCall') {
          const args = Object.entries(block.arguments ?? {})
            .map(([key, value]) => `${key}=${stringifyCompactionValue(value)}`)
            .join(', ');
          calls.push(`${block.name}(${args})`);
        }
      }
      if (texts.length > 0) parts.push(`[Assistant]: ${texts.join('\n')}`);
      if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join('; ')}`);
    }
  }
  return parts;
}

export function serializeConversation(messages: readonly AgentMessage[]): string {
  return serializeConversationEntries(messages).join('\n\n');
}
