/**
 * OpenClaw's tool-call id rewrite before the engine, in "strict" mode (the same in openclaw@2026.7.35
 * tool-call-id-*.js and 2026.9.6 tool-call-id-*.mjs, `sanitizeToolCallIdsForCloudCodeAssist`). A provider without an
 * owning plugin gets it from its model api (transcript-policy `buildUnownedProviderTransportReplayFallback`):
 * openai-completions/-responses, anthropic-messages, bedrock-converse-stream and the Google apis. Each id keeps only
 * letters and digits (`call_0_0` → `call00`; Kimi's native `functions.name:N` stays), capped at 40; an id already
 * used in the history gets the first 8 hex digits of its raw id's sha256 appended, then `x2`, `x3`…. A repeated
 * raw id is renamed as `<id>:<occurrence>`; each tool result takes the next pending id of its call, an orphan one
 * `<id>:tool_result:<n>`. Owned providers' own policies (duplicate-id styles, native Anthropic ids) are not modelled.
 */
import { createHash } from 'node:crypto';
import type { AgentMessage } from '../../contract';

const STRICT_ID_APIS = new Set([
  'openai-completions',
  'openai-responses',
  'openai-chatgpt-responses',
  'azure-openai-responses',
  'anthropic-messages',
  'bedrock-converse-stream',
  'google-gemini-cli',
  'google-generative-ai',
]);
const MAX_LEN = 40;
const KIMI_NATIVE_ID = /^functions\.[A-Za-z0-9_-]+:\d+$/;
const TOOL_CALL_TYPES = new Set(['toolCall', 'toolUse', 'functionCall']);
/** the fields a tool result may carry its call id in, the primary one first */
const RESULT_ID_FIELDS = ['call_id', 'callId', 'tool_call_id', 'tool_use_id', 'toolCallId', 'toolUseId'] as const;

/** Whether OpenClaw rewrites tool-call ids for a provider of this api (when no plugin owns the provider). */
export function rewritesToolCallIds(api: string | undefined): boolean {
  return api !== undefined && STRICT_ID_APIS.has(api);
}

const shortHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 8);

function strictId(id: string): string {
  if (KIMI_NATIVE_ID.test(id)) return id;
  const kept = id.replace(/[^a-zA-Z0-9]/g, '');
  return kept.length > 0 ? kept : 'sanitizedtoolid';
}

function uniqueId(seed: string, used: Set<string>): string {
  const base = strictId(seed).slice(0, MAX_LEN);
  if (!used.has(base)) return base;
  const hash = shortHash(seed);
  const candidate = `${base.slice(0, MAX_LEN - hash.length)}${hash}`;
  if (!used.has(candidate)) return candidate;
  for (let i = 2; i < 1000; i++) {
    const suffix = `x${i}`;
    const next = `${candidate.slice(0, MAX_LEN - suffix.length)}${suffix}`;
    if (!used.has(next)) return next;
  }
  return candidate;
}

/** Resolves raw ids to rewritten ones over one history, in order (assistant calls, then their results). */
class IdResolver {
  private readonly used = new Set<string>();
  private readonly callOccurrences = new Map<string, number>();
  private readonly orphanOccurrences = new Map<string, number>();
  private readonly pending = new Map<string, string[]>();

  private allocate(seed: string): string {
    const next = uniqueId(seed, this.used);
    this.used.add(next);
    return next;
  }

  call(id: string): string {
    const occurrence = (this.callOccurrences.get(id) ?? 0) + 1;
    this.callOccurrences.set(id, occurrence);
    const next = this.allocate(occurrence === 1 ? id : `${id}:${occurrence}`);
    const queue = this.pending.get(id);
    if (queue) queue.push(next);
    else this.pending.set(id, [next]);
    return next;
  }

  result(id: string): string {
    const queue = this.pending.get(id);
    if (queue?.length) {
      const next = queue.shift()!;
      if (!queue.length) this.pending.delete(id);
      return next;
    }
    const occurrence = (this.orphanOccurrences.get(id) ?? 0) + 1;
    this.orphanOccurrences.set(id, occurrence);
    return this.allocate(`${id}:tool_result:${occurrence}`);
  }
}

function rewriteCalls(message: AgentMessage, resolver: IdResolver): AgentMessage {
  if (!Array.isArray(message.content)) return message;
  let changed = false;
  const content = (message.content as unknown[]).map((block) => {
    const rec = block as { type?: unknown; id?: unknown } | null;
    if (!rec || typeof rec !== 'object' || !TOOL_CALL_TYPES.has(rec.type as string)) return block;
    if (typeof rec.id !== 'string' || !rec.id) return block;
    const id = resolver.call(rec.id);
    if (id === rec.id) return block;
    changed = true;
    return { ...rec, id };
  });
  return changed ? ({ ...message, content } as AgentMessage) : message;
}

function rewriteResult(message: AgentMessage, resolver: IdResolver): AgentMessage {
  const record = message as unknown as Record<string, unknown>;
  const field = RESULT_ID_FIELDS.find((f) => typeof record[f] === 'string' && record[f]);
  if (!field) return message;
  const id = resolver.result(record[field] as string);
  const updates: Record<string, string> = {};
  for (const f of RESULT_ID_FIELDS) if (typeof record[f] === 'string' && record[f] && record[f] !== id) updates[f] = id;
  if (typeof record.toolCallId !== 'string') updates.toolCallId = id;
  return Object.keys(updates).length ? ({ ...message, ...updates } as AgentMessage) : message;
}

/**
 * The history with tool-call ids rewritten in strict mode; `previous` gives back the copy made for the same message
 * last time when its ids are the same, so message identity stays stable across turns.
 */
export function sanitizeToolCallIds(
  messages: readonly AgentMessage[],
  previous: WeakMap<object, AgentMessage>,
): readonly AgentMessage[] {
  return new ToolCallIdSanitizer(previous).sanitize(messages);
}

/**
 * `sanitizeToolCallIds` for a history that grows by appends (a replay lane calls it once per turn): the rewrite is
 * one forward pass, so when the input starts with the very message objects of the previous call, its resolver state
 * and output are reused and only the new messages are rewritten. Any other input runs the whole pass again.
 */
export class ToolCallIdSanitizer {
  private resolver = new IdResolver();
  private input: AgentMessage[] = [];
  private output: AgentMessage[] = [];
  private rewritten = 0;

  constructor(private readonly previous: WeakMap<object, AgentMessage> = new WeakMap()) {}

  sanitize(messages: readonly AgentMessage[]): readonly AgentMessage[] {
    const input = this.input;
    let from = input.length;
    if (from > messages.length) from = -1;
    for (let i = 0; i < from; i++) {
      if (messages[i] !== input[i]) {
        from = -1;
        break;
      }
    }
    if (from < 0) {
      this.resolver = new IdResolver();
      this.input = [];
      this.output = [];
      this.rewritten = 0;
      from = 0;
    }
    for (let i = from; i < messages.length; i++) {
      const message = messages[i]!;
      this.input.push(message);
      this.output.push(this.rewrite(message));
    }
    return this.rewritten > 0 ? this.output.slice() : messages;
  }

  private rewrite(message: AgentMessage): AgentMessage {
    let next = message;
    if (message.role === 'assistant') next = rewriteCalls(message, this.resolver);
    else if (message.role === 'toolResult') next = rewriteResult(message, this.resolver);
    if (next === message) return message;
    this.rewritten++;
    const cached = this.previous.get(message);
    if (cached && JSON.stringify(idsOf(cached)) === JSON.stringify(idsOf(next))) return cached;
    this.previous.set(message, next);
    return next;
  }
}

function idsOf(message: AgentMessage): unknown {
  if (message.role === 'toolResult') {
    const record = message as unknown as Record<string, unknown>;
    return RESULT_ID_FIELDS.map((f) => record[f]);
  }
  return Array.isArray(message.content) ? (message.content as { id?: unknown }[]).map((b) => b?.id) : null;
}
