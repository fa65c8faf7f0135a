/**
 * Finding OpenClaw sessions on disk, in both storages. The state dir is `options.stateDir`, else
 * `$OPENCLAW_STATE_DIR`, else `~/.openclaw`. Per agent (`agents/<agentId>/`):
 * - JSONL (OpenClaw up to 2026.7.x, and agents not migrated yet): `sessions/*.jsonl` plus `sessions.json`; reset
 *   archives (`*.jsonl.reset.<ts>`) are listed with `archived: true`;
 * - SQLite (2026.8+): `agent/openclaw-agent.sqlite` — logical sessions with their generations, and reset/deleted
 *   archives. A database whose agent schema has no transcript tables (schema 1) adds nothing; one ContextScope
 *   cannot read is reported on the agent (`databaseError`). A state dir with some agents migrated and some not
 *   lists both kinds.
 * Subagent children are linked to their parent: the store entry's `spawnedBy` (SQLite: the node's `spawned_by` /
 * `parent_session_key`), the `agent:<id>:subagent:<uuid>` key shape, the parent transcript's `sessions_spawn`
 * results naming the child key, the global database's `subagent_runs` and `subagents/runs.json`.
 */
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { discoverJsonlAgent, scanJsonlTranscript } from './discovery/jsonlDiscovery';
import { discoverSqliteAgent } from './discovery/sqliteDiscovery';
import type { DiscoveredAgent, DiscoveredSession, DiscoverOptions, DiscoveryResult } from './discovery/discoveryTypes';
import { stateDatabasePath } from './sqlite/agentDatabase';
import { readStateDatabase } from './sqlite/stateDatabase';
import { readSubagentRunsFile } from './discovery/subagentRunsFile';

export type {
  DiscoveredAgent,
  DiscoveredSession,
  DiscoverOptions,
  DiscoveryResult,
  SessionRef,
  SqliteSessionFacts,
  SqliteWindowSummary,
} from './discovery/discoveryTypes';

export function resolveStateDir(stateDir?: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = stateDir ?? env.OPENCLAW_STATE_DIR ?? join(homedir(), '.openclaw');
  return resolve(dir.startsWith('~') ? join(homedir(), dir.slice(1)) : dir);
}

async function listAgentIds(agentsDir: string): Promise<string[]> {
  try {
    return (await readdir(agentsDir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/** Both storages of one agent; null when it has neither a sessions folder nor an agent database. */
async function discoverAgent(
  stateDir: string,
  agentId: string,
  scanSpawns: boolean,
): Promise<{ agent: DiscoveredAgent; sessions: DiscoveredSession[] } | null> {
  const jsonl = await discoverJsonlAgent(join(stateDir, 'agents'), agentId);
  const agent: DiscoveredAgent = jsonl?.agent ?? {
    agentId,
    sessionsDir: join(stateDir, 'agents', agentId, 'sessions'),
    storeProblems: [],
    sessionCount: 0,
  };
  const sqlite = await discoverSqliteAgent(stateDir, agentId, agent, scanSpawns);
  if (!jsonl && agent.database === undefined) return null;
  const sessions = [...(jsonl?.sessions ?? []), ...sqlite];
  agent.sessionCount = sessions.length;
  return { agent, sessions };
}

/** Counts and spawns of the JSONL transcripts, one pass each. */
async function scanJsonlSessions(sessions: DiscoveredSession[], spawns: boolean, counts: boolean): Promise<void> {
  for (const s of sessions) {
    if (s.storage !== 'jsonl' || !s.exists) continue;
    const scan = await scanJsonlTranscript(s.file, {
      spawns: spawns && !s.archived,
      hasHeader: s.header !== undefined,
    });
    if (counts) {
      s.entries = scan.entries;
      s.messages = scan.messages;
      s.compactions = scan.compactions;
    }
    s.spawns = scan.spawns;
  }
}

/** Key lookup that prefers a session of the same agent and storage (a half-migrated agent has both). */
function keyIndex(sessions: DiscoveredSession[]) {
  const exact = new Map<string, DiscoveredSession>();
  const any = new Map<string, DiscoveredSession>();
  for (const s of sessions) {
    if (s.archived && s.storage === 'sqlite') continue; // archives are not what a key points at
    for (const k of s.keys) {
      exact.set(`${s.agentId}\0${s.storage}\0${k}`, s);
      if (!any.has(k)) any.set(k, s);
    }
  }
  return (key: string, near: DiscoveredSession) =>
    exact.get(`${near.agentId}\0${near.storage}\0${key}`) ?? any.get(key);
}

function linkSpawns(sessions: DiscoveredSession[], lookup: ReturnType<typeof keyIndex>): void {
  for (const parent of sessions) {
    if (!parent.exists || parent.archived) continue;
    for (const spawn of parent.spawns) {
      const child = spawn.childSessionKey ? lookup(spawn.childSessionKey, parent) : undefined;
      if (!child) continue;
      child.spawnedByCall = spawn;
      child.isSubagent = true;
      if (!child.parentKey && parent.key) child.parentKey = parent.key;
      if (!child.parentSessionId) child.parentSessionId = parent.sessionId;
    }
  }
}

function linkFamilies(sessions: DiscoveredSession[], lookup: ReturnType<typeof keyIndex>): void {
  for (const child of sessions) {
    const parent = child.parentKey ? lookup(child.parentKey, child) : undefined;
    if (parent) {
      child.parentSessionId ??= parent.sessionId;
      for (const key of child.keys) if (!parent.childKeys.includes(key)) parent.childKeys.push(key);
      if (!parent.childSessionIds.includes(child.sessionId)) parent.childSessionIds.push(child.sessionId);
    }
  }
  for (const s of sessions) s.parentSessionKey = s.parentKey ?? null;
}

/** `subagent_runs` of the global database: a child without a known parent gets the run's requester. */
async function linkSubagentRuns(
  stateDir: string,
  sessions: DiscoveredSession[],
  lookup: ReturnType<typeof keyIndex>,
): Promise<DiscoveryResult['stateDatabase']> {
  let state;
  try {
    state = await readStateDatabase(stateDatabasePath(stateDir));
  } catch (error) {
    return { path: stateDatabasePath(stateDir), schemaVersion: 0, subagentRuns: 0, problem: (error as Error).message };
  }
  if (!state) return undefined;
  const anySqlite = sessions.find((s) => s.storage === 'sqlite');
  for (const run of state.subagentRuns) {
    const child = anySqlite ? lookup(run.childSessionKey, anySqlite) : undefined;
    if (!child) continue;
    child.isSubagent = true;
    child.parentKey ??= run.requesterSessionKey;
  }
  return {
    path: state.path,
    schemaVersion: state.schemaVersion,
    subagentRuns: state.subagentRuns.length,
    ...(state.problem ? { problem: state.problem } : {}),
  };
}

/** `subagents/runs.json` (2026.7.x registry): a JSONL child without a known parent gets the run's requester. */
async function linkSubagentRunsFile(
  stateDir: string,
  sessions: DiscoveredSession[],
  lookup: ReturnType<typeof keyIndex>,
): Promise<DiscoveryResult['subagentRunsFile']> {
  const file = await readSubagentRunsFile(stateDir);
  if (!file) return undefined;
  const anyJsonl = sessions.find((s) => s.storage === 'jsonl');
  for (const run of file.runs) {
    const child = anyJsonl ? lookup(run.childSessionKey, anyJsonl) : undefined;
    if (!child) continue;
    child.isSubagent = true;
    child.parentKey ??= run.requesterSessionKey;
  }
  return { path: file.path, runs: file.runs.length, ...(file.problem ? { problem: file.problem } : {}) };
}

export async function discoverSessions(options: DiscoverOptions = {}): Promise<DiscoveryResult> {
  const stateDir = resolveStateDir(options.stateDir, options.env);
  const scanSpawns = options.scanSpawns !== false;
  const agents: DiscoveredAgent[] = [];
  const sessions: DiscoveredSession[] = [];
  for (const agentId of await listAgentIds(join(stateDir, 'agents'))) {
    const found = await discoverAgent(stateDir, agentId, scanSpawns);
    if (!found) continue;
    agents.push(found.agent);
    sessions.push(...found.sessions);
  }
  const counts = options.counts ?? scanSpawns;
  if (counts || scanSpawns) await scanJsonlSessions(sessions, scanSpawns, counts);
  const lookup = keyIndex(sessions);
  const stateDatabase = await linkSubagentRuns(stateDir, sessions, lookup);
  const subagentRunsFile = await linkSubagentRunsFile(stateDir, sessions, lookup);
  if (scanSpawns) linkSpawns(sessions, lookup);
  linkFamilies(sessions, lookup);
  return {
    stateDir,
    agents,
    sessions,
    ...(stateDatabase ? { stateDatabase } : {}),
    ...(subagentRunsFile ? { subagentRunsFile } : {}),
  };
}
