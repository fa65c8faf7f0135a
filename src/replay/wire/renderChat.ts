/**
 * A WireView rendered as the OpenAI-compatible chat messages OpenClaw's `openai-completions` transport sends
 * (without the system message and tools, which the replay does not know): user text as a string, assistant text
 * joined with tool calls as `tool_calls`, tool results as `role: "tool"` with their `tool_call_id`.
 */
import type { WireMessage, WireView } from '../../contract/recording';

export interface ChatMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string | { type: 'text'; text: string }[] | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

type Block = { type?: unknown; text?: unknown; id?: unknown; name?: unknown; arguments?: unknown };

function blocksOf(message: unknown): Block[] {
  const content = (message as { content?: unknown } | undefined)?.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}

function textOf(blocks: Block[]): string {
  return blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => String(b.text))
    .join('');
}

function summaryText(message: unknown): string | null {
  const m = message as { role?: unknown; summary?: unknown } | undefined;
  if ((m?.role === 'compactionSummary' || m?.role === 'branchSummary') && typeof m.summary === 'string') {
    return m.summary;
  }
  return null;
}

function renderOne(wire: WireMessage, message: unknown): ChatMessage {
  const wrap = (text: string) => `${wire.prefix ?? ''}${text}${wire.suffix ?? ''}`;
  if (wire.key === null) return { role: wire.role, content: [{ type: 'text', text: wire.text ?? '' }] };
  const blocks = blocksOf(message);
  if (wire.role === 'tool') {
    const id = (message as { toolCallId?: unknown } | undefined)?.toolCallId;
    return { role: 'tool', content: textOf(blocks), tool_call_id: typeof id === 'string' ? id : '' };
  }
  if (wire.role === 'assistant') {
    const calls = blocks
      .filter((b) => b.type === 'toolCall')
      .map((b) => ({
        id: String(b.id),
        type: 'function' as const,
        function: { name: String(b.name), arguments: JSON.stringify(b.arguments ?? {}) },
      }));
    const text = textOf(blocks);
    return {
      role: 'assistant',
      content: text === '' && calls.length ? null : text,
      ...(calls.length ? { tool_calls: calls } : {}),
    };
  }
  return { role: 'user', content: wrap(summaryText(message) ?? textOf(blocks)) };
}

/** `lookup(key)` gives the recorded message a wire entry refers to. */
export function renderChatMessages(view: WireView, lookup: (key: string) => unknown): ChatMessage[] {
  return view.messages.map((wire) => renderOne(wire, wire.key === null ? undefined : lookup(wire.key)));
}
