/**
 * Finding OpenClaw sessions on disk: `<stateDir>/agents/<agentId>/sessions/*.jsonl` plus each directory's
 * `sessions.json`. The state dir is `options.stateDir`, else `$OPENCLAW_STATE_DIR`, else `~/.openclaw`.
 * Subagent children are linked to their parent three ways: the store entry's `spawnedBy` (parent key), the
 * `agent:<id>:subagent:<uuid>` key shape, and the parent transcript's `sessions_spawn` results naming the
 * child key. Reset archives (`*.jsonl.reset.<ts>`) are listed with `archived: true`.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { SessionStoreEntry } from '../contract';
import { readLines } from './readLines';
import { isSubagentSessionKey, readSessionStore } from './sessionStore';
import { SpawnCollector, type SpawnRecord } from './spawnRecords';
import type { SessionEntry } from '../contract';

export interface DiscoveredSession {
  agentId: string;
  sessionId: string;
  /** absolute path of the transcript */
  file: string;
  /** false when sessions.json names a file that is not there */
  exists: boolean;
  size: number;
  mtimeMs: number;
  /** store keys pointing at this session (usually one) */
  keys: string[];
  /** first of `keys`, for display */
  key?: string;
  storeEntry?: SessionStoreEntry;
  /** header fields, when the first line is a session header */
  header?: { id: string; timestamp: string; cwd: string; parentSession?: string; version?: number };
  headerError?: string;
  isSubagent: boolean;
  archived: boolean;
  parentKey?: string;
  parentSessionId?: string;
  childKeys: string[];
  childSessionIds: string[];
  /** spawns this session's transcript records (parent side) */
  spawns: SpawnRecord[];
  /** the spawn in the parent transcript that created this session (child side) */
  spawnedByCall?: SpawnRecord;
}

export interface DiscoveredAgent {
  agentId: string;
  sessionsDir: string;
  storePath?: string;
  storeProblems: { key: string; message: string }[];
  storeError?: string;
  sessionCount: number;
}

export interface DiscoveryResult {
  stateDir: string;
  agents: DiscoveredAgent[];
  sessions: DiscoveredSession[];
}

export interface DiscoverOptions {
  stateDir?: string;
  /** scan transcripts for `sessions_spawn` calls (reads every transcript once); default true */
  scanSpawns?: boolean;
  env?: NodeJS.ProcessEnv;
}

export function resolveStateDir(stateDir?: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = stateDir ?? env.OPENCLAW_STATE_DIR ?? join(homedir(), '.openclaw');
  return resolve(dir.startsWith('~') ? join(homedir(), dir.slice(1)) : dir);
}

const TRANSCRIPT_NAME = /^(.+)\.jsonl(\.reset\..+)?$/;

async function readHeader(file: string): Promise<Pick<DiscoveredSession, 'header' | 'headerError'>> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    const firstLine = text.split('\n').find((l) => l.trim() !== '');
    if (!firstLine) return { headerError: 'empty file' };
    const parsed = JSON.parse(firstLine) as Record<string, unknown>;
    if (parsed?.type !== 'session' || typeof parsed.id !== 'string')
      return { headerError: 'first line is not a session header' };
    return {
      header: {
        id: parsed.id,
        timestamp: String(parsed.timestamp ?? ''),
        cwd: String(parsed.cwd ?? ''),
        ...(typeof parsed.parentSession === 'string' ? { parentSession: parsed.parentSession } : {}),
        ...(typeof parsed.version === 'number' ? { version: parsed.version } : {}),
      },
    };
  } catch (error) {
    return { headerError: `first line is not a session header (${(error as Error).message.slice(0, 120)})` };
  } finally {
    await handle.close();
  }
}

async function scanSpawns(file: string): Promise<SpawnRecord[]> {
  const collector = new SpawnCollector();
  await readLines(file, (line) => {
    if (!line.includes('sessions_spawn')) return;
    try {
      const entry = JSON.parse(line) as SessionEntry;
      if (entry && entry.type === 'message' && typeof entry.id === 'string') collector.addEntry(entry);
    } catch {
      // malformed lines are the loader's business, not discovery's
    }
  });
  return collector.records;
}

export async function discoverSessions(options: DiscoverOptions = {}): Promise<DiscoveryResult> {
  const stateDir = resolveStateDir(options.stateDir, options.env);
  const agentsDir = join(stateDir, 'agents');
  const agents: DiscoveredAgent[] = [];
  const sessions: DiscoveredSession[] = [];
  let agentNames: string[];
  try {
    agentNames = (await readdir(agentsDir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    return { stateDir, agents, sessions };
  }

  for (const agentId of agentNames) {
    const sessionsDir = join(agentsDir, agentId, 'sessions');
    let names: string[];
    try {
      names = (await readdir(sessionsDir)).sort();
    } catch {
      continue;
    }
    const agent: DiscoveredAgent = { agentId, sessionsDir, storeProblems: [], sessionCount: 0 };
    agents.push(agent);
    const byFile = new Map<string, DiscoveredSession>();

    for (const name of names) {
      const match = TRANSCRIPT_NAME.exec(name);
      if (!match) continue;
      const file = join(sessionsDir, name);
      const info = await stat(file);
      if (!info.isFile()) continue;
      const session: DiscoveredSession = {
        agentId,
        sessionId: match[1]!,
        file,
        exists: true,
        size: info.size,
        mtimeMs: info.mtimeMs,
        keys: [],
        isSubagent: false,
        archived: match[2] !== undefined,
        childKeys: [],
        childSessionIds: [],
        spawns: [],
        ...(await readHeader(file)),
      };
      byFile.set(file, session);
    }

    if (names.includes('sessions.json')) {
      agent.storePath = join(sessionsDir, 'sessions.json');
      try {
        const { store, problems } = await readSessionStore(agent.storePath);
        agent.storeProblems = problems;
        for (const [key, entry] of Object.entries(store)) {
          const file = entry.sessionFile
            ? isAbsolute(entry.sessionFile)
              ? entry.sessionFile
              : join(sessionsDir, entry.sessionFile)
            : join(sessionsDir, `${entry.sessionId}.jsonl`);
          let session =
            byFile.get(file) ?? [...byFile.values()].find((s) => !s.archived && s.sessionId === entry.sessionId);
          if (!session) {
            session = {
              agentId,
              sessionId: entry.sessionId,
              file,
              exists: false,
              size: 0,
              mtimeMs: 0,
              keys: [],
              isSubagent: false,
              archived: false,
              childKeys: [],
              childSessionIds: [],
              spawns: [],
            };
            byFile.set(file, session);
          }
          session.keys.push(key);
          session.key ??= key;
          session.storeEntry ??= entry;
          if (isSubagentSessionKey(key)) session.isSubagent = true;
          if (typeof entry.spawnedBy === 'string' && !session.parentKey) session.parentKey = entry.spawnedBy;
        }
      } catch (error) {
        agent.storeError = (error as Error).message;
      }
    }
    const agentSessions = [...byFile.values()];
    agent.sessionCount = agentSessions.length;
    sessions.push(...agentSessions);
  }

  const byKey = new Map<string, DiscoveredSession>();
  for (const s of sessions) for (const k of s.keys) byKey.set(k, s);

  if (options.scanSpawns !== false) {
    for (const parent of sessions) {
      if (!parent.exists || parent.archived) continue;
      parent.spawns = await scanSpawns(parent.file);
      for (const spawn of parent.spawns) {
        const child = spawn.childSessionKey ? byKey.get(spawn.childSessionKey) : undefined;
        if (!child) continue;
        child.spawnedByCall = spawn;
        child.isSubagent = true;
        if (!child.parentKey && parent.key) child.parentKey = parent.key;
        if (!child.parentSessionId) child.parentSessionId = parent.sessionId;
      }
    }
  }

  for (const child of sessions) {
    const parent = child.parentKey ? byKey.get(child.parentKey) : undefined;
    if (!parent) continue;
    child.parentSessionId ??= parent.sessionId;
    for (const key of child.keys) if (!parent.childKeys.includes(key)) parent.childKeys.push(key);
    if (!parent.childSessionIds.includes(child.sessionId)) parent.childSessionIds.push(child.sessionId);
  }
  return { stateDir, agents, sessions };
}
