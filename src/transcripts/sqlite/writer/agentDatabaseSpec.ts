/** What {@link writeAgentDatabase} writes: the logical sessions of one agent, their generations, and archives. */
import type { SessionEntry, SessionHeader } from '../../../contract';

export interface TrajectoryEventSpec {
  runId: string | null;
  /** the trajectory event (`{traceSchema: "openclaw-trajectory", type: "model.completed", ...}`) */
  event: Record<string, unknown>;
  createdAt: number;
}

/** One transcript generation (a `session_windows` row and its events). */
export interface SqliteWindowSpec {
  header: SessionHeader;
  entries: readonly SessionEntry[];
  createdAt: number;
  updatedAt: number;
  reason?: string | null;
  previousSessionId?: string | null;
  sessionScope?: 'conversation' | 'shared-main' | 'group' | 'channel';
  chatType?: string | null;
  displayName?: string | null;
  parentSessionKey?: string | null;
  spawnedBy?: string | null;
  modelProvider?: string | null;
  model?: string | null;
  trajectory?: readonly TrajectoryEventSpec[];
  /** store the events in a cold archive file (`sessions/cold/<sha256>.jsonl.zst`) instead of rows */
  cold?: boolean;
}

/** One logical session (a `session_nodes` row); its last window is the current generation. */
export interface SqliteSessionSpec {
  sessionKey: string;
  /** the session entry stored as `entry_json` */
  entry: Record<string, unknown>;
  windows: readonly SqliteWindowSpec[];
  updatedAt: number;
  parentSessionKey?: string | null;
  spawnedBy?: string | null;
  forkSource?: { sessionKey: string | null; sessionId: string | null; entryId: string | null } | null;
  label?: string | null;
  displayName?: string | null;
  status?: string | null;
  archivedAt?: number | null;
}

/** A reset or deleted generation kept as a whole JSONL text (`session_transcript_archives`). */
export interface SqliteArchiveSpec {
  sessionId: string;
  sessionKey: string;
  generation: string;
  reason: 'reset' | 'deleted';
  /** the archived transcript, JSONL */
  text: string;
  encoding: 'identity' | 'zstd';
  createdAt: number;
  /** default `<sessionId>.jsonl.<reason>.<createdAt>` */
  archiveName?: string;
}

export interface AgentDatabaseSpec {
  agentId: string;
  sessions: readonly SqliteSessionSpec[];
  archives?: readonly SqliteArchiveSpec[];
  /** `schema_meta.app_version` (default `contextscope`) */
  appVersion?: string;
  createdAt: number;
}
