/**
 * A WireView rendered as the OpenAI-compatible chat messages OpenClaw's `openai-completions` transport sends
 * (without the system message and tools, which the replay does not know): user text as a string, assistant text
 * joined with tool calls as `tool_calls`, tool results as `role: "tool"` with their `tool_call_id`.
 */
import type { AgentMessage } from '../../contract';
import type { WireMessage, WireView } from '../../contract/recording';
import { convertToLlm } from '../../transcripts';

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

/** The message as the user message the model gets: stored user messages as they are, others through convertToLlm. */
function asUser(message: unknown): { content: unknown } | null {
  if ((message as { role?: unknown } | undefined)?.role === 'user') return message as { content: unknown };
  return (convertToLlm([message as AgentMessage])[0] as { content: unknown } | undefined) ?? null;
}

/**
 * User content keeps its shape: a string gets the stamp (and a recorded wrapper) and the runtime line around it; a block list gets the stamp
 * on its first text block and the runtime line as a block of its own (as 2026.9.6 sends a converted summary).
 */
function userContent(wire: WireMessage, message: unknown): ChatMessage['content'] {
  const content = asUser(message)?.content;
  const before = `${wire.prefix ?? ''}${wire.recordedPrefix ?? ''}`;
  if (typeof content === 'string') return `${before}${content}${wire.suffix ?? ''}`;
  const texts = blocksOf({ content })
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => ({ type: 'text' as const, text: String(b.text) }));
  if (before && texts[0]) texts[0] = { type: 'text', text: before + texts[0].text };
  if (wire.suffix) texts.push({ type: 'text', text: wire.suffix.replace(/^\n\n/, '') });
  return texts;
}

function renderOne(wire: WireMessage, message: unknown): ChatMessage {
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
  return { role: 'user', content: userContent(wire, message) };
}

/** `lookup(key)` gives the recorded message a wire entry refers to. */
export function renderChatMessages(view: WireView, lookup: (key: string) => unknown): ChatMessage[] {
  return view.messages.map((wire) => renderOne(wire, wire.key === null ? undefined : lookup(wire.key)));
}
