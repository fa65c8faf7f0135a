/**
 * Writes a generated set as an OpenClaw state dir, in either storage:
 * - `jsonl` (default; OpenClaw up to 2026.7.x): `<outDir>/agents/<agentId>/sessions/<sessionId>.jsonl` and
 *   `sessions.json` beside them (merged into an existing store, so several sets can share one directory).
 *   `sessionFile` values are file names relative to the sessions directory, which keeps the output relocatable;
 *   OpenClaw itself writes absolute paths, and discovery accepts both.
 * - `sqlite` (OpenClaw 2026.8+): `<outDir>/agents/<agentId>/agent/openclaw-agent.sqlite` and
 *   `<outDir>/state/openclaw.sqlite`, as `openclaw doctor --session-sqlite import` stores the same set (see
 *   writeGeneratedSqlite.ts); several sets can share one directory too.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../common/writeFileAtomic';
import type { SessionStore } from '../../contract';
import { writeSessionFile } from '../serializeSession';
import type { WritableAgentSchema } from '../sqlite/writer/agentDdl';
import type { GeneratedSessionSet } from './generatedTypes';
import { writeGeneratedSqlite } from './writeGeneratedSqlite';

export interface WrittenSessionSet {
  storage: 'jsonl' | 'sqlite';
  /** jsonl: the sessions directory; sqlite: the agent database's directory */
  sessionsDir: string;
  /** jsonl: the transcripts; sqlite: the agent database and the global database */
  files: string[];
  /** jsonl: sessions.json; sqlite: the agent database (where OpenClaw 2026.8+ keeps the session store) */
  storePath: string;
  /** the keys written (a parent key another session already held is renamed `agent:<id>:generated:<id8>`) */
  sessionKeys: string[];
  /** sqlite: events written and how many of them zstd-compressed */
  events?: number;
  compressedEvents?: number;
}

export interface WriteGeneratedOptions {
  /** default `jsonl` */
  storage?: 'jsonl' | 'sqlite';
  /** sqlite: agent schema (23 = OpenClaw 2026.9.6, the default; 19 = 2026.8.1, without compressed rows) */
  schemaVersion?: WritableAgentSchema;
}

export async function writeGeneratedSessions(
  set: GeneratedSessionSet,
  outDir: string,
  options: WriteGeneratedOptions = {},
): Promise<WrittenSessionSet> {
  if (options.storage === 'sqlite') {
    const written = writeGeneratedSqlite(set, outDir, options.schemaVersion);
    return {
      storage: 'sqlite',
      sessionsDir: dirname(written.database),
      files: [written.database, written.stateDatabase],
      storePath: written.database,
      sessionKeys: written.sessionKeys,
      events: written.events,
      compressedEvents: written.compressedEvents,
    };
  }
  return writeJsonlSet(set, outDir);
}

async function writeJsonlSet(set: GeneratedSessionSet, outDir: string): Promise<WrittenSessionSet> {
  const sessionsDir = join(outDir, 'agents', set.agentId, 'sessions');
  await mkdir(sessionsDir, { recursive: true });
  const files: string[] = [];
  for (const session of set.sessions) {
    const file = join(sessionsDir, session.fileName);
    await writeSessionFile(file, session);
    files.push(file);
  }
  const storePath = join(sessionsDir, 'sessions.json');
  let store: SessionStore = {};
  if (existsSync(storePath)) {
    try {
      store = JSON.parse(await readFile(storePath, 'utf8')) as SessionStore;
    } catch (error) {
      throw new Error(
        `Cannot merge into ${storePath}: it is not valid JSON (${(error as Error).message}). Move it away or pick another --out.`,
        { cause: error },
      );
    }
  }
  // A second generated parent under a key already taken by another session gets a fresh key, and its
  // children's `spawnedBy` follows it.
  const parentKey = set.sessions[0]!.sessionKey;
  const taken = store[parentKey] && store[parentKey]!.sessionId !== set.sessions[0]!.sessionId;
  const newParentKey = taken ? `agent:${set.agentId}:generated:${set.sessions[0]!.sessionId.slice(0, 8)}` : parentKey;
  const sessionKeys: string[] = [];
  for (const [key, entry] of Object.entries(set.store)) {
    const target = key === parentKey ? newParentKey : key;
    store[target] = entry.spawnedBy === parentKey ? { ...entry, spawnedBy: newParentKey } : entry;
    sessionKeys.push(target);
  }
  // the store may hold other sessions' entries (a merge): replaced atomically, never left half-written
  writeFileAtomic(storePath, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o644 });
  return { storage: 'jsonl', sessionsDir, files, storePath, sessionKeys };
}
