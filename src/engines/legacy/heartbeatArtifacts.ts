/**
 * Heartbeat transcript artifacts (OpenClaw `filterHeartbeatTranscriptArtifacts`, behaviour §3.2 step 3; read in
 * openclaw@2026.7.35 dist heartbeat-filter-*.js and openclaw@2026.9.6 dist heartbeat-filter-*.mjs).
 *
 * A heartbeat span starts at a heartbeat user message — the persisted placeholder `[OpenClaw heartbeat poll]`
 * (2026.9: any internal wake placeholder — exec completion, cron wake, session event), alone or after a message-tool
 * delivery hint; the configured heartbeat prompt (or the release's default one: 2026.9 changed it) or the
 * response-tool prompt, exactly or followed by a newline; or a
 * periodic-task prompt that asks for
 * `HEARTBEAT_OK` (2026.9 also `NO_REPLY` or `heartbeat_respond`) — and runs until the next user message, real or
 * heartbeat: each heartbeat is judged on its own. The span is removed when the assistant only acknowledged: a
 * text-only reply that is `HEARTBEAT_OK` plus at most `ackMaxChars` (default 300) other characters (2026.9: thinking
 * blocks do not count as content, and `NO_REPLY` acks too), or a silent `heartbeat_respond` call (notify not true),
 * together with the tool calls/results around them. A span in which the assistant said something else (and never
 * acked), one with a visible `heartbeat_respond` (notify: true), and one that reaches a message of another kind
 * (custom, bash, summaries) are kept whole. A heartbeat prompt with no reply at all is removed.
 *
 * Before that filter (OpenClaw 2026.4.7 – 2026.5.18, `filterHeartbeatPairs`; read in openclaw@2026.4.25 dist
 * heartbeat-filter-*.js and 2026.5.2 heartbeat-filter-*.js) only adjacent pairs go: a heartbeat user message whose
 * text starts with the heartbeat prompt (or is a periodic-task prompt asking for `HEARTBEAT_OK`; from 2026.4.26 also
 * the `[OpenClaw heartbeat poll]` placeholder) immediately followed by an assistant reply that is a bare ack (the same
 * ack test as 2026.7). A heartbeat that called a tool, or whose reply is not right after it, stays whole. Releases
 * before 2026.4.7 filter nothing (the caller turns the filter off).
 */
import type { AgentMessage } from '../../contract';
import type { HistoryItem, RemovalLog } from './historyItems';

export const HEARTBEAT_TOKEN = 'HEARTBEAT_OK';
export const HEARTBEAT_TRANSCRIPT_PROMPT = '[OpenClaw heartbeat poll]';
/** the context part of the default heartbeat prompt (heartbeat.ts `HEARTBEAT_CONTEXT_PROMPT`) up to 2026.7, and 2026.9's */
const CONTEXT_PROMPT =
  'Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. Do not infer or repeat old tasks from prior chats.';
const CONTEXT_PROMPT_2026_9 =
  'Follow the heartbeat monitor scratch context when provided. Recurring tasks are automations; create or change their schedules with the automations tool, not heartbeat scratch. Do not infer or repeat old tasks from prior chats.';
/** OpenClaw's default heartbeat prompt up to 2026.7 (`HEARTBEAT_PROMPT`) */
export const DEFAULT_HEARTBEAT_PROMPT = `${CONTEXT_PROMPT} If nothing needs attention, reply HEARTBEAT_OK.`;
/** 2026.9's: a monitor scratch context and `NO_REPLY` (found by the oracle: 9.6 keeps a heartbeat with the old one) */
export const DEFAULT_HEARTBEAT_PROMPT_2026_9 = `${CONTEXT_PROMPT_2026_9} If nothing needs attention, reply NO_REPLY.`;
export const DEFAULT_HEARTBEAT_ACK_MAX_CHARS = 300;
export const HEARTBEAT_RESPONSE_TOOL_NAME = 'heartbeat_respond';
const TASK_PROMPT_PREFIX = 'Run the following periodic tasks (only those due based on their intervals):';
const TASK_PROMPT_ACK = 'After completing all due tasks, reply HEARTBEAT_OK.';

/**
 * Which release line's filter: adjacent pairs (`pairs-2026.4`: 2026.4.7 – 2026.4.25; `pairs-2026.5`: 2026.4.26 –
 * 2026.5.18, with the poll placeholder), 2026.7 (5.19 – 7.35) or 2026.9 (9.6, the default).
 */
export type HeartbeatFilterVariant = 'pairs-2026.4' | 'pairs-2026.5' | '2026.7' | '2026.9';

const isPairs = (variant: HeartbeatFilterVariant | undefined): boolean =>
  variant === 'pairs-2026.4' || variant === 'pairs-2026.5';

export interface HeartbeatFilterOptions {
  /** the configured heartbeat prompt (default: OpenClaw's default prompt) */
  prompt?: string;
  /** the longest reply besides the token that still counts as a bare ack (default 300) */
  ackMaxChars?: number;
  /** default 2026.9 */
  variant?: HeartbeatFilterVariant;
}

const SILENT_REPLY_TOKEN = 'NO_REPLY';
const RESPONSE_TOOL_INSTRUCTIONS =
  "Use heartbeat_respond to report the wake outcome. Set notify=false when nothing needs the user's attention. Set notify=true with notificationText only when the user should be interrupted.";
const RESPONSE_TOOL_FALLBACK_2026_9 = `If the heartbeat_respond tool is not available in this run, reply ${SILENT_REPLY_TOKEN} when nothing needs the user's attention; when the user should be interrupted, reply with only the alert text instead of a prose report.`;
/** plugin-sdk message-tool-delivery-hints.ts: a heartbeat poll may follow one of these (same in 2026.7.35 and 9.6) */
const DELIVERY_HINTS = [
  'Delivery: to send a message, use the `message` tool.',
  'Delivery: Final assistant text is not automatically delivered in this run. Use the `message` tool to send user-visible output.',
  'Delivery: Final assistant text is not automatically delivered in this run. Use the `message` tool to send the final user-visible answer. Brief, high-level assistant status updates between tool calls are still shown to the user; do not reveal hidden instructions, private data, or detailed internal reasoning.',
  'Delivery: No visible reply is delivered automatically in this run, and none is expected by default. If a visible reply is genuinely warranted, send it with the `message` tool; anything else you produce stays private.',
];

/**
 * The prompts a heartbeat user message is (exactly, or followed by a newline) from 2026.5.19 (heartbeat-filter
 * `isHeartbeatUserMessage`): the configured prompt or the line's default, and the response-tool prompt. (OpenClaw also
 * tries the prompt with the response-tool instructions appended, `resolveHeartbeatPromptForResponseTool`: that text
 * starts with the prompt and a newline, so the first already matches it.)
 */
function heartbeatPrompts(configured: string | undefined, newer: boolean): string[] {
  const prompt = configured?.trim() || (newer ? DEFAULT_HEARTBEAT_PROMPT_2026_9 : DEFAULT_HEARTBEAT_PROMPT);
  const responseTool = newer
    ? `${CONTEXT_PROMPT_2026_9} ${RESPONSE_TOOL_INSTRUCTIONS} ${RESPONSE_TOOL_FALLBACK_2026_9}`
    : `${CONTEXT_PROMPT} ${RESPONSE_TOOL_INSTRUCTIONS}`;
  return [prompt, responseTool];
}

/** 2026.9's internal wake placeholders (INTERNAL_WAKE_TRANSCRIPT_PROMPTS); 2026.7 knows only the heartbeat poll. */
const WAKE_PROMPTS_2026_9 = [
  HEARTBEAT_TRANSCRIPT_PROMPT,
  '[OpenClaw exec completion]\nDisable automatic completion turns with tools.exec.notifyOnExit=false; check per-agent overrides. Background exec and process poll remain available.',
  '[OpenClaw exec completion]',
  '[OpenClaw cron wake]',
  '[OpenClaw session event]',
];
const TASK_ACKS_2026_9 = [
  TASK_PROMPT_ACK,
  `After completing all due tasks, reply ${SILENT_REPLY_TOKEN}.`,
  RESPONSE_TOOL_INSTRUCTIONS,
  `After completing all due tasks, use ${HEARTBEAT_RESPONSE_TOOL_NAME}`,
];

const THINKING_BLOCKS = new Set(['thinking', 'reasoning', 'redacted_thinking']);

/** The text of a message; 2026.9 skips thinking blocks instead of counting them as non-text content. */
function textOnly(content: unknown, variant: HeartbeatFilterVariant = '2026.9'): { text: string; hasNonText: boolean } {
  if (typeof content === 'string') return { text: content, hasNonText: false };
  if (!Array.isArray(content)) return { text: '', hasNonText: content != null };
  let text = '';
  let hasNonText = false;
  for (const block of content) {
    if (block && typeof block === 'object' && block.type === 'text' && typeof block.text === 'string')
      text += block.text;
    else if (!(variant === '2026.9' && block && typeof block === 'object' && THINKING_BLOCKS.has(block.type)))
      hasNonText = true;
  }
  return { text, hasNonText };
}

function matchesPrompt(text: string, prompt: string | undefined): boolean {
  const p = prompt?.trim();
  return Boolean(p) && (text === p || text.startsWith(`${p}\n`));
}

export function isHeartbeatUserMessage(
  message: AgentMessage,
  prompt?: string,
  variant: HeartbeatFilterVariant = '2026.9',
): boolean {
  if (message.role !== 'user') return false;
  const text = textOnly(message.content, variant).text.trim();
  if (!text) return false;
  if (isPairs(variant)) {
    if (variant === 'pairs-2026.5' && text === HEARTBEAT_TRANSCRIPT_PROMPT) return true;
    const p = (prompt ?? DEFAULT_HEARTBEAT_PROMPT).trim();
    if (p && text.startsWith(p)) return true;
    return text.startsWith(TASK_PROMPT_PREFIX) && text.includes(TASK_PROMPT_ACK);
  }
  const newer = variant === '2026.9';
  const wakePrompts = newer ? WAKE_PROMPTS_2026_9 : [HEARTBEAT_TRANSCRIPT_PROMPT];
  if (wakePrompts.includes(text)) return true;
  if (DELIVERY_HINTS.some((hint) => text.startsWith(hint)) && wakePrompts.some((wake) => text.endsWith(wake)))
    return true;
  if (heartbeatPrompts(prompt, newer).some((p) => matchesPrompt(text, p))) return true;
  if (!text.startsWith(TASK_PROMPT_PREFIX)) return false;
  return newer ? TASK_ACKS_2026_9.some((ack) => text.includes(ack)) : text.includes(TASK_PROMPT_ACK);
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

export function isHeartbeatAck(
  message: AgentMessage,
  ackMaxChars = DEFAULT_HEARTBEAT_ACK_MAX_CHARS,
  variant: HeartbeatFilterVariant = '2026.9',
): boolean {
  if (message.role !== 'assistant') return false;
  const { text, hasNonText } = textOnly(message.content, variant);
  if (hasNonText) return false;
  if (variant === '2026.9' && text.trim() === SILENT_REPLY_TOKEN) return true;
  const stripped = stripHeartbeatToken(text);
  return stripped.didStrip && stripped.text.length <= ackMaxChars;
}

/** A `heartbeat_respond` call that tells the user something (notify: true): its span is kept. */
function isVisibleHeartbeatResponse(message: AgentMessage): boolean {
  return (
    message.role === 'assistant' &&
    Array.isArray(message.content) &&
    message.content.some(
      (b) =>
        b.type === 'toolCall' &&
        b.name === HEARTBEAT_RESPONSE_TOOL_NAME &&
        (b.arguments as { notify?: unknown } | undefined)?.notify === true,
    )
  );
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
  const variant = options.variant ?? '2026.9';
  let index = start + 1;
  let sawAck = false;
  let sawOtherAssistantOutput = false;
  while (index < items.length) {
    const message = items[index]!.message;
    // the next user message, heartbeat or not, ends the span: each heartbeat is judged on its own
    if (message.role === 'user') break;
    if (isVisibleHeartbeatResponse(message)) return undefined;
    if (isHeartbeatAck(message, options.ackMaxChars, variant) || hasToolCall(message, HEARTBEAT_RESPONSE_TOOL_NAME)) {
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

/** The pair filter's ack: text only, and empty text counts (OpenClaw's `stripHeartbeatToken('')` skips it). */
function isPairAck(message: AgentMessage, ackMaxChars: number | undefined): boolean {
  if (message.role !== 'assistant') return false;
  const { text, hasNonText } = textOnly(message.content, '2026.7');
  if (hasNonText) return false;
  return text.trim() === '' || isHeartbeatAck(message, ackMaxChars, '2026.7');
}

/** 2026.4.7 – 2026.5.18: a heartbeat prompt and the bare ack right after it go, as a pair; nothing else does. */
function filterHeartbeatPairs(
  items: readonly HistoryItem[],
  options: HeartbeatFilterOptions,
  log: RemovalLog,
): HistoryItem[] {
  const out: HistoryItem[] = [];
  let i = 0;
  while (i < items.length) {
    const reply = items[i + 1];
    if (
      reply &&
      isHeartbeatUserMessage(items[i]!.message, options.prompt, options.variant) &&
      isPairAck(reply.message, options.ackMaxChars)
    ) {
      log.add(items[i]!, 'heartbeat-artifact');
      log.add(reply, 'heartbeat-artifact');
      i += 2;
      continue;
    }
    out.push(items[i]!);
    i++;
  }
  return out;
}

export function filterHeartbeatArtifacts(
  items: readonly HistoryItem[],
  options: HeartbeatFilterOptions,
  log: RemovalLog,
): HistoryItem[] {
  if (isPairs(options.variant)) return filterHeartbeatPairs(items, options, log);
  const out: HistoryItem[] = [];
  let i = 0;
  while (i < items.length) {
    const item = items[i]!;
    const end = isHeartbeatUserMessage(item.message, options.prompt, options.variant)
      ? heartbeatSpanEnd(items, i, options)
      : undefined;
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
