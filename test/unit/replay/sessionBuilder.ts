/**
 * Small hand-built sessions and recording test engines for the replay tests (unit and conformance).
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  AgentMessage,
  AssistantMessage,
  ContextEngine,
  ContextEngineInfo,
  SessionEntry,
  SessionHeader,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from '../../../src/contract';
import { readSessionFile, serializeSessionEntries, type LoadedSession } from '../../../src/transcripts';

const BASE_MS = Date.parse('2026-03-02T09:00:00.000Z');

export class SessionBuilder {
  readonly entries: SessionEntry[] = [];
  private n = 0;
  private clock = BASE_MS;
  constructor(
    readonly header: SessionHeader = {
      type: 'session',
      version: 3,
      id: 'sess-1',
      timestamp: '2026-03-02T09:00:00.000Z',
      cwd: '/work',
    },
  ) {}

  private push(entry: Omit<SessionEntry, 'id' | 'parentId' | 'timestamp'> & Record<string, unknown>): SessionEntry {
    const id = `e${String(++this.n).padStart(4, '0')}`;
    const parentId = this.entries.length ? this.entries[this.entries.length - 1].id : null;
    this.clock += 1000;
    const full = {
      type: entry.type,
      id,
      parentId,
      timestamp: new Date(this.clock).toISOString(),
      ...entry,
    } as SessionEntry;
    this.entries.push(full);
    return full;
  }

  now(): number {
    return this.clock;
  }

  user(text: string): SessionEntry {
    const message: UserMessage = { role: 'user', content: text, timestamp: this.clock + 1000 };
    return this.push({ type: 'message', message });
  }

  assistant(
    text: string,
    options: { toolCalls?: ToolCall[]; stopReason?: AssistantMessage['stopReason']; errorMessage?: string } = {},
  ): SessionEntry {
    const content: AssistantMessage['content'] = [{ type: 'text', text }, ...(options.toolCalls ?? [])];
    const message: AssistantMessage = {
      role: 'assistant',
      content,
      provider: 'openai',
      model: 'gpt-5',
      stopReason: options.stopReason ?? (options.toolCalls?.length ? 'toolUse' : 'stop'),
      ...(options.errorMessage ? { errorMessage: options.errorMessage } : {}),
      timestamp: this.clock + 1000,
    };
    return this.push({ type: 'message', message });
  }

  toolResult(toolCallId: string, toolName: string, text: string, isError = false): SessionEntry {
    const message: ToolResultMessage = {
      role: 'toolResult',
      toolCallId,
      toolName,
      content: [{ type: 'text', text }],
      isError,
      timestamp: this.clock + 1000,
    };
    return this.push({ type: 'message', message });
  }

  compaction(summary: string, firstKeptEntryId: string, tokensBefore: number): SessionEntry {
    return this.push({ type: 'compaction', summary, firstKeptEntryId, tokensBefore });
  }

  /** A plain exchange: user text, assistant answer. */
  turn(userText: string, answer = `answer to ${userText}`): this {
    this.user(userText);
    this.assistant(answer);
    return this;
  }

  /** A turn with one `sessions_spawn` call and its recorded result. */
  spawnTurn(
    userText: string,
    args: Record<string, unknown>,
    result: { status: 'accepted' | 'error' | 'forbidden'; childSessionKey?: string; error?: string },
    callId: string,
  ): this {
    this.user(userText);
    this.assistant('spawning a helper', {
      toolCalls: [{ type: 'toolCall', id: callId, name: 'sessions_spawn', arguments: { task: 'help', ...args } }],
    });
    this.toolResult(callId, 'sessions_spawn', JSON.stringify(result), result.status !== 'accepted');
    this.assistant('spawned');
    return this;
  }

  loaded(path = ''): LoadedSession {
    const last = this.entries[this.entries.length - 1];
    return {
      path,
      header: this.header,
      entries: [...this.entries],
      entryLines: this.entries.map((_, i) => i + 2),
      leafId: last ? last.id : null,
      appendParentId: last ? last.id : null,
      problems: [],
      sourceVersion: 3,
      headerSynthesized: false,
      lineCount: this.entries.length + 1,
    };
  }

  /** Writes `<dir>/<sessionId>.jsonl` and returns the loaded session. */
  async write(dir: string): Promise<LoadedSession> {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${this.header.id}.jsonl`);
    writeFileSync(file, serializeSessionEntries(this.header, this.entries), 'utf8');
    return readSessionFile(file, { mode: 'strict' });
  }
}

export function tempDir(prefix = 'contextscope-replay-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface EngineCallLog {
  method: string;
  params: unknown;
}

export type EngineOverrides = Partial<Omit<ContextEngine, 'info'>>;

/**
 * An in-process engine that records every call. Pass-through assemble, `ingest` returns `{ingested:true}`,
 * `compact` reports nothing compacted; override any method. `calls` is shared across factory invocations.
 */
export function recordingEngine(info: Partial<ContextEngineInfo> & { id: string }, overrides: EngineOverrides = {}) {
  const calls: EngineCallLog[] = [];
  const log = (method: string, params: unknown) => calls.push({ method, params });
  const base: ContextEngine = {
    info: { name: `Test ${info.id}`, ...info },
    async ingest(params) {
      log('ingest', params);
      return { ingested: true };
    },
    async assemble(params) {
      log('assemble', params);
      return { messages: params.messages, estimatedTokens: 0 };
    },
    async compact(params) {
      log('compact', params);
      return { ok: true, compacted: false, reason: 'test engine' };
    },
  };
  const factory = () => {
    const engine: ContextEngine = { ...base, info: { ...base.info } };
    for (const [name, impl] of Object.entries(overrides)) {
      if (typeof impl !== 'function') continue;
      (engine as unknown as Record<string, unknown>)[name] = async (params: unknown) => {
        log(name, params);
        return (impl as (p: unknown) => unknown)(params);
      };
    }
    return engine;
  };
  return {
    factory,
    calls,
    methods: () => calls.map((c) => c.method),
    callsOf: (method: string) => calls.filter((c) => c.method === method),
  };
}

export function textOf(message: AgentMessage): string {
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (b as { text?: string }).text ?? '').join('');
  return '';
}
