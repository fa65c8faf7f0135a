/** What a replay reads about its session beyond the transcript: the model, the session key and child sessions. */
import { dirname, join } from 'node:path';
import type { SessionEntry } from '../../contract';
import { getActivePath, readSessionFile, readSessionStore, type LoadedSession } from '../../transcripts';

/** The model the session ran with: the last model_change, or the provider/model of the last assistant message. */
export function sessionModel(loaded: LoadedSession): { provider: string; modelId: string } | null {
  const path = getActivePath(loaded);
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i];
    if (entry.type === 'model_change') return { provider: entry.provider, modelId: entry.modelId };
    if (entry.type === 'message' && entry.message.role === 'assistant') {
      const { provider, model } = entry.message;
      if (typeof provider === 'string' && typeof model === 'string') return { provider, modelId: model };
    }
  }
  return null;
}

/** The sessions.json key whose entry names this session (OpenClaw runs always have a session key). */
export async function sessionKeyFromStore(loaded: LoadedSession): Promise<string | null> {
  if (!loaded.path) return null;
  try {
    const { store } = await readSessionStore(join(dirname(loaded.path), 'sessions.json'));
    for (const [key, entry] of Object.entries(store)) if (entry.sessionId === loaded.header.id) return key;
  } catch {
    // no store next to the file
  }
  return null;
}

/** Default child lookup: the sessions.json beside the parent transcript maps the child key to its transcript. */
export function childResolverFor(loaded: LoadedSession): (key: string) => Promise<LoadedSession | null> {
  return async (childSessionKey) => {
    if (!loaded.path) return null;
    const dir = dirname(loaded.path);
    let entry;
    try {
      entry = (await readSessionStore(join(dir, 'sessions.json'))).store[childSessionKey];
    } catch {
      return null;
    }
    if (!entry) return null;
    const file = entry.sessionFile
      ? entry.sessionFile.startsWith('/')
        ? entry.sessionFile
        : join(dir, entry.sessionFile)
      : join(dir, `${entry.sessionId}.jsonl`);
    try {
      return await readSessionFile(file, { mode: 'tolerant' });
    } catch {
      return null;
    }
  };
}

/** The stop reason of the last assistant message among `entries`. */
export function lastStopReason(entries: readonly SessionEntry[]): string | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry.type === 'message' && entry.message.role === 'assistant') return entry.message.stopReason;
  }
  return undefined;
}
