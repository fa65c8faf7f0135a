/**
 * Splitting a recorded session's active branch into user turns, the unit the replay advances by.
 *
 * A turn starts at a `message` entry whose message is a `user` message and runs to the entry before the next
 * one. Entries before the first user message form the prelude. Compaction entries are kept apart (they are
 * markers unless the replay honours them) together with their position inside the turn.
 */
import type { AssistantMessage, CompactionEntry, MessageEntry, SessionEntry, UserMessage } from '../../contract';

export interface SessionTurn {
  index: number;
  userEntry: MessageEntry & { message: UserMessage };
  /** the turn's entries in order, starting with the user entry (compaction entries included, in place) */
  entries: SessionEntry[];
}

export interface SplitSession {
  prelude: SessionEntry[];
  turns: SessionTurn[];
  /** recorded compactions and the turn they were recorded in (0 for the prelude) */
  compactions: { entry: CompactionEntry; turn: number }[];
}

export function isUserMessageEntry(entry: SessionEntry): entry is MessageEntry & { message: UserMessage } {
  return entry.type === 'message' && entry.message?.role === 'user';
}

export function splitSessionTurns(path: readonly SessionEntry[]): SplitSession {
  const prelude: SessionEntry[] = [];
  const turns: SessionTurn[] = [];
  const compactions: { entry: CompactionEntry; turn: number }[] = [];
  for (const entry of path) {
    if (isUserMessageEntry(entry)) {
      turns.push({ index: turns.length, userEntry: entry, entries: [entry] });
      continue;
    }
    if (entry.type === 'compaction') compactions.push({ entry, turn: Math.max(0, turns.length - 1) });
    if (turns.length === 0) prelude.push(entry);
    else turns[turns.length - 1].entries.push(entry);
  }
  return { prelude, turns, compactions };
}

/** The user prompt text as OpenClaw passes it to `assemble({prompt})`: string content, or its text blocks joined. */
export function promptTextOf(message: UserMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

export type RecordedTurnOutcome = 'ok' | 'prompt_error' | 'aborted';

/** How the recorded model call of a turn ended: the stopReason of the turn's last assistant message. */
export function recordedTurnOutcome(turn: SessionTurn): { outcome: RecordedTurnOutcome; error?: string } {
  for (let i = turn.entries.length - 1; i >= 0; i--) {
    const entry = turn.entries[i];
    if (entry.type !== 'message' || entry.message.role !== 'assistant') continue;
    const assistant = entry.message as AssistantMessage;
    if (assistant.stopReason === 'error') {
      return {
        outcome: 'prompt_error',
        error: assistant.errorMessage ?? 'the recorded model call ended with an error',
      };
    }
    if (assistant.stopReason === 'aborted') return { outcome: 'aborted', error: assistant.errorMessage ?? 'aborted' };
    return { outcome: 'ok' };
  }
  return { outcome: 'ok' };
}
