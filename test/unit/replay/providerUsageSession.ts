/**
 * Generated sessions with the shapes issue 31 met on real backups: Chinese conversations whose provider (a MiniMax
 * model) counts far fewer tokens than tiktoken — every first request of a turn records usage of
 * `ratio × tiktoken(prompt) + overhead` (input + cacheRead, as MiniMax reports it) — optionally a turn whose
 * first request the provider rejected with a context-overflow error (then OpenClaw's recovery compaction and the
 * retried prompt as the next user turn), or a model served by Ollama that records no overflow at all.
 * Written as a JSONL session file and read back as the replay reads it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentMessage, AssistantMessage, SessionEntry, SessionHeader, Usage } from '../../../src/contract';
import { countTokens, messageTokenText } from '../../../src/tokens';
import {
  projectSessionEntryMessage,
  readSessionFile,
  serializeSessionEntries,
  type LoadedSession,
} from '../../../src/transcripts';

const PHRASES = [
  '我们需要重新设计数据库的索引结构，以提高查询性能。',
  '请检查配置文件中的缓存过期时间设置是否合理。',
  '这个函数在并发情况下可能会出现竞态条件，需要加锁。',
  '部署脚本应该在回滚之前先备份当前版本的数据。',
  '日志显示请求在网关层超时，建议增加重试机制。',
  '单元测试覆盖率不足，边界条件没有被充分验证。',
  '前端页面在低带宽环境下加载缓慢，应该压缩静态资源。',
];

/** Deterministic Chinese text of about `chars` characters (o200k: about 0.64 tokens a character). */
export function chineseText(chars: number, seed = 0): string {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += PHRASES[(i * 3 + seed) % PHRASES.length];
  return out.slice(0, chars);
}

export interface ProviderUsageSessionOptions {
  turns: number;
  /** characters of each assistant reply */
  replyChars: number;
  /** provider tokens per tiktoken token of the prompt (MiniMax on Chinese: about 1 / 2.4) */
  ratio: number;
  /** provider tokens tiktoken never sees (system prompt and tools) */
  overhead: number;
  provider?: string;
  model?: string;
  api?: string;
  /** no usage on any assistant message */
  noUsage?: boolean;
  /** user prompts of this many characters at these turns (a pasted log) */
  bigPrompts?: Record<number, number>;
  /**
   * the first request of this turn fails with this context-overflow error; OpenClaw compacts (keeping the turn
   * before) and sends the prompt again: the next user turn
   */
  overflowAtTurn?: { turn: number; error: string };
}

function usageOf(promptTokens: number, output: number): Usage {
  const cacheRead = Math.floor(promptTokens * 0.2);
  return {
    input: promptTokens - cacheRead,
    output,
    cacheRead,
    cacheWrite: 0,
    totalTokens: promptTokens + output,
  };
}

/** The tiktoken count (o200k) of a message as the replay counts it. */
export const localTokensOf = (message: AgentMessage): number => countTokens(messageTokenText(message).text);

interface Builder {
  entries: SessionEntry[];
  push(entry: Record<string, unknown>): SessionEntry;
  now(): number;
}

function builder(): Builder {
  const entries: SessionEntry[] = [];
  let clock = Date.parse('2026-05-02T08:00:00.000Z');
  return {
    entries,
    now: () => clock + 1000,
    push(entry) {
      clock += 1000;
      const full = {
        id: `c${String(entries.length + 1).padStart(5, '0')}`,
        parentId: entries.length ? entries[entries.length - 1]!.id : null,
        timestamp: new Date(clock).toISOString(),
        ...entry,
      } as unknown as SessionEntry;
      entries.push(full);
      return full;
    },
  };
}

/** Builds the session; `contextTokens` follows the tiktoken count of what OpenClaw would send next. */
export function providerUsageEntries(options: ProviderUsageSessionOptions): SessionEntry[] {
  const b = builder();
  const model = {
    api: options.api ?? 'openai-completions',
    provider: options.provider ?? 'minimax',
    model: options.model ?? 'MiniMax-M2',
  };
  let context = 0;
  const contextMessages: { tokens: number; entryIndex: number }[] = [];
  const add = (message: AgentMessage) => {
    const entry = b.push({ type: 'message', message });
    contextMessages.push({ tokens: localTokensOf(message), entryIndex: b.entries.length - 1 });
    context += contextMessages[contextMessages.length - 1]!.tokens;
    return entry;
  };
  const assistant = (text: string, promptTokens: number | null, extra: Partial<AssistantMessage> = {}) =>
    add({
      role: 'assistant',
      content: [{ type: 'text', text }],
      ...model,
      ...(promptTokens !== null && !options.noUsage ? { usage: usageOf(promptTokens, 400) } : {}),
      stopReason: 'stop',
      timestamp: b.now(),
      ...extra,
    } as AssistantMessage);
  const providerCount = () => Math.round(options.ratio * context) + options.overhead;
  for (let t = 0; t < options.turns; t++) {
    const promptChars = options.bigPrompts?.[t] ?? 40;
    add({ role: 'user', content: `第${t + 1}步：${chineseText(promptChars, t)}`, timestamp: b.now() });
    if (options.overflowAtTurn?.turn === t) {
      assistant('', null, { stopReason: 'error', errorMessage: options.overflowAtTurn.error, content: [] });
      // OpenClaw's recovery: a compaction keeping the previous turn on, then the prompt again (the next user turn)
      const firstKept = contextMessages.length - 4;
      const compaction = b.push({
        type: 'compaction',
        summary: `之前的对话摘要（到第${t - 1}步）`,
        firstKeptEntryId: b.entries[contextMessages[firstKept]!.entryIndex]!.id,
        tokensBefore: providerCount(),
      });
      const kept = contextMessages.slice(firstKept).reduce((s, m) => s + m.tokens, 0);
      context = localTokensOf(projectSessionEntryMessage(compaction)!) + kept;
      continue;
    }
    assistant(chineseText(options.replyChars, t + 1), providerCount());
  }
  return b.entries;
}

const HEADER: SessionHeader = {
  type: 'session',
  version: 3,
  id: 'cjk-provider-usage',
  timestamp: '2026-05-02T08:00:00.000Z',
  cwd: '/work',
};

/** Writes `<dir>/cjk-provider-usage.jsonl` and reads it back as the replay does. */
export async function writeProviderUsageSession(
  dir: string,
  options: ProviderUsageSessionOptions,
): Promise<LoadedSession> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${HEADER.id}.jsonl`);
  writeFileSync(file, serializeSessionEntries(HEADER, providerUsageEntries(options)), 'utf8');
  return readSessionFile(file, { mode: 'strict' });
}
