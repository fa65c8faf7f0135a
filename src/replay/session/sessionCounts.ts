/**
 * Per-session counts for the Sessions list: entries, and the turns and messages of the active branch as src/view's
 * sessionCounts defines them (what the HTML report and the Replay header show of a replayed session). The file is
 * read once, streamed, with the same tolerant parser the replay uses; a file that is no session at all says why,
 * in the words a replay of it would fail with. Results are cached by path + mtime + size, so listing a folder again
 * re-reads only the transcripts that changed.
 */
import { basename } from 'node:path';
import { errorMessage } from '../../common/errorText';
import { getActivePath, loadSession } from '../../transcripts';
import { sessionCounts } from '../../view';
import { describeUnreadableSession, parseSqliteSessionLocator } from './resolveSessionInput';

export interface SessionCounts {
  /** every entry of the file (all branches; the header not counted) */
  entries: number;
  /** user messages on the active branch: the turns a replay replays */
  turns: number;
  /** messages on the active branch (src/view sessionCounts) */
  messages: number;
}

/** The counts, or why the transcript is not a session a replay can read (its counts are then left out). */
export type SessionCountsOrProblem = SessionCounts | { problem: string };

/**
 * Reads one transcript (a file or a SQLite session locator) and counts it; a file that holds no session (garbage,
 * UTF-16, empty) gives the replay's own refusal. Rejects when it cannot be read at all.
 */
export async function countSessionFile(file: string): Promise<SessionCountsOrProblem> {
  const loaded = await loadSession(parseSqliteSessionLocator(file) ?? file, { mode: 'tolerant' });
  const problem = describeUnreadableSession(loaded, basename(loaded.path || file));
  if (problem) return { problem };
  return { entries: loaded.entries.length, ...sessionCounts(getActivePath(loaded)) };
}

export interface SessionCountCache {
  /** the counts of a file with this size and mtime, or why it cannot be read (not cached: it may be readable later) */
  get(file: string, size: number, mtimeMs: number): Promise<SessionCountsOrProblem>;
  /** how many files were actually read (for tests and diagnostics) */
  readonly reads: number;
}

export function createSessionCountCache(
  options: { maxEntries?: number; count?: (file: string) => Promise<SessionCountsOrProblem> } = {},
): SessionCountCache {
  const maxEntries = options.maxEntries ?? 2000;
  const count = options.count ?? countSessionFile;
  const cache = new Map<string, { size: number; mtimeMs: number; counts: Promise<SessionCountsOrProblem> }>();
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    get(file, size, mtimeMs) {
      const hit = cache.get(file);
      if (hit && hit.size === size && hit.mtimeMs === mtimeMs) {
        // most recently used last, so the oldest are evicted first
        cache.delete(file);
        cache.set(file, hit);
        return hit.counts;
      }
      reads++;
      const slot: { size: number; mtimeMs: number; counts: Promise<SessionCountsOrProblem> } = {
        size,
        mtimeMs,
        counts: Promise.resolve({ problem: '' }),
      };
      slot.counts = count(file).then(
        (c) => c,
        (error: unknown) => {
          // an unreadable file is not cached: it may be readable next time
          if (cache.get(file) === slot) cache.delete(file);
          return { problem: `Could not read the transcript: ${errorMessage(error)}` };
        },
      );
      cache.delete(file);
      cache.set(file, slot);
      while (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
      return slot.counts;
    },
  };
}
