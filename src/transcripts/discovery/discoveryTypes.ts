/** What discovery reports about a state dir's sessions, for both storages. */
import type { SessionStoreEntry } from '../../contract';
import type { SpawnRecord } from '../spawnRecords';

/**
 * What {@link loadSession} takes: a JSONL transcript path, or a session of a state dir by key, session id (any
 * generation of a SQLite session), archive name or transcript file name; `agentId` and `storage` narrow where the
 * name is looked up (a SQLite session locator names one agent's database: only its sessions).
 */
export type SessionRef = string | { stateDir: string; agentId?: string; storage?: 'jsonl' | 'sqlite'; session: string };

export interface SqliteWindowSummary {
  sessionId: string;
  previousSessionId: string | null;
  reason: string | null;
  createdAt: number;
  /** rows including the header */
  events: number;
  messages: number | null;
  storage: 'rows' | 'cold' | 'empty';
  headerVersion: number | null;
}

/** SQLite-only facts of a discovered session. */
export interface SqliteSessionFacts {
  database: string;
  schemaVersion: number;
  /** the generations, oldest first (the last is current) */
  windows: SqliteWindowSummary[];
  /** the session (and entry) this one was forked from (`session_nodes.fork_source_*`) */
  forkSource: { sessionKey: string | null; sessionId: string | null; entryId: string | null } | null;
  /** keys of the sessions forked from this one */
  forks: string[];
  status: string | null;
  label: string | null;
  displayName: string | null;
  /** set for a reset/deleted archive */
  archive?: { name: string; reason: string; generation: string; createdAt: number; bytes: number };
}

export interface DiscoveredSession {
  agentId: string;
  /** the session id (for SQLite: the current generation's) */
  sessionId: string;
  /** how the session is stored */
  storage: 'jsonl' | 'sqlite';
  /** the store key (null when no sessions.json / session node names it) */
  sessionKey: string | null;
  /** the session that spawned this one (null for a root session) */
  parentSessionKey: string | null;
  /** entries (for JSONL: the non-blank lines after the header) and message entries; null when not counted */
  entries: number | null;
  messages: number | null;
  /** compaction entries (all generations); null when not counted */
  compactions: number | null;
  /** what to pass to loadSession */
  ref: SessionRef;
  /** JSONL: absolute path of the transcript; SQLite: the agent database */
  file: string;
  /** false when the store names a transcript that is not there (SQLite: a key without events) */
  exists: boolean;
  /** bytes of the transcript (SQLite: of its events) */
  size: number;
  mtimeMs: number;
  /** store keys pointing at this session (usually one) */
  keys: string[];
  /** first of `keys`, for display */
  key?: string;
  storeEntry?: SessionStoreEntry;
  /** header fields, when the first line (SQLite: seq 0 of the current generation) is a session header */
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
  sqlite?: SqliteSessionFacts;
}

export interface DiscoveredAgent {
  agentId: string;
  sessionsDir: string;
  storePath?: string;
  storeProblems: { key: string; message: string }[];
  storeError?: string;
  sessionCount: number;
  /** the agent database, when there is one */
  database?: string;
  /** its agent schema version and the OpenClaw that wrote it */
  schemaVersion?: number;
  openclawVersion?: string | null;
  /** why the database was not read (unsupported schema, not a database …); its JSONL sessions are still listed */
  databaseError?: string;
}

export interface DiscoveryResult {
  stateDir: string;
  agents: DiscoveredAgent[];
  sessions: DiscoveredSession[];
  /** the global database's facts used for linking, when there is one */
  stateDatabase?: { path: string; schemaVersion: number; subagentRuns: number; problem?: string };
  /** `subagents/runs.json` (the 2026.7.x subagent registry), when there is one */
  subagentRunsFile?: { path: string; runs: number; problem?: string };
}

export interface DiscoverOptions {
  stateDir?: string;
  /** scan transcripts for `sessions_spawn` calls (reads every transcript once); default true */
  scanSpawns?: boolean;
  /** count JSONL entries and messages (in the same pass); default: as scanSpawns. SQLite counts are always given */
  counts?: boolean;
  env?: NodeJS.ProcessEnv;
}
