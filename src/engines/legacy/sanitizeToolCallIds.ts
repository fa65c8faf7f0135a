/**
 * OpenClaw's tool-call id rewrite before the engine, in "strict" mode (`sanitizeToolCallIdsForCloudCodeAssist`: the
 * same in openclaw@2026.3.31 pi-embedded-helpers-*.js, 2026.7.35 tool-call-id-*.js and 2026.9.6 tool-call-id-*.mjs).
 * Each id keeps only letters and digits (`call_0_0` → `call00`; Kimi's native `functions.name:N` stays), capped at 40;
 * an id already used in the history gets the first 8 hex digits of its raw id's sha256 appended, then `x2`, `x3`….
 * A repeated raw id is renamed as `<id>:<occurrence>`; each tool result takes the next pending id of its call, an
 * orphan one `<id>:tool_result:<n>`.
 *
 * Whether a run rewrites at all is its transcript policy (`resolveTranscriptPolicy({provider, modelApi})`), keyed on
 * the model the run calls, per release — {@link ToolCallIdPolicy}. Owned providers' own policies other than Ollama's
 * (duplicate-id styles, Mistral's 9-character ids, native Anthropic ids, ids kept in replay-safe thinking turns) are
 * not modelled: such providers are judged by their api as if unowned.
 */
import { createHash } from 'node:crypto';
import type { AgentMessage } from '../../contract';

/** How a release decides whether a run's model gets the strict rewrite. */
export interface ToolCallIdPolicy {
  /**
   * `provider-family` (2026.3.7 – 2026.4.4, 3.31 pi-embedded-*.js `resolveTranscriptPolicy`): the Google and
   * Anthropic apis, providers of the Anthropic family (anthropic, amazon-bedrock, anthropic-vertex) and
   * `openai-completions` rewrite; the OpenAI Responses apis rewrite except for providers of the OpenAI family
   * (openai, openai-codex). `provider-plugin` (2026.4.5+): the provider plugin's replay policy, else by api alone
   * (`buildUnownedProviderTransportReplayFallback`: the OpenAI completions/Responses apis, anthropic-messages,
   * bedrock-converse-stream, the Google apis).
   */
  keyedOn: 'provider-family' | 'provider-plugin';
  /** the ChatGPT-login Responses api in the rewriting set: `openai-codex-responses` until 2026.5, renamed `openai-chatgpt-responses` in 2026.6.1 */
  codexApi: 'openai-codex-responses' | 'openai-chatgpt-responses';
  /**
   * the `ollama` provider (`provider-plugin` only): `unowned` (2026.4: no replay policy, judged by api), `openai-compatible`
   * (2026.5.x: its native `ollama` api is given the openai-completions policy, so it rewrites — 5.2
   * extensions/ollama `buildReplayPolicy`), `native` (2026.5.20+: the native api keeps its ids,
   * `buildNativeOllamaReplayPolicy`; the OpenAI apis rewrite as openai-compatible)
   */
  ollama: 'unowned' | 'openai-compatible' | 'native';
}

/** The model a run called, as its transcript policy is keyed. */
export interface CalledModel {
  provider?: string;
  api?: string;
}

/** 2026.6.1+ (checked on 2026.6.11, 2026.7.35 and 2026.9.6). */
export const TOOL_CALL_ID_POLICY_2026_6: ToolCallIdPolicy = Object.freeze({
  keyedOn: 'provider-plugin',
  codexApi: 'openai-chatgpt-responses',
  ollama: 'native',
});

const GOOGLE_APIS = new Set(['google-gemini-cli', 'google-generative-ai']);
const ANTHROPIC_APIS = new Set(['anthropic-messages', 'bedrock-converse-stream']);
const ANTHROPIC_FAMILY = new Set(['anthropic', 'amazon-bedrock', 'anthropic-vertex']);
const OPENAI_FAMILY = new Set(['openai', 'openai-codex']);
/** 2026.3's `OPENAI_MODEL_APIS`: a run without a provider on one of them counts as the OpenAI family */
const OPENAI_MODEL_APIS = new Set(['openai', 'openai-completions', 'openai-responses', 'openai-codex-responses']);

function openAiApis(policy: ToolCallIdPolicy): Set<string> {
  return new Set(['openai-completions', 'openai-responses', policy.codexApi, 'azure-openai-responses']);
}

/** 2026.3: `resolveTranscriptPolicy` keyed on provider families (see {@link ToolCallIdPolicy.keyedOn}). */
function familyRewrites(provider: string, api: string | undefined, policy: ToolCallIdPolicy): boolean {
  const openAiFamily = provider ? OPENAI_FAMILY.has(provider) : api !== undefined && OPENAI_MODEL_APIS.has(api);
  if (api === 'openai-completions') return true;
  if (api !== undefined && openAiApis(policy).has(api)) return !openAiFamily;
  if (openAiFamily) return false;
  return (api !== undefined && (GOOGLE_APIS.has(api) || ANTHROPIC_APIS.has(api))) || ANTHROPIC_FAMILY.has(provider);
}

/** Whether a run of `model` has its tool-call ids rewritten in strict mode under `policy` (default: 2026.6+). */
export function rewritesToolCallIds(
  model: CalledModel | undefined,
  policy: ToolCallIdPolicy = TOOL_CALL_ID_POLICY_2026_6,
): boolean {
  if (!model) return false;
  const provider = (model.provider ?? '').trim().toLowerCase();
  const api = model.api;
  if (policy.keyedOn === 'provider-family') return familyRewrites(provider, api, policy);
  const openAi = openAiApis(policy);
  if ((provider === 'ollama' || provider === 'ollama-cloud') && policy.ollama !== 'unowned') {
    if (api === 'ollama') return policy.ollama === 'openai-compatible';
    return api !== undefined && openAi.has(api);
  }
  return api !== undefined && (openAi.has(api) || GOOGLE_APIS.has(api) || ANTHROPIC_APIS.has(api));
}

const MAX_LEN = 40;
const KIMI_NATIVE_ID = /^functions\.[A-Za-z0-9_-]+:\d+$/;
const TOOL_CALL_TYPES = new Set(['toolCall', 'toolUse', 'functionCall']);
/** the fields a tool result may carry its call id in, the primary one first */
const RESULT_ID_FIELDS = ['call_id', 'callId', 'tool_call_id', 'tool_use_id', 'toolCallId', 'toolUseId'] as const;

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
