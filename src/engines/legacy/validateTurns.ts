/**
 * Provider turn rules (OpenClaw `validateAnthropicTurns` / `validateGeminiTurns`, behaviour §3.2 step 2):
 * Anthropic merges consecutive user messages into one (content blocks concatenated), Gemini merges consecutive
 * assistant messages. `none` (the default; OpenAI-style APIs) leaves the turns as they are.
 */
import type { AssistantMessage, ImageContent, TextContent, UserMessage } from '../../contract';
import type { HistoryItem, RemovalLog } from './historyItems';

export type TurnValidation = 'none' | 'anthropic' | 'gemini';

function userBlocks(content: UserMessage['content']): (TextContent | ImageContent)[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

export function validateTurns(items: readonly HistoryItem[], mode: TurnValidation, log: RemovalLog): HistoryItem[] {
  if (mode === 'none') return [...items];
  const mergeRole = mode === 'anthropic' ? 'user' : 'assistant';
  const out: HistoryItem[] = [];
  for (const item of items) {
    const previous = out[out.length - 1];
    if (!previous || previous.message.role !== mergeRole || item.message.role !== mergeRole) {
      out.push(item);
      continue;
    }
    if (mergeRole === 'user') {
      const a = previous.message as UserMessage;
      const b = item.message as UserMessage;
      const merged: UserMessage = {
        ...b,
        content: [...userBlocks(a.content), ...userBlocks(b.content)],
        timestamp: b.timestamp ?? a.timestamp,
      };
      out[out.length - 1] = { message: merged, source: previous.source };
      log.add(item, 'merged-into-previous-user');
    } else {
      const a = previous.message as AssistantMessage;
      const b = item.message as AssistantMessage;
      const merged: AssistantMessage = {
        ...b,
        content: [...a.content, ...b.content],
        timestamp: b.timestamp ?? a.timestamp,
      };
      out[out.length - 1] = { message: merged, source: previous.source };
      log.add(item, 'merged-into-previous-assistant');
    }
  }
  return out;
}
