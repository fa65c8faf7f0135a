/** The generator's public types (one module below both the parent and the child generators, so neither imports the other). */
import type { SessionEntry, SessionHeader, SessionStore, SessionStoreEntry } from '../../contract';

export interface GenerateSessionOptions {
  /** user turns on the parent's active branch */
  turns: number;
  seed: number | string;
  /** default "main" */
  agentId?: string;
  /** store key of the parent session (default `agent:<agentId>:main`) */
  sessionKey?: string;
  /** number of `sessions_spawn` calls (default 0); with 2 or more, the last one fails */
  subagents?: number;
  /** simulated model context window for the compaction trigger (default 200000) */
  contextWindow?: number;
  /** default: OpenClaw's effective reserve for the window (20000, capped to leave 8000 for the prompt) */
  reserveTokens?: number;
  /** default: min(20000, (window − reserve) / 2) */
  keepRecentTokens?: number;
  /** record compactions (default true) */
  compaction?: boolean;
  /** add an abandoned side branch (default: when turns ≥ 6) */
  branch?: boolean;
  /** add image blocks (default true) */
  images?: boolean;
  /** ISO start time (default 2026-03-02T09:00:00.000Z) */
  baseTimestamp?: string;
  cwd?: string;
}

export interface GeneratedSession {
  sessionKey: string;
  sessionId: string;
  /** file name inside the sessions directory */
  fileName: string;
  header: SessionHeader;
  entries: SessionEntry[];
  storeEntry: SessionStoreEntry;
}

export interface GeneratedSessionStats {
  turns: number;
  /** message entries in the parent transcript (all branches) */
  messages: number;
  /** characters of the parent transcript file */
  chars: number;
  entries: number;
  compactions: number;
  spawns: number;
  failedSpawns: number;
  branches: number;
  childSessions: number;
}

export interface GeneratedSessionSet {
  agentId: string;
  /** parent first, then children in spawn order */
  sessions: GeneratedSession[];
  store: SessionStore;
  stats: GeneratedSessionStats;
}

/** A `sessions_spawn` the parent made, waiting for its child session to be generated. */
export interface PendingChild {
  key: string;
  sessionId: string;
  task: string;
  label: string;
  context: 'fork' | 'isolated';
  forkPath?: SessionEntry[];
  startMs: number;
}
