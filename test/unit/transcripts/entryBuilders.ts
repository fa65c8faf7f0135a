/** Small builders for hand-made transcript entries in tests. */
import type { AgentMessage, AssistantMessage, SessionEntry, SessionHeader, ToolCall } from '../../../src/contract';

export const HEADER: SessionHeader = {
  type: 'session',
  version: 3,
  id: 'sess-test',
  timestamp: '2026-01-05T10:00:00.000Z',
  cwd: '/home/dev/project',
};

let clock = 0;
export function ts(): string {
  clock += 1;
  return new Date(Date.UTC(2026, 0, 5, 10, 0, clock)).toISOString();
}

export function user(text: string, extra: Record<string, unknown> = {}): AgentMessage {
  return { role: 'user', content: text, timestamp: 1000, ...extra };
}

export function assistant(
  text: string,
  calls: ToolCall[] = [],
  extra: Partial<AssistantMessage> = {},
): AssistantMessage {
  return {
    role: 'assistant',
    content: [{ type: 'text', text }, ...calls],
    api: 'anthropic-messages',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    stopReason: calls.length ? 'toolUse' : 'stop',
    timestamp: 2000,
    ...extra,
  };
}

export function call(id: string, name = 'read'): ToolCall {
  return { type: 'toolCall', id, name, arguments: { path: 'src/a.ts' } };
}

export function result(toolCallId: string, text = 'ok'): AgentMessage {
  return {
    role: 'toolResult',
    toolCallId,
    toolName: 'read',
    content: [{ type: 'text', text }],
    isError: false,
    timestamp: 3000,
  };
}

export function message(id: string, parentId: string | null, m: AgentMessage): SessionEntry {
  return { type: 'message', id, parentId, timestamp: ts(), message: m };
}

export function entry(
  fields: Record<string, unknown> & { type: string; id: string; parentId: string | null },
): SessionEntry {
  return { timestamp: ts(), ...fields } as unknown as SessionEntry;
}

/** Entries chained linearly (each the child of the one before). */
export function chain(...entries: ((parentId: string | null) => SessionEntry)[]): SessionEntry[] {
  const out: SessionEntry[] = [];
  let parent: string | null = null;
  for (const make of entries) {
    const e = make(parent);
    out.push(e);
    parent = e.id;
  }
  return out;
}
