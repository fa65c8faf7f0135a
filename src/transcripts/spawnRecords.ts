/**
 * Subagent spawns recorded in a parent transcript: `sessions_spawn` tool calls on assistant messages and the
 * tool results answering them. A result's outcome is read from `details` (what OpenClaw tools return as
 * structured data), falling back to JSON in the first text block.
 */
import { asRecord } from '../common/guards';
import type { AgentMessage, SessionEntry } from '../contract';

export const SESSIONS_SPAWN_TOOL = 'sessions_spawn';

export interface SpawnArguments {
  task?: string;
  label?: string;
  context?: string;
  lightContext?: boolean;
  cleanup?: string;
  mode?: string;
  [extra: string]: unknown;
}

export interface SpawnRecord {
  /** entry holding the assistant tool call */
  callEntryId: string;
  toolCallId: string;
  arguments: SpawnArguments;
  /** entry holding the tool result, once seen */
  resultEntryId?: string;
  status?: 'accepted' | 'error' | string;
  childSessionKey?: string;
  runId?: string;
  error?: string;
}

function resultPayload(message: AgentMessage): Record<string, unknown> | undefined {
  if (message.role !== 'toolResult') return undefined;
  const details = asRecord(message.details);
  if (details) return details;
  const first = message.content.find((b) => b.type === 'text');
  if (!first || first.type !== 'text') return undefined;
  try {
    return asRecord(JSON.parse(first.text));
  } catch {
    return message.isError ? { status: 'error', error: first.text } : undefined;
  }
}

/** Collects spawns entry by entry (so it can run while a transcript streams past). */
export class SpawnCollector {
  private readonly byCallId = new Map<string, SpawnRecord>();
  readonly records: SpawnRecord[] = [];

  addEntry(entry: SessionEntry): void {
    if (entry.type !== 'message') return;
    const message = entry.message;
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      for (const block of message.content) {
        if (block?.type !== 'toolCall' || block.name !== SESSIONS_SPAWN_TOOL) continue;
        const record: SpawnRecord = {
          callEntryId: entry.id,
          toolCallId: block.id,
          arguments: { ...(block.arguments as SpawnArguments) },
        };
        this.byCallId.set(block.id, record);
        this.records.push(record);
      }
    } else if (message.role === 'toolResult' && message.toolName === SESSIONS_SPAWN_TOOL) {
      const record = this.byCallId.get(message.toolCallId);
      if (!record) return;
      record.resultEntryId = entry.id;
      const payload = resultPayload(message) ?? {};
      const status = typeof payload.status === 'string' ? payload.status : message.isError ? 'error' : undefined;
      if (status !== undefined) record.status = status;
      if (typeof payload.childSessionKey === 'string') record.childSessionKey = payload.childSessionKey;
      if (typeof payload.runId === 'string') record.runId = payload.runId;
      if (typeof payload.error === 'string') record.error = payload.error;
    }
  }
}

export function collectSpawnRecords(entries: readonly SessionEntry[]): SpawnRecord[] {
  const collector = new SpawnCollector();
  for (const entry of entries) collector.addEntry(entry);
  return collector.records;
}
