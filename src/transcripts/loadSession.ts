/**
 * One entry point for a session, whatever stores it: `loadSession(ref)` with a JSONL path, or with
 * `{stateDir, agentId?, session}` where `session` is a key, a session id, an archive name or a transcript file
 * name; `findSession` says which session that names. The result is the same LoadedSession model either way
 * (`storage` tells where it came from).
 */
import { basename } from 'node:path';
import { discoverSessions, resolveStateDir } from './discoverSessions';
import type { DiscoveredSession, SessionRef } from './discovery/discoveryTypes';
import { readSessionFile, type ReadSessionOptions } from './readSessionFile';
import type { LoadedSession } from './sessionParser';
import { loadSqliteSession } from './sqlite/agentDatabase';
import type { SnapshotOptions } from './sqlite/databaseSnapshot';
import type { SqliteSessionTarget } from './sqlite/readSqliteSession';

export interface LoadSessionOptions extends ReadSessionOptions {
  env?: NodeJS.ProcessEnv;
  /** how SQLite databases are read (default: immutable when possible, else a private copy) */
  snapshot?: SnapshotOptions;
}

export interface FindSessionOptions {
  agentId?: string;
  /** only sessions of this storage (a SQLite locator names a database: a JSONL session is never what it means) */
  storage?: 'jsonl' | 'sqlite';
  env?: NodeJS.ProcessEnv;
}

/** A discovered session and how the name matched it (a non-current generation id loads up to that generation). */
export type FoundSession = DiscoveredSession & {
  matchedBy: 'key' | 'sessionId' | 'window' | 'archive' | 'file' | 'prefix';
  /** the generation the name matched (`window`) */
  windowId?: string;
};

type Tier = { by: FoundSession['matchedBy']; test: (s: DiscoveredSession) => string | boolean };

function tiers(name: string): Tier[] {
  const live = (s: DiscoveredSession) => !(s.storage === 'sqlite' && s.sqlite?.archive);
  return [
    { by: 'key', test: (s) => live(s) && s.keys.includes(name) },
    { by: 'sessionId', test: (s) => live(s) && s.sessionId === name },
    { by: 'window', test: (s) => live(s) && s.sqlite?.windows.some((w) => w.sessionId === name) === true && name },
    { by: 'archive', test: (s) => s.sqlite?.archive?.name === name },
    { by: 'sessionId', test: (s) => !live(s) && s.sessionId === name },
    { by: 'file', test: (s) => s.storage === 'jsonl' && basename(s.file) === name },
    { by: 'prefix', test: (s) => name.length >= 6 && live(s) && prefixMatch(s, name) },
  ];
}

/** A unique-enough prefix of the session id, or of an earlier generation's id (then that id). */
function prefixMatch(s: DiscoveredSession, name: string): string | boolean {
  if (s.sessionId.startsWith(name)) return true;
  return s.sqlite?.windows.find((w) => w.sessionId.startsWith(name))?.sessionId ?? false;
}

function describe(s: DiscoveredSession): string {
  const what = s.sqlite?.archive ? `archive ${s.sqlite.archive.name}` : (s.sessionKey ?? '(no key)');
  return `${s.agentId}/${s.storage}: ${what} (${s.sessionId})`;
}

/** Same session in both storages of one agent (migrated, JSONL left behind): OpenClaw 2026.8+ reads SQLite. */
function preferSqlite(matches: DiscoveredSession[]): DiscoveredSession[] {
  if (matches.length !== 2) return matches;
  const [a, b] = matches as [DiscoveredSession, DiscoveredSession];
  if (a.agentId !== b.agentId || a.storage === b.storage || a.sessionId !== b.sessionId) return matches;
  return [a.storage === 'sqlite' ? a : b];
}

/** The session `name` names in a state dir. Throws (with what is there) when none or several do. */
export async function findSession(
  stateDir: string,
  name: string,
  options: FindSessionOptions = {},
): Promise<FoundSession> {
  const dir = resolveStateDir(stateDir, options.env);
  const found = await discoverSessions({ stateDir: dir, scanSpawns: false, counts: false, env: options.env });
  const pool = found.sessions.filter(
    (s) => (!options.agentId || s.agentId === options.agentId) && (!options.storage || s.storage === options.storage),
  );
  for (const tier of tiers(name)) {
    const matches = preferSqlite(pool.filter((s) => tier.test(s)));
    if (matches.length === 1) {
      const hit = tier.test(matches[0]!);
      const windowId = typeof hit === 'string' && hit !== matches[0]!.sessionId ? hit : undefined;
      return { ...matches[0]!, matchedBy: tier.by, ...(windowId ? { windowId } : {}) };
    }
    if (matches.length > 1) {
      throw new Error(
        `"${name}" names ${matches.length} sessions in ${dir}: ${matches.map(describe).join('; ')}. Pass the agent id (--agent) or a session id.`,
      );
    }
  }
  const problems = found.agents.filter((a) => a.databaseError).map((a) => ` (${a.agentId}: ${a.databaseError})`);
  const keys = pool.flatMap((s) => (s.sessionKey ? [s.sessionKey] : []));
  const listing = keys.length
    ? `its sessions: ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''}`
    : 'it has no sessions';
  throw new Error(
    `No ${options.storage === 'sqlite' ? 'SQLite ' : ''}session "${name}"${options.agentId ? ` for agent ${options.agentId}` : ''} in ${dir}: ${listing}${problems.join('')}. Run \`contextscope sessions --state-dir ${dir}\` to list them.`,
  );
}

function sqliteTarget(found: FoundSession): SqliteSessionTarget {
  if (found.sqlite?.archive) return { archiveName: found.sqlite.archive.name };
  if (found.windowId) return { sessionId: found.windowId };
  return found.sessionKey ? { sessionKey: found.sessionKey } : { sessionId: found.sessionId };
}

/** Loads a session from either storage into the same LoadedSession model. */
export async function loadSession(ref: SessionRef, options: LoadSessionOptions = {}): Promise<LoadedSession> {
  const read = { mode: options.mode, onProgress: options.onProgress, progressStepBytes: options.progressStepBytes };
  if (typeof ref === 'string') return readSessionFile(ref, read);
  const found = await findSession(ref.stateDir, ref.session, {
    agentId: ref.agentId,
    storage: ref.storage,
    env: options.env,
  });
  if (found.storage === 'jsonl') {
    if (!found.exists) {
      throw new Error(
        `Session ${ref.session}: sessions.json of agent ${found.agentId} names ${found.file}, which does not exist`,
      );
    }
    return readSessionFile(found.file, read);
  }
  return loadSqliteSession(found.file, found.agentId, sqliteTarget(found), {
    mode: options.mode,
    snapshot: options.snapshot,
  });
}
