/**
 * Per-session counts for the Sessions list: entries, and the turns and messages of the active branch as src/view's
 * sessionCounts defines them (what the HTML report and the Replay header show of a replayed session). The file is
 * read once, streamed, with the same tolerant parser the replay uses; results are cached by path + mtime + size, so
 * listing a folder again re-reads only the transcripts that changed.
 */
import { getActivePath, loadSession } from '../../transcripts';
import { sessionCounts } from '../../view';
import { parseSqliteSessionLocator } from './resolveSessionInput';

export interface SessionCounts {
  /** every entry of the file (all branches; the header not counted) */
  entries: number;
  /** user messages on the active branch: the turns a replay replays */
  turns: number;
  /** messages on the active branch (src/view sessionCounts) */
  messages: number;
}

/** Reads one transcript (a file or a SQLite session locator) and counts it (rejects when it cannot be read). */
export async function countSessionFile(file: string): Promise<SessionCounts> {
  const loaded = await loadSession(parseSqliteSessionLocator(file) ?? file, { mode: 'tolerant' });
  return { entries: loaded.entries.length, ...sessionCounts(getActivePath(loaded)) };
}

export interface SessionCountCache {
  /** the counts of a file with this size and mtime; undefined when it cannot be read */
  get(file: string, size: number, mtimeMs: number): Promise<SessionCounts | undefined>;
  /** how many files were actually read (for tests and diagnostics) */
  readonly reads: number;
}

export function createSessionCountCache(
  options: { maxEntries?: number; count?: (file: string) => Promise<SessionCounts> } = {},
): SessionCountCache {
  const maxEntries = options.maxEntries ?? 2000;
  const count = options.count ?? countSessionFile;
  const cache = new Map<string, { size: number; mtimeMs: number; counts: Promise<SessionCounts | undefined> }>();
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
      const slot: { size: number; mtimeMs: number; counts: Promise<SessionCounts | undefined> } = {
        size,
        mtimeMs,
        counts: Promise.resolve(undefined),
      };
      slot.counts = count(file).then(
        (c) => c,
        () => {
          // an unreadable file is not cached: it may be readable next time
          if (cache.get(file) === slot) cache.delete(file);
          return undefined;
        },
      );
      cache.delete(file);
      cache.set(file, slot);
      while (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
      return slot.counts;
    },
  };
}
