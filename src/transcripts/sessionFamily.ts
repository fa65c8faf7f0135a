/**
 * What a replay needs around a loaded session, whatever stores it: its session key, and its subagent children by
 * key (JSONL: `sessions.json` beside the transcript; SQLite: the same agent database).
 */
import { dirname, join } from 'node:path';
import { readSessionFile } from './readSessionFile';
import type { LoadedSession, SessionLoadMode } from './sessionParser';
import { readSessionStore, storeEntryFile } from './sessionStore';
import { SqliteSessionError } from './sqlite/agentSchema';
import { loadSqliteSession } from './sqlite/agentDatabase';

function jsonlFile(loaded: LoadedSession): string | null {
  if (loaded.storage?.kind === 'sqlite') return null;
  return loaded.storage?.file ?? (loaded.path || null);
}

/** The session key of a loaded session (SQLite: its node; JSONL: the sessions.json entry naming its id). */
export async function sessionKeyOf(loaded: LoadedSession): Promise<string | null> {
  if (loaded.storage?.kind === 'sqlite') return loaded.storage.sessionKey;
  const file = jsonlFile(loaded);
  if (!file) return null;
  try {
    const { store } = await readSessionStore(join(dirname(file), 'sessions.json'));
    for (const [key, entry] of Object.entries(store)) if (entry.sessionId === loaded.header.id) return key;
  } catch {
    // no store next to the file
  }
  return null;
}

/**
 * A loader for the children of `parent` by session key: null when the key names no session (or its transcript
 * is missing); other failures (an unreadable database) are thrown.
 */
export function createChildSessionResolver(
  parent: LoadedSession,
  mode: SessionLoadMode = 'tolerant',
): (childSessionKey: string) => Promise<LoadedSession | null> {
  const storage = parent.storage;
  if (storage?.kind === 'sqlite') {
    return async (childSessionKey) => {
      try {
        return await loadSqliteSession(storage.database, storage.agentId, { sessionKey: childSessionKey }, { mode });
      } catch (error) {
        if (error instanceof SqliteSessionError && error.code === 'not_found') return null;
        throw error;
      }
    };
  }
  return async (childSessionKey) => {
    const file = jsonlFile(parent);
    if (!file) return null;
    const dir = dirname(file);
    let entry;
    try {
      entry = (await readSessionStore(join(dir, 'sessions.json'))).store[childSessionKey];
    } catch {
      return null;
    }
    if (!entry) return null;
    const childFile = storeEntryFile(dir, entry);
    try {
      return await readSessionFile(childFile, { mode });
    } catch {
      return null;
    }
  };
}
