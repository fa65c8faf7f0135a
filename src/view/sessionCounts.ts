/**
 * A session's counts, defined once: the Sessions list (`sessions.list`), the HTML report, the Replay header and
 * `contextscope generate` show these, so the same session has the same numbers everywhere.
 *
 * - **Turns**: the user messages on the active branch — the turns a replay replays.
 * - **Messages**: the messages on the active branch a replay goes through — what the Recording keeps as the
 *   session's `messageKeys`: message entries (unless excluded from context), custom messages and branch summaries.
 *   Compaction entries, other branches and entries that are not messages (model changes, labels …) are not counted.
 * - **Entries**: every entry of the file, all branches, the header not counted.
 */
import type { SessionEntry } from '../contract';
import type { SessionInfo } from './viewTypes';

export const SESSION_COUNT_DEFINITIONS = {
  turns: 'user messages on the active branch: the turns a replay replays',
  messages:
    'messages on the active branch a replay goes through (message entries, custom messages and branch summaries; not compactions, other branches or other entries)',
  entries: 'entries in the file, all branches',
} as const;

/** Whether an entry of the active branch is one of its messages (see the file comment). */
export function isSessionMessage(entry: SessionEntry): boolean {
  switch (entry.type) {
    case 'message':
      return (entry.message as { excludeFromContext?: unknown }).excludeFromContext !== true;
    case 'custom_message':
      return true;
    case 'branch_summary':
      return Boolean(entry.summary);
    default:
      return false;
  }
}

export interface SessionCounts {
  /** user messages on the active branch */
  turns: number;
  /** messages on the active branch (isSessionMessage) */
  messages: number;
}

/** The counts of a session's active branch (root first, as getActivePath gives it). */
export function sessionCounts(activePath: readonly SessionEntry[]): SessionCounts {
  let turns = 0;
  let messages = 0;
  for (const entry of activePath) {
    if (entry.type === 'message' && entry.message?.role === 'user') turns++;
    if (isSessionMessage(entry)) messages++;
  }
  return { turns, messages };
}

/** The same counts of a replayed session, from what its Recording kept. */
export function recordedSessionCounts(session: Pick<SessionInfo, 'turnStarts' | 'messageKeys'>): SessionCounts {
  return { turns: session.turnStarts.length, messages: session.messageKeys.length };
}
