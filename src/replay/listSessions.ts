/** The sessions of an OpenClaw state dir (or of the bundled demo) as the Sessions view lists them, with counts. */
import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverSessions, isTrajectoryFileName } from '../transcripts';
import { locatorOf } from './session/resolveSessionInput';
import { createSessionCountCache, type SessionCountCache } from './session/sessionCounts';

/** ContextScope's bundled demo sessions (resources/sessions), from source or from a build. */
export function defaultDemoSessionsDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'resources', 'sessions');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

export interface ListedSession {
  sessionId: string;
  /**
   * what replay.start takes, naming this session and no other (locatorOf): the transcript file, or
   * `<agent database>#<session key | archive name>` for a SQLite session
   */
  file: string;
  storage?: 'jsonl' | 'sqlite';
  agentId: string;
  key?: string;
  isSubagent: boolean;
  archived: boolean;
  size: number;
  mtimeMs: number;
  parentSessionId?: string;
  childSessionIds: string[];
  /** counts (absent when the transcript could not be read); see sessionCounts.ts */
  entries?: number;
  turns?: number;
  messages?: number;
  /** why the transcript is no session a replay can read (garbage, UTF-16, empty, unreadable): the replay's refusal */
  problem?: string;
}

const defaultCountCache = createSessionCountCache();

/** Adds the counts (or the problem) of every listed session, reading at most a few transcripts at a time. */
async function withCounts(sessions: ListedSession[], cache: SessionCountCache): Promise<ListedSession[]> {
  const out: ListedSession[] = new Array(sessions.length);
  let next = 0;
  const worker = async () => {
    while (next < sessions.length) {
      const i = next++;
      const s = sessions[i];
      out[i] = { ...s, ...(await cache.get(s.file, s.size, s.mtimeMs)) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, sessions.length) }, worker));
  return out;
}

/** A folder of bare transcripts (no agents/<id>/sessions layout). */
async function listFlatSessions(dir: string): Promise<ListedSession[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.jsonl') && !isTrajectoryFileName(n));
  } catch {
    return [];
  }
  return names
    .map((name) => {
      const file = join(dir, name);
      const stat = statSync(file);
      return {
        sessionId: name.replace(/\.jsonl$/, ''),
        file,
        storage: 'jsonl' as const,
        agentId: '',
        isSubagent: false,
        archived: false,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        childSessionIds: [],
      };
    })
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/**
 * Sessions in an OpenClaw state dir (default: the bundled demo sessions), newest first, with their counts
 * (cached by path + mtime + size: listing again re-reads only changed transcripts).
 */
export async function listSessions(
  stateDir?: string,
  options: { counts?: SessionCountCache } = {},
): Promise<{ stateDir: string; sessions: ListedSession[] }> {
  const cache = options.counts ?? defaultCountCache;
  const dir = stateDir ?? defaultDemoSessionsDir();
  if (!dir) return { stateDir: '', sessions: [] };
  const found = await discoverSessions({ stateDir: dir, scanSpawns: false });
  if (found.sessions.length === 0)
    return { stateDir: found.stateDir, sessions: await withCounts(await listFlatSessions(found.stateDir), cache) };
  const sessions = found.sessions
    .filter((s) => s.exists)
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
    .map((s) => ({
      sessionId: s.sessionId,
      file: locatorOf(s),
      storage: s.storage,
      agentId: s.agentId,
      ...(s.key ? { key: s.key } : {}),
      isSubagent: s.isSubagent,
      archived: s.archived,
      size: s.size,
      mtimeMs: s.mtimeMs,
      ...(s.parentSessionId ? { parentSessionId: s.parentSessionId } : {}),
      childSessionIds: s.childSessionIds,
    }));
  return { stateDir: found.stateDir, sessions: await withCounts(sessions, cache) };
}
