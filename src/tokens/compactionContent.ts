/**
 * How OpenClaw's compaction projects message content to text (harness `compaction/utils.ts`, behaviour §3.3/§11.1).
 * The compaction estimator and the summary serializer share these projections, so token accounting and the
 * text sent to the summarizer agree.
 */
import type { AgentMessage } from '../contract';

export const IMAGE_OMISSION_NOTE = '[image data omitted from summary input]';
export const NON_TEXT_OMISSION_NOTE = '[non-text data omitted from summary input]';

type ContentLike = string | ReadonlyArray<{ type: string; text?: string; content?: unknown }>;

function blockText(block: { type: string; text?: string; content?: unknown }): string {
  const isToolResultBlock = block.type === 'toolResult' || block.type === 'tool_result';
  if ((block.type === 'text' || isToolResultBlock) && typeof block.text === 'string' && block.text) return block.text;
  return isToolResultBlock && typeof block.content === 'string' ? block.content : '';
}

/**
 * The text of a message's content (text blocks joined by "\n") plus the omission notes for blocks that carry
 * no text (each distinct note once, joined by "\n").
 */
export function getCompactionContent(content: ContentLike | undefined | null): { text: string; omissionText: string } {
  if (content == null) return { text: '', omissionText: '' };
  if (typeof content === 'string') return { text: content, omissionText: '' };
  const omissions = new Set<string>();
  const parts: string[] = [];
  for (const block of content) {
    const text = blockText(block);
    if (block.type !== 'text' && !text)
      omissions.add(block.type === 'image' ? IMAGE_OMISSION_NOTE : NON_TEXT_OMISSION_NOTE);
    if (text) parts.push(text);
  }
  return { text: parts.join('\n'), omissionText: [...omissions].join('\n') };
}

/** `JSON.stringify(value)`, `"undefined"` for values JSON cannot represent, `"[unserializable]"` on a throw. */
export function stringifyCompactionValue(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return '[unserializable]';
  }
}

function normalizeSenderField(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const normalized = value.replaceAll('\u0000', '').trim();
  return normalized || undefined;
}

/**
 * The ` sender={...}` label OpenClaw appends to a user line in a summary request, from the persisted
 * `__openclaw.senderId/senderName/senderUsername` metadata. Empty unless a sender id anchors it.
 */
export function formatPersistedSenderSuffix(message: AgentMessage): string {
  if (message.role !== 'user') return '';
  const meta = (message as { __openclaw?: unknown }).__openclaw;
  if (!meta || typeof meta !== 'object') return '';
  const record = meta as Record<string, unknown>;
  const id = normalizeSenderField(record.senderId);
  if (!id) return '';
  const sender = {
    id,
    name: normalizeSenderField(record.senderName),
    username: normalizeSenderField(record.senderUsername),
  };
  return ` sender=${JSON.stringify(sender)}`;
}
