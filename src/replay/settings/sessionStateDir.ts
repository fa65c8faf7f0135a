/** The OpenClaw state dir a session was read from, when its path has the state dir's layout. */
import { basename, dirname } from 'node:path';
import type { LoadedSession } from '../../transcripts';

/**
 * `<stateDir>/agents/<agentId>/sessions/<id>.jsonl` or `<stateDir>/agents/<agentId>/agent/openclaw-agent.sqlite`
 * → `<stateDir>`; undefined for a transcript outside a state dir.
 */
export function stateDirOfSession(session: LoadedSession): string | undefined {
  const storage = session.storage;
  const file = storage?.kind === 'sqlite' ? storage.database : storage?.kind === 'jsonl' ? storage.file : session.path;
  if (!file) return undefined;
  const folder = dirname(file);
  const expected = storage?.kind === 'sqlite' ? 'agent' : 'sessions';
  if (basename(folder) !== expected) return undefined;
  const agents = dirname(dirname(folder));
  return basename(agents) === 'agents' ? dirname(agents) : undefined;
}
