/**
 * One simulated session being written: a transcript (so entries get OpenClaw's key order and tree rules), a
 * clock, and a model of the context the provider would see (to produce realistic usage blocks and to decide
 * when a recorded compaction happens).
 */
import type {
  AgentMessage,
  AssistantMessage,
  ImageContent,
  NewSessionEntry,
  SessionEntry,
  SessionHeader,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  Usage,
} from '../../contract';
import { createSessionTranscript, type SessionTranscript } from '../sessionTranscript';
import type { Prng } from './prng';

export interface ModelChoice {
  api: string;
  provider: string;
  model: string;
  /** USD per million tokens */
  price: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

export const MODELS: Record<'sonnet' | 'gpt', ModelChoice> = {
  sonnet: {
    api: 'anthropic-messages',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  },
  gpt: {
    api: 'openai-responses',
    provider: 'openai',
    model: 'gpt-5.1',
    price: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  },
};

/** The system prompt + tool schemas the simulated provider is sent each call (tokens). */
export const SYSTEM_PROMPT_TOKENS = 3400;

interface ContextItem {
  entryId: string;
  tokens: number;
  /** user / assistant / custom / branch summary: a place a compaction may cut */
  cuttable: boolean;
}

export interface CompactionSettings {
  enabled: boolean;
  contextWindow: number;
  reserveTokens: number;
  keepRecentTokens: number;
}

/** OpenClaw's effective reserve for a known context budget (behaviour §3.3, `applyAgentCompactionSettingsFromConfig`). */
export function effectiveReserveTokens(contextWindow: number, reserveTokens = 16384, floor = 20000): number {
  const minPromptBudget = Math.min(8000, Math.max(1, Math.floor(contextWindow * 0.5)));
  const maxReserve = Math.max(0, contextWindow - minPromptBudget);
  const effectiveFloor = Math.min(floor, maxReserve);
  return Math.min(Math.max(reserveTokens, effectiveFloor), maxReserve);
}

export function estimateChars(message: AgentMessage): number {
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content.length;
  let chars = 0;
  if (Array.isArray(content)) {
    for (const block of content as (TextContent | ImageContent | ThinkingContent | ToolCall)[]) {
      if (block.type === 'text') chars += block.text.length;
      else if (block.type === 'thinking') chars += block.thinking.length;
      else if (block.type === 'image') chars += 8000;
      else if (block.type === 'toolCall') chars += block.name.length + JSON.stringify(block.arguments).length;
    }
  }
  return chars;
}

export class SessionSimulator {
  readonly transcript: SessionTranscript;
  readonly rng: Prng;
  ms: number;
  model: ModelChoice = MODELS.sonnet;
  thinkingLevel = 'off';
  private context: ContextItem[] = [];
  private contextTokens = 0;
  private cachedPrefixTokens = SYSTEM_PROMPT_TOKENS;
  lastUsageTotal = 0;
  messageCount = 0;
  compactions = 0;

  constructor(header: SessionHeader, rng: Prng, startMs: number, prefix: readonly SessionEntry[] = []) {
    this.rng = rng;
    this.ms = startMs;
    const ids = rng.fork('entry-ids');
    this.transcript = createSessionTranscript({
      header,
      entries: prefix,
      idSource: () => ids.hex(8),
      now: () => new Date(this.ms),
    });
  }

  advance(minSeconds: number, maxSeconds: number): number {
    this.ms += this.rng.int(minSeconds * 1000, maxSeconds * 1000);
    return this.ms;
  }

  append(entry: NewSessionEntry): SessionEntry {
    return this.transcript.appendEntry(entry);
  }

  appendMessage(message: AgentMessage): SessionEntry {
    const entry = this.append({ type: 'message', message } as NewSessionEntry);
    this.messageCount += 1;
    const cuttable = message.role !== 'toolResult';
    this.track(entry.id, Math.ceil(estimateChars(message) / 4), cuttable);
    return entry;
  }

  track(entryId: string, tokens: number, cuttable: boolean): void {
    this.context.push({ entryId, tokens, cuttable });
    this.contextTokens += tokens;
  }

  /** Usage for an assistant reply to the current context (prompt = system + context so far). */
  usageFor(outputTokens: number): Usage {
    const prompt = SYSTEM_PROMPT_TOKENS + this.contextTokens;
    const input = Math.min(prompt, this.rng.int(3, 60));
    const cacheRead = Math.max(0, Math.min(this.cachedPrefixTokens, prompt - input));
    const cacheWrite = this.model.price.cacheWrite === 0 ? 0 : prompt - input - cacheRead;
    const uncached = this.model.price.cacheWrite === 0 ? prompt - cacheRead : input;
    const p = this.model.price;
    const cost = {
      input: (uncached * p.input) / 1e6,
      output: (outputTokens * p.output) / 1e6,
      cacheRead: (cacheRead * p.cacheRead) / 1e6,
      cacheWrite: (cacheWrite * p.cacheWrite) / 1e6,
      total: 0,
    };
    cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
    for (const key of Object.keys(cost) as (keyof typeof cost)[]) cost[key] = Math.round(cost[key] * 1e8) / 1e8;
    this.cachedPrefixTokens = prompt;
    const usage: Usage = {
      input: uncached,
      output: outputTokens,
      cacheRead,
      cacheWrite,
      totalTokens: uncached + outputTokens + cacheRead + cacheWrite,
      cost,
    };
    this.lastUsageTotal = usage.totalTokens;
    return usage;
  }

  assistant(content: AssistantMessage['content'], stopReason: 'stop' | 'toolUse'): SessionEntry {
    this.advance(2, 25);
    const outputTokens = Math.ceil(estimateChars({ role: 'assistant', content, timestamp: 0 }) / 4);
    const message: AssistantMessage = {
      role: 'assistant',
      content,
      api: this.model.api,
      provider: this.model.provider,
      model: this.model.model,
      usage: this.usageFor(outputTokens),
      stopReason,
      timestamp: this.ms,
    };
    return this.appendMessage(message);
  }

  toolResult(call: ToolCall, content: ToolResultMessage['content'], isError: boolean, details?: unknown): SessionEntry {
    this.advance(1, 12);
    const message: ToolResultMessage = {
      role: 'toolResult',
      toolCallId: call.id,
      toolName: call.name,
      content,
      ...(details === undefined ? {} : { details }),
      isError,
      timestamp: this.ms,
    };
    return this.appendMessage(message);
  }

  shouldCompact(settings: CompactionSettings): boolean {
    return settings.enabled && this.lastUsageTotal > settings.contextWindow - settings.reserveTokens;
  }

  /**
   * Picks the first kept entry the way OpenClaw's `findCutPoint` does (walk back until `keepRecentTokens`,
   * then the nearest user/assistant/summary entry at or after that point) and records the compaction.
   */
  compact(settings: CompactionSettings, summary: string, details: unknown): SessionEntry | undefined {
    let accumulated = 0;
    let index = this.context.length - 1;
    for (; index >= 0; index--) {
      accumulated += this.context[index]!.tokens;
      if (accumulated >= settings.keepRecentTokens) break;
    }
    index = Math.max(index, 1);
    while (index < this.context.length && !this.context[index]!.cuttable) index++;
    if (index >= this.context.length) return undefined;
    const kept = this.context.slice(index);
    const tokensBefore = this.lastUsageTotal;
    this.advance(8, 40);
    const entry = this.append({
      type: 'compaction',
      summary,
      firstKeptEntryId: kept[0]!.entryId,
      tokensBefore,
      details,
    } as NewSessionEntry);
    this.context = [];
    this.contextTokens = 0;
    this.track(entry.id, Math.ceil(summary.length / 4), false);
    for (const item of kept) this.track(item.entryId, item.tokens, item.cuttable);
    this.cachedPrefixTokens = SYSTEM_PROMPT_TOKENS;
    this.compactions += 1;
    return entry;
  }

  /** Saves the context model, for a side branch that will be abandoned. */
  snapshot(): () => void {
    const context = [...this.context];
    const { contextTokens, cachedPrefixTokens, lastUsageTotal } = this;
    return () => {
      this.context = context;
      this.contextTokens = contextTokens;
      this.cachedPrefixTokens = cachedPrefixTokens;
      this.lastUsageTotal = lastUsageTotal;
    };
  }
}
