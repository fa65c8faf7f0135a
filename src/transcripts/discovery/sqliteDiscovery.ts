/**
 * SQLite sessions of one agent (`agents/<agentId>/agent/openclaw-agent.sqlite`): one DiscoveredSession per logical
 * session (node) with its generations, plus one per reset/deleted archive, all read from one snapshot of the
 * database; spawns come from the rows that mention `sessions_spawn`. A database ContextScope cannot read is
 * reported on the agent (`databaseError`), never thrown, so the rest of the state dir is still listed.
 */
import { existsSync, statSync } from 'node:fs';
import type { SessionEntry, SessionStoreEntry } from '../../contract';
import { errorMessage } from '../../common/errorText';
import { isSubagentSessionKey } from '../sessionStore';
import { SpawnCollector, type SpawnRecord } from '../spawnRecords';
import { agentDatabasePath, withAgentDatabase } from '../sqlite/agentDatabase';
import type { SqliteArchive, SqliteLogicalSession } from '../sqlite/agentSessions';
import { spawnCandidateRows } from '../sqlite/transcriptRows';
import type { DiscoveredAgent, DiscoveredSession } from './discoveryTypes';

interface SqliteListing {
  sessions: SqliteLogicalSession[];
  archives: SqliteArchive[];
  spawns: Map<string, SpawnRecord[]>;
}

function emptySession(agentId: string, stateDir: string, database: string, sessionId: string): DiscoveredSession {
  return {
    agentId,
    sessionId,
    storage: 'sqlite',
    sessionKey: null,
    parentSessionKey: null,
    entries: null,
    messages: null,
    compactions: null,
    ref: { stateDir, agentId, storage: 'sqlite', session: sessionId },
    file: database,
    exists: true,
    size: 0,
    mtimeMs: 0,
    keys: [],
    isSubagent: false,
    archived: false,
    childKeys: [],
    childSessionIds: [],
    spawns: [],
  };
}

function fromLogical(
  s: SqliteLogicalSession,
  agentId: string,
  stateDir: string,
  database: string,
  schemaVersion: number,
): DiscoveredSession {
  const current = s.windows[s.windows.length - 1];
  const node = s.node;
  const session = emptySession(
    agentId,
    stateDir,
    database,
    current?.sessionId ?? node?.currentSessionId ?? s.sessionKey,
  );
  const parentKey = node?.spawnedBy ?? node?.parentSessionKey ?? current?.spawnedBy ?? current?.parentSessionKey;
  Object.assign(session, {
    sessionKey: s.sessionKey,
    entries: s.entries,
    messages: s.messages,
    compactions: s.compactions,
    ref: { stateDir, agentId, storage: 'sqlite', session: s.sessionKey },
    exists: s.windows.some((w) => w.storage !== 'empty'),
    size: s.windows.reduce((n, w) => n + w.bytes, 0),
    mtimeMs: node?.updatedAt ?? current?.updatedAt ?? 0,
    keys: [s.sessionKey],
    key: s.sessionKey,
    isSubagent: isSubagentSessionKey(s.sessionKey) || Boolean(node?.spawnedBy),
    archived: node?.archivedAt !== null && node?.archivedAt !== undefined,
    ...(node?.entry ? { storeEntry: node.entry as unknown as SessionStoreEntry } : {}),
    ...(current?.header ? { header: current.header } : { headerError: 'the current generation has no header row' }),
    ...(parentKey ? { parentKey } : {}),
  });
  session.sqlite = {
    database,
    schemaVersion,
    windows: s.windows.map((w) => ({
      sessionId: w.sessionId,
      previousSessionId: w.previousSessionId,
      reason: w.reason,
      createdAt: w.createdAt,
      events: w.events,
      messages: w.messages,
      storage: w.storage,
      headerVersion: w.header?.version ?? null,
    })),
    forkSource: node?.forkSource ?? null,
    forks: [],
    status: node?.status ?? null,
    label: node?.label ?? null,
    displayName: node?.displayName ?? null,
  };
  return session;
}

function fromArchive(
  a: SqliteArchive,
  agentId: string,
  stateDir: string,
  database: string,
  schemaVersion: number,
): DiscoveredSession {
  const session = emptySession(agentId, stateDir, database, a.sessionId);
  Object.assign(session, {
    sessionKey: a.sessionKey,
    ref: { stateDir, agentId, storage: 'sqlite', session: a.archiveName },
    size: a.bytes,
    mtimeMs: a.createdAt,
    archived: true,
    isSubagent: isSubagentSessionKey(a.sessionKey),
  });
  session.sqlite = {
    database,
    schemaVersion,
    windows: [],
    forkSource: null,
    forks: [],
    status: null,
    label: null,
    displayName: null,
    archive: {
      name: a.archiveName,
      reason: a.reason,
      generation: a.generation,
      createdAt: a.createdAt,
      bytes: a.bytes,
    },
  };
  return session;
}

/** A fork names its source by key (or session id); the source lists its forks. */
function linkForks(sessions: DiscoveredSession[]): void {
  for (const fork of sessions) {
    const source = fork.sqlite?.forkSource;
    if (!source) continue;
    const from = sessions.find(
      (s) =>
        (source.sessionKey !== null && s.sessionKey === source.sessionKey) ||
        (source.sessionId !== null && s.sqlite?.windows.some((w) => w.sessionId === source.sessionId)),
    );
    if (from && fork.sessionKey && !from.sqlite!.forks.includes(fork.sessionKey))
      from.sqlite!.forks.push(fork.sessionKey);
  }
}

/**
 * The SQLite sessions of an agent. `agent` is the JSONL side's record when the agent has one (the database facts
 * are added to it), else a new record is returned.
 */
export async function discoverSqliteAgent(
  stateDir: string,
  agentId: string,
  agent: DiscoveredAgent,
  scanSpawns: boolean,
): Promise<DiscoveredSession[]> {
  const database = agentDatabasePath(stateDir, agentId);
  if (!existsSync(database) || !statSync(database).isFile()) return [];
  agent.database = database;
  let read;
  try {
    read = await withAgentDatabase(database, agentId, ({ db, ctx, index }): SqliteListing => {
      const spawns = new Map<string, SpawnRecord[]>();
      if (scanSpawns) {
        for (const s of index.sessions) {
          const collector = new SpawnCollector();
          for (const w of s.windows.filter((x) => x.storage === 'rows')) {
            for (const row of spawnCandidateRows(db, ctx.schema, database, w.sessionId)) {
              const entry = JSON.parse(row.text) as SessionEntry;
              if (entry?.type === 'message' && typeof entry.id === 'string') collector.addEntry(entry);
            }
          }
          spawns.set(s.sessionKey, collector.records);
        }
      }
      return { sessions: index.sessions, archives: index.archives, spawns };
    });
  } catch (error) {
    agent.databaseError = errorMessage(error);
    return [];
  }
  agent.schemaVersion = read.schema.userVersion;
  agent.openclawVersion = read.schema.meta?.appVersion ?? null;
  if (!read.value) return [];
  const { sessions, archives, spawns } = read.value;
  const found = sessions.map((s) => fromLogical(s, agentId, stateDir, database, read.schema.userVersion));
  for (const s of found) s.spawns = spawns.get(s.sessionKey!) ?? [];
  linkForks(found);
  found.push(...archives.map((a) => fromArchive(a, agentId, stateDir, database, read.schema.userVersion)));
  return found;
}
