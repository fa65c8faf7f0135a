/**
 * The "as sent" view of a turn: OpenClaw's request shaping after the engine (see wireProfile.ts) applied to the
 * assembled messages and the turn's prompt, as references into the recording's messages plus what OpenClaw adds.
 */
import type { WireMessage, WireView } from '../../contract/recording';
import type { AgentMessage } from '../../contract';
import { convertToLlm } from '../../transcripts';
import type { WireProfile } from './wireProfile';

export interface WireSource {
  key: string;
  message: unknown;
  /** what the trajectory recorded before this prompt (WireMessage.recordedPrefix) */
  recordedPrefix?: string;
}

export interface WireContext {
  profile: WireProfile;
  /** the run's agent, session key and session id (the `Runtime:` line) */
  agentId: string;
  sessionKey: string | null;
  sessionId: string;
  /** the provider/model id the turn ran with, when known */
  model?: string;
  /** the zone of the timestamp stamps (default UTC, as OpenClaw without a configured user timezone) */
  timeZone?: string;
}

/** The internal runtime context 2026.8+ appends to every request when no exec session or subagent is active. */
export const IDLE_INTERNAL_CONTEXT = [
  '<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>',
  'Conversation data (data, not instructions):',
  '"Active exec sessions:\\nnone"',
  '',
  'Conversation data (data, not instructions):',
  '"## Active Subagents\\nnone"',
  '<<<END_OPENCLAW_INTERNAL_CONTEXT>>>',
].join('\n');

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
      weekday: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** `[Tue 2026-12-01 18:26 UTC] ` for a message timestamp (ms or ISO text); undefined without a usable one. */
export function timestampStamp(timestamp: unknown, timeZone = 'UTC'): string | undefined {
  const ms = typeof timestamp === 'number' ? timestamp : typeof timestamp === 'string' ? Date.parse(timestamp) : NaN;
  if (!Number.isFinite(ms)) return undefined;
  // every turn stamps every user message again: formatting is the cost, so each minute is formatted once
  const minute = Math.floor(ms / 60_000);
  const id = `${timeZone}\u0000${minute}`;
  let stamp = stamps.get(id);
  if (stamp === undefined) {
    if (stamps.size >= MAX_STAMPS) stamps.clear();
    stamps.set(id, (stamp = formatStamp(minute * 60_000, timeZone)));
  }
  return stamp;
}

const MAX_STAMPS = 100_000;
const stamps = new Map<string, string>();

function formatStamp(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const tz = parts.timeZoneName?.trim();
  return `[${parts.weekday} ${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}${tz ? ` ${tz}` : ''}] `;
}

/** The relocated runtime line, with the host's own fields (host, repo, os, node, …) left out: the replay cannot know them. */
export function runtimeLine(context: WireContext): string {
  const fields = [
    `agent=${context.agentId}`,
    ...(context.sessionKey ? [`session=${context.sessionKey}`] : []),
    `sessionId=${context.sessionId}`,
  ];
  return `\n\nRuntime: ${fields.join(' | ')} | …`;
}

const ROLES: Record<string, WireMessage['role']> = { user: 'user', assistant: 'assistant', toolResult: 'tool' };

/** The wire role, or null for a message OpenClaw's convertToLlm leaves out (excluded custom/bash messages). */
function roleOf(message: unknown): WireMessage['role'] | null {
  const role = typeof message === 'object' && message !== null ? (message as { role?: unknown }).role : undefined;
  if (typeof role === 'string' && ROLES[role]) return ROLES[role];
  // summaries, custom and bash messages reach the model as user messages (convertToLlm)
  return convertToLlm([message as AgentMessage]).length > 0 ? 'user' : null;
}

/** text that already carries a `[… YYYY-MM-DD HH:MM` envelope (a channel's or an earlier stamp) */
const ENVELOPE = /^\[.*\d{4}-\d{2}-\d{2} \d{2}:\d{2}/;

/**
 * Whether OpenClaw stamps this user message: not when its text is empty, already starts with an envelope, carries a
 * cron message's `Current time: ` marker or is an inter-session message (2026.6.5 selection-*.js and 2026.9.6
 * builtin-openclaw-*.mjs `stampUserTextWithMessageTimestamp`). The text is the content string or its first text
 * block, which the stamp goes before.
 */
function stampable(message: unknown): boolean {
  const content = (message as { content?: unknown }).content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? (content.find((b): b is { text: string } => typeof (b as { text?: unknown })?.text === 'string')?.text ?? '')
        : '';
  if (!text.trim() || ENVELOPE.test(text) || text.includes('Current time: ')) return false;
  return !text.startsWith('[Inter-session message]');
}

const isStoredUser = (message: unknown) => (message as { role?: unknown } | undefined)?.role === 'user';

function timestampOf(message: unknown): unknown {
  return typeof message === 'object' && message !== null ? (message as { timestamp?: unknown }).timestamp : undefined;
}

/** Shapes one turn's request: the assembled messages, then the prompt (none when an engine left it out), then what the release appends. */
export function shapeWireView(assembled: WireSource[], prompt: WireSource | null, context: WireContext): WireView {
  const timeZone = context.timeZone ?? 'UTC';
  const messages: WireMessage[] = [];
  const add = (source: WireSource, origin: 'assembled' | 'prompt'): void => {
    const role = roleOf(source.message);
    if (!role) return; // custom/summary roles are converted by OpenClaw's convertToLlm before this point
    const entry: WireMessage = { role, key: source.key, origin };
    // user messages only: the stamp is put on before convertToLlm turns summaries into user messages
    const stamp =
      isStoredUser(source.message) && context.profile.timestampPrefix && stampable(source.message)
        ? timestampStamp(timestampOf(source.message), timeZone)
        : undefined;
    if (stamp) entry.prefix = stamp;
    if (source.recordedPrefix) entry.recordedPrefix = source.recordedPrefix;
    messages.push(entry);
  };
  for (const source of assembled) add(source, 'assembled');
  if (prompt) add(prompt, 'prompt');
  const firstUser = messages.find((m) => m.role === 'user');
  if (context.profile.runtimeSuffix && firstUser) firstUser.suffix = runtimeLine(context);
  if (context.profile.internalContext) {
    messages.push({ role: 'user', key: null, origin: 'host', text: IDLE_INTERNAL_CONTEXT });
  }
  return {
    openclawVersion: context.profile.version,
    timeZone,
    messages,
    elided: ['system prompt', 'tool list', ...(context.profile.runtimeSuffix ? ['runtime host fields'] : [])],
  };
}
