/**
 * A generated set as OpenClaw 2026.9.6 stores it (what `openclaw doctor --session-sqlite import` makes of the
 * JSONL set): `agents/<agentId>/agent/openclaw-agent.sqlite` with one node and one window per session (the store
 * entry without `sessionFile`, plus `delivery: {kind: "none"}`), compressed rows by OpenClaw's rule, and
 * `state/openclaw.sqlite` registering the database and the accepted subagent runs. Each session also gets
 * trajectory rows (generatedTrajectory.ts), which an import would not make.
 */
import { existsSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import type { SessionStoreEntry } from '../../contract';
import { collectSpawnRecords } from '../spawnRecords';
import { agentDatabasePath, stateDatabasePath } from '../sqlite/agentDatabase';
import { openSqliteDatabase } from '../sqlite/sqliteDriver';
import type { SqliteSessionSpec } from '../sqlite/writer/agentDatabaseSpec';
import type { WritableAgentSchema } from '../sqlite/writer/agentDdl';
import { writeAgentDatabase } from '../sqlite/writer/writeAgentDatabase';
import { writeStateDatabase } from '../sqlite/writer/writeStateDatabase';
import { generatedTrajectory } from './generatedTrajectory';
import type { GeneratedSession, GeneratedSessionSet } from './generatedTypes';

export interface WrittenSqliteSet {
  database: string;
  stateDatabase: string;
  sessionKeys: string[];
  events: number;
  compressedEvents: number;
}

function importedEntry(store: SessionStoreEntry, spawnedBy: string | undefined): Record<string, unknown> {
  const entry: Record<string, unknown> = { ...store };
  delete entry.sessionFile;
  if (spawnedBy !== undefined) entry.spawnedBy = spawnedBy;
  return { ...entry, delivery: { kind: 'none' } };
}

function sessionSpec(session: GeneratedSession, key: string, spawnedBy: string | undefined): SqliteSessionSpec {
  const entry = importedEntry(session.storeEntry, spawnedBy);
  const updatedAt = session.storeEntry.updatedAt ?? Date.parse(session.header.timestamp);
  const label = typeof session.storeEntry.label === 'string' ? session.storeEntry.label : null;
  return {
    sessionKey: key,
    entry,
    updatedAt,
    parentSessionKey: spawnedBy ?? null,
    spawnedBy: spawnedBy ?? null,
    label,
    windows: [
      {
        header: session.header,
        entries: session.entries,
        createdAt: updatedAt,
        updatedAt,
        chatType: typeof entry.chatType === 'string' ? entry.chatType : null,
        displayName: label,
        spawnedBy: spawnedBy ?? null,
        trajectory: generatedTrajectory(session.header, session.entries, key),
      },
    ],
  };
}

/** Keys already in a database ContextScope wrote before, with their current session ids. */
function existingKeys(path: string): Map<string, string> {
  const keys = new Map<string, string>();
  if (!existsSync(path)) return keys;
  const db = openSqliteDatabase(path, { readOnly: true });
  try {
    for (const r of db.prepare('SELECT session_key, current_session_id FROM session_nodes').all())
      keys.set(String(r.session_key), String(r.current_session_id));
  } finally {
    db.close();
  }
  return keys;
}

export function writeGeneratedSqlite(
  set: GeneratedSessionSet,
  outDir: string,
  schemaVersion: WritableAgentSchema = 23,
): WrittenSqliteSet {
  const database = agentDatabasePath(outDir, set.agentId);
  const parent = set.sessions[0]!;
  // A second generated parent under a key another session holds gets a fresh key; its children follow it.
  const taken = existingKeys(database).get(parent.sessionKey);
  const parentKey =
    taken && taken !== parent.sessionId
      ? `agent:${set.agentId}:generated:${parent.sessionId.slice(0, 8)}`
      : parent.sessionKey;
  const keyOf = (s: GeneratedSession) => (s === parent ? parentKey : s.sessionKey);
  const spawnedByOf = (s: GeneratedSession) =>
    s.storeEntry.spawnedBy === parent.sessionKey ? parentKey : s.storeEntry.spawnedBy;
  const sessions = set.sessions.map((s) => sessionSpec(s, keyOf(s), spawnedByOf(s)));
  const createdAt = Date.parse(parent.header.timestamp);
  const counts = writeAgentDatabase(database, { agentId: set.agentId, sessions, createdAt }, { schemaVersion });
  const childKeys = new Set(set.sessions.slice(1).map((s) => s.sessionKey));
  const runs = collectSpawnRecords(parent.entries)
    .filter((r) => r.status === 'accepted' && r.runId && r.childSessionKey && childKeys.has(r.childSessionKey))
    .map((r) => {
      const child = set.sessions.find((s) => s.sessionKey === r.childSessionKey)!;
      return {
        runId: r.runId!,
        childSessionKey: r.childSessionKey!,
        requesterSessionKey: parentKey,
        createdAt: Date.parse(child.header.timestamp),
        payload: {
          task: r.arguments.task,
          label: r.arguments.label,
          mode: r.arguments.mode,
          execution: { status: 'done' },
        },
      };
    });
  const stateDatabase = stateDatabasePath(outDir);
  writeStateDatabase(stateDatabase, {
    createdAt,
    agentDatabases: [
      { agentId: set.agentId, path: relative(outDir, database), schemaVersion, sizeBytes: statSync(database).size },
    ],
    subagentRuns: runs,
  });
  return {
    database,
    stateDatabase,
    sessionKeys: sessions.map((s) => s.sessionKey),
    events: counts.events,
    compressedEvents: counts.compressed,
  };
}
