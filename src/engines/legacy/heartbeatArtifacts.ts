/**
 * Heartbeat transcript artifacts (OpenClaw `filterHeartbeatTranscriptArtifacts`, spec §3.2 step 3).
 *
 * A heartbeat span starts at a heartbeat user message — the persisted placeholder `[OpenClaw heartbeat poll]`,
 * the configured heartbeat prompt (or OpenClaw's default one) exactly or followed by a newline, or a periodic-task
 * prompt that asks for `HEARTBEAT_OK` — and runs until the next real user message. The span is removed when the
 * assistant only acknowledged: a text-only reply that is `HEARTBEAT_OK` plus at most `ackMaxChars` (default 300)
 * other characters, or a `heartbeat_respond` tool call, together with the tool calls/results around them. A span
 * in which the assistant said something else (and never acked) is kept whole, and so is a span that reaches a
 * message of another kind (custom, bash, summaries). A heartbeat prompt with no reply at all is removed.
 */
import type { AgentMessage } from '../../contract';
import type { HistoryItem, RemovalLog } from './historyItems';

export const HEARTBEAT_TOKEN = 'HEARTBEAT_OK';
export const HEARTBEAT_TRANSCRIPT_PROMPT = '[OpenClaw heartbeat poll]';
export const DEFAULT_HEARTBEAT_PROMPT =
  'Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. Do not infer or repeat old tasks from prior chats. If nothing needs attention, reply HEARTBEAT_OK.';
export const DEFAULT_HEARTBEAT_ACK_MAX_CHARS = 300;
export const HEARTBEAT_RESPONSE_TOOL_NAME = 'heartbeat_respond';
const TASK_PROMPT_PREFIX = 'Run the following periodic tasks (only those due based on their intervals):';
const TASK_PROMPT_ACK = 'After completing all due tasks, reply HEARTBEAT_OK.';

export interface HeartbeatFilterOptions {
  /** the configured heartbeat prompt (default: OpenClaw's default prompt) */
  prompt?: string;
  /** the longest reply besides the token that still counts as a bare ack (default 300) */
  ackMaxChars?: number;
}

function textOnly(content: unknown): { text: string; hasNonText: boolean } {
  if (typeof content === 'string') return { text: content, hasNonText: false };
  if (!Array.isArray(content)) return { text: '', hasNonText: content != null };
  let text = '';
  let hasNonText = false;
  for (const block of content) {
    if (block && typeof block === 'object' && block.type === 'text' && typeof block.text === 'string')
      text += block.text;
    else hasNonText = true;
  }
  return { text, hasNonText };
}

function matchesPrompt(text: string, prompt: string | undefined): boolean {
  const p = prompt?.trim();
  return Boolean(p) && (text === p || text.startsWith(`${p}\n`));
}

export function isHeartbeatUserMessage(message: AgentMessage, prompt?: string): boolean {
  if (message.role !== 'user') return false;
  const text = textOnly(message.content).text.trim();
  if (!text) return false;
  if (text === HEARTBEAT_TRANSCRIPT_PROMPT) return true;
  if (matchesPrompt(text, prompt ?? DEFAULT_HEARTBEAT_PROMPT)) return true;
  return text.startsWith(TASK_PROMPT_PREFIX) && text.includes(TASK_PROMPT_ACK);
}

const EDGE_MARKUP_RE = /^[\s*_`~>]+|[\s*_`~]+$/g;

/** Removes `HEARTBEAT_OK` (optionally wrapped in markdown emphasis/code) from both ends of `raw`. */
export function stripHeartbeatToken(raw: string): { text: string; didStrip: boolean } {
  let text = raw.trim();
  let didStrip = false;
  for (;;) {
    const bare = text.replace(EDGE_MARKUP_RE, '');
    if (bare.startsWith(HEARTBEAT_TOKEN)) {
      text = bare.slice(HEARTBEAT_TOKEN.length).replace(/^[\s*_`~.,:;!-]+/, '');
      didStrip = true;
    } else if (bare.endsWith(HEARTBEAT_TOKEN)) {
      text = bare.slice(0, -HEARTBEAT_TOKEN.length).replace(/[\s*_`~,:;-]+$/, '');
      didStrip = true;
    } else {
      return { text: text.trim(), didStrip };
    }
  }
}

export function isHeartbeatAck(message: AgentMessage, ackMaxChars = DEFAULT_HEARTBEAT_ACK_MAX_CHARS): boolean {
  if (message.role !== 'assistant') return false;
  const { text, hasNonText } = textOnly(message.content);
  if (hasNonText) return false;
  const stripped = stripHeartbeatToken(text);
  return stripped.didStrip && stripped.text.length <= ackMaxChars;
}

function hasToolCall(message: AgentMessage, name?: string): boolean {
  return (
    message.role === 'assistant' &&
    Array.isArray(message.content) &&
    message.content.some((b) => b.type === 'toolCall' && (name === undefined || b.name === name))
  );
}

function skipToolResults(items: readonly HistoryItem[], index: number): number {
  while (index < items.length && items[index]!.message.role === 'toolResult') index++;
  return index;
}

/** One past the end of the removable heartbeat span starting at `start`, or undefined to keep it. */
function heartbeatSpanEnd(
  items: readonly HistoryItem[],
  start: number,
  options: HeartbeatFilterOptions,
): number | undefined {
  let index = start + 1;
  let sawAck = false;
  let sawOtherAssistantOutput = false;
  while (index < items.length) {
    const message = items[index]!.message;
    if (message.role === 'user') {
      if (!isHeartbeatUserMessage(message, options.prompt)) break;
      index++;
    } else if (isHeartbeatAck(message, options.ackMaxChars) || hasToolCall(message, HEARTBEAT_RESPONSE_TOOL_NAME)) {
      sawAck = true;
      index = skipToolResults(items, index + 1);
    } else if (sawAck || message.role === 'toolResult' || hasToolCall(message)) {
      index++;
    } else if (message.role === 'assistant') {
      sawOtherAssistantOutput = true;
      index++;
    } else {
      return undefined;
    }
  }
  return sawOtherAssistantOutput && !sawAck ? undefined : index;
}

export function filterHeartbeatArtifacts(
  items: readonly HistoryItem[],
  options: HeartbeatFilterOptions,
  log: RemovalLog,
): HistoryItem[] {
  const out: HistoryItem[] = [];
  let i = 0;
  while (i < items.length) {
    const item = items[i]!;
    const end = isHeartbeatUserMessage(item.message, options.prompt) ? heartbeatSpanEnd(items, i, options) : undefined;
    if (end === undefined) {
      out.push(item);
      i++;
      continue;
    }
    for (let k = i; k < end; k++) log.add(items[k]!, 'heartbeat-artifact');
    i = end;
  }
  return out;
}
