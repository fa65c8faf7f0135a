/**
 * Writes a generated set as an OpenClaw state dir: `<outDir>/agents/<agentId>/sessions/<sessionId>.jsonl` and
 * `sessions.json` beside them (merged into an existing store, so several sets can share one directory).
 * `sessionFile` values are file names relative to the sessions directory, which keeps the output relocatable;
 * OpenClaw itself writes absolute paths, and discovery accepts both.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionStore } from '../../contract';
import { writeSessionFile } from '../serializeSession';
import type { GeneratedSessionSet } from './generateSession';

export interface WrittenSessionSet {
  sessionsDir: string;
  files: string[];
  storePath: string;
}

export async function writeGeneratedSessions(set: GeneratedSessionSet, outDir: string): Promise<WrittenSessionSet> {
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
  for (const [key, entry] of Object.entries(set.store)) {
    const target = key === parentKey ? newParentKey : key;
    store[target] = entry.spawnedBy === parentKey ? { ...entry, spawnedBy: newParentKey } : entry;
  }
  await writeFile(storePath, `${JSON.stringify(store, null, 2)}\n`, 'utf8');
  return { sessionsDir, files, storePath };
}
