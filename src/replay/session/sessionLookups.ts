/**
 * What a replay reads about its session beyond the transcript: the model it ran with and how its last turn ended.
 * (The session key and child sessions come from src/transcripts: `sessionKeyOf`, `createChildSessionResolver`.)
 */
import type { SessionEntry } from '../../contract';
import { getActivePath, type LoadedSession } from '../../transcripts';

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

/** The stop reason of the last assistant message among `entries`. */
export function lastStopReason(entries: readonly SessionEntry[]): string | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry.type === 'message' && entry.message.role === 'assistant') return entry.message.stopReason;
  }
  return undefined;
}
