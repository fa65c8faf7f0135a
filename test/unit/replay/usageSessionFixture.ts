/**
 * Sessions with the shape real OpenClaw sessions have where the compaction trigger matters: every assistant
 * message carries the provider's usage (`contextUsage.totalTokens` included), tool results are large, and the
 * real tokenizer counts far fewer tokens than chars/4 (long common words), so an estimate-based trigger fires
 * long before the provider-reported usage crosses the threshold.
 */
import type { AssistantMessage, SessionEntry, SessionHeader, Usage } from '../../../src/contract';
import type { LoadedSession } from '../../../src/transcripts';

/** 37,600 characters: chars/4 = 9,400 tokens, tiktoken (cl100k) 3,200. */
export const LONG_WORDS_RESULT = ' information management development environment'.repeat(800);

function usage(totalTokens: number): Usage {
  return {
    input: totalTokens - 200,
    output: 200,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    contextUsage: { state: 'available', promptTokens: totalTokens - 200, totalTokens },
  } as Usage;
}

export interface UsageSessionOptions {
  turns: number;
  /** provider context tokens before the first turn (system prompt + tools) */
  baseTokens: number;
  /** provider context tokens each turn adds */
  perTurnTokens: number;
  /** turns (0-based) after which OpenClaw compacted: a recorded compaction entry, and usage restarts from base */
  recordedCompactionsAfter?: number[];
}

/** A JSONL-v3-shaped session: user → assistant tool call → large tool result → assistant answer, per turn. */
export function usageSession(options: UsageSessionOptions): LoadedSession {
  const entries: SessionEntry[] = [];
  let clock = Date.parse('2026-06-01T10:00:00.000Z');
  let n = 0;
  const push = (entry: Record<string, unknown>) => {
    clock += 1000;
    const full = {
      id: `u${String(++n).padStart(5, '0')}`,
      parentId: entries.length ? entries[entries.length - 1]!.id : null,
      timestamp: new Date(clock).toISOString(),
      ...entry,
    } as unknown as SessionEntry;
    entries.push(full);
    return full;
  };
  const assistant = (
    content: AssistantMessage['content'],
    stopReason: AssistantMessage['stopReason'],
    tokens: number,
  ) =>
    push({
      type: 'message',
      message: {
        role: 'assistant',
        content,
        api: 'openai-completions',
        provider: 'local',
        model: 'scripted',
        usage: usage(tokens),
        stopReason,
        timestamp: clock + 1000,
      },
    });
  let since = 0;
  for (let t = 0; t < options.turns; t++) {
    push({
      type: 'message',
      message: { role: 'user', content: `step ${t + 1}: read the next file`, timestamp: clock + 1000 },
    });
    const before = options.baseTokens + options.perTurnTokens * since;
    const callId = `call_${t + 1}`;
    assistant(
      [{ type: 'toolCall', id: callId, name: 'read', arguments: { path: `docs/part-${t + 1}.md` } }],
      'toolUse',
      before + 60,
    );
    push({
      type: 'message',
      message: {
        role: 'toolResult',
        toolCallId: callId,
        toolName: 'read',
        content: [{ type: 'text', text: LONG_WORDS_RESULT }],
        details: { path: `docs/part-${t + 1}.md`, bytes: LONG_WORDS_RESULT.length },
        isError: false,
        timestamp: clock + 1000,
      },
    });
    since++;
    assistant(
      [{ type: 'text', text: `Read part ${t + 1}.` }],
      'stop',
      options.baseTokens + options.perTurnTokens * since,
    );
    if (options.recordedCompactionsAfter?.includes(t)) {
      const firstKept = entries[entries.length - 4]!.id;
      push({
        type: 'compaction',
        summary: `summary up to step ${t + 1}`,
        firstKeptEntryId: firstKept,
        tokensBefore: before,
      });
      since = 1;
    }
  }
  const header: SessionHeader = {
    type: 'session',
    version: 3,
    id: 'usage-session',
    timestamp: '2026-06-01T10:00:00.000Z',
    cwd: '/work',
  };
  const last = entries[entries.length - 1]!;
  return {
    path: '',
    header,
    entries,
    entryLines: entries.map((_, i) => i + 2),
    leafId: last.id,
    appendParentId: last.id,
    problems: [],
    sourceVersion: 3,
    headerSynthesized: false,
    lineCount: entries.length + 1,
  };
}
