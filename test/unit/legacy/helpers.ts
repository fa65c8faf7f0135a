import type {
  AgentMessage,
  AssistantMessage,
  SessionEntry,
  SessionHeader,
  ToolResultMessage,
  Usage,
  UserMessage,
} from '../../../src/contract';
import { createSessionTranscript, type SessionTranscript } from '../../../src/transcripts';

export const HEADER: SessionHeader = {
  type: 'session',
  version: 3,
  id: 'session-1',
  timestamp: '2026-05-01T10:00:00.000Z',
  cwd: '/work',
};

export const user = (text: string, ts = 1): UserMessage => ({ role: 'user', content: text, timestamp: ts });
export const assistantText = (text: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  timestamp: 2,
  ...extra,
});
export const assistantCall = (
  id: string,
  name: string,
  args: Record<string, unknown>,
  text?: string,
): AssistantMessage => ({
  role: 'assistant',
  content: [...(text ? [{ type: 'text' as const, text }] : []), { type: 'toolCall', id, name, arguments: args }],
  timestamp: 2,
});
export const toolResult = (id: string, name: string, text: string, isError = false): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: name,
  content: [{ type: 'text', text }],
  isError,
  timestamp: 3,
});
export const usage = (total: number): Usage => ({
  input: total,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: total,
});

type EntryInput = AgentMessage | Omit<Exclude<SessionEntry, { type: 'message' }>, 'id' | 'parentId' | 'timestamp'>;

/** A linear branch of entries with ids e1, e2, … (a message becomes a `message` entry). */
export function branch(inputs: EntryInput[]): SessionEntry[] {
  const out: SessionEntry[] = [];
  inputs.forEach((input, i) => {
    const base = {
      id: `e${i + 1}`,
      parentId: i === 0 ? null : `e${i}`,
      timestamp: `2026-05-01T10:00:${String(i).padStart(2, '0')}.000Z`,
    };
    out.push(('role' in input ? { type: 'message', ...base, message: input } : { ...input, ...base }) as SessionEntry);
  });
  return out;
}

/** An in-memory transcript over `entries`; appended entries get ids n1, n2, … */
export function transcriptOf(entries: SessionEntry[]): SessionTranscript {
  let n = 0;
  return createSessionTranscript({
    header: HEADER,
    entries,
    idSource: () => `n${++n}`,
    now: () => new Date('2026-05-01T11:00:00.000Z'),
  });
}
