/**
 * `sessions.json` (one per `agents/<agentId>/sessions/` directory): session key → session entry. Keys look like
 * `agent:<agentId>:main` or `agent:<agentId>:subagent:<uuid>`. Unknown fields are kept as they are.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import type { SessionStore, SessionStoreEntry } from '../contract';

export interface SessionStoreFile {
  path: string;
  /** valid entries only */
  store: SessionStore;
  /** entries left out, and why */
  problems: { key: string; message: string }[];
}

export interface ParsedSessionKey {
  agentId: string;
  /** `main`, `subagent`, or the key's third segment for other kinds (`telegram`, `cron`, ...) */
  kind: string;
  /** the remainder after the kind (the subagent uuid, a channel id, ...) */
  rest: string;
}

/** Splits `agent:<agentId>:<kind>[:<rest>]`; undefined for keys of another shape. */
export function parseSessionKey(key: string): ParsedSessionKey | undefined {
  const parts = key.split(':');
  if (parts.length < 3 || parts[0] !== 'agent' || !parts[1] || !parts[2]) return undefined;
  return { agentId: parts[1], kind: parts[2], rest: parts.slice(3).join(':') };
}

export function isSubagentSessionKey(key: string): boolean {
  return parseSessionKey(key)?.kind === 'subagent';
}

/** Reads a sessions.json. Rejects (with the path and what to do) when the file is missing or not a JSON object. */
export async function readSessionStore(path: string): Promise<SessionStoreFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read session store ${path}: ${(error as Error).message}`, { cause: error });
  }
  return parseSessionStore(text.replace(/^\uFEFF/, ''), path);
}

export function parseSessionStore(text: string, path: string): SessionStoreFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `Invalid session store ${path}: not valid JSON (${(error as Error).message}). Fix or remove the file; OpenClaw rewrites it.`,
      { cause: error },
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`Invalid session store ${path}: expected a JSON object mapping session keys to entries`);
  }
  const store: SessionStore = {};
  const problems: SessionStoreFile['problems'] = [];
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    const entry = value as Partial<SessionStoreEntry> | null;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push({ key, message: 'entry is not an object' });
    } else if (typeof entry.sessionId !== 'string' || !entry.sessionId) {
      problems.push({ key, message: 'entry has no sessionId' });
    } else if (entry.sessionFile !== undefined && typeof entry.sessionFile !== 'string') {
      problems.push({ key, message: 'entry sessionFile is not a string' });
    } else {
      store[key] = entry as SessionStoreEntry;
    }
  }
  return { path, store, problems };
}

/**
 * The transcript a store entry names, in `sessionsDir`: its `sessionFile` (relative to the folder), else
 * `<sessionId>.jsonl`. OpenClaw records `sessionFile` as an absolute path, so in a state dir copied or moved
 * elsewhere it points at the old place: a missing absolute path falls back to the file of that name in
 * `sessionsDir`, then to `<sessionsDir>/<sessionId>.jsonl`.
 */
export function storeEntryFile(
  sessionsDir: string,
  entry: Pick<SessionStoreEntry, 'sessionId' | 'sessionFile'>,
): string {
  const byId = join(sessionsDir, `${entry.sessionId}.jsonl`);
  const named = typeof entry.sessionFile === 'string' ? entry.sessionFile.trim() : '';
  if (!named) return byId;
  if (!isAbsolute(named)) return join(sessionsDir, named);
  if (existsSync(named)) return named;
  const sameName = join(sessionsDir, basename(named));
  return existsSync(sameName) || !existsSync(byId) ? sameName : byId;
}
