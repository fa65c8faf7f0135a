/**
 * OpenClaw session transcript (JSONL v3) shapes (behaviour §11.3). Line 1 is the header, every later line an entry.
 */
import type { AgentMessage, TextContent, ImageContent } from './messages';

export const CURRENT_SESSION_VERSION = 3;

export interface SessionHeader {
  type: 'session';
  version: number;
  id: string;
  /** ISO timestamp */
  timestamp: string;
  cwd: string;
  parentSession?: string;
  [extra: string]: unknown;
}

interface EntryBase {
  id: string;
  parentId: string | null;
  /** ISO timestamp */
  timestamp: string;
  appendMode?: 'side';
  [extra: string]: unknown;
}

export interface MessageEntry extends EntryBase {
  type: 'message';
  message: AgentMessage;
}
export interface ThinkingLevelChangeEntry extends EntryBase {
  type: 'thinking_level_change';
  thinkingLevel: string;
}
export interface ModelChangeEntry extends EntryBase {
  type: 'model_change';
  provider: string;
  modelId: string;
}
export interface CompactionEntry extends EntryBase {
  type: 'compaction';
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: CompactionDetails | unknown;
  fromHook?: boolean;
}
export interface CompactionDetails {
  readFiles?: string[];
  modifiedFiles?: string[];
  latestUnresolvedUserRequest?: string;
  [extra: string]: unknown;
}
export type ResetReason = 'new' | 'reset' | 'idle' | 'daily' | 'cron-stale';
export interface ResetEntry extends EntryBase {
  type: 'reset';
  reason: ResetReason;
  firstKeptEntryId?: string;
}
export interface BranchSummaryEntry extends EntryBase {
  type: 'branch_summary';
  fromId: string;
  summary: string;
  details?: unknown;
  fromHook?: boolean;
}
/** Extension state; never enters context. */
export interface CustomEntry extends EntryBase {
  type: 'custom';
  customType: string;
  data?: unknown;
}
/** Extension message; enters context as a `custom` message. */
export interface CustomMessageEntry extends EntryBase {
  type: 'custom_message';
  customType: string;
  content: string | (TextContent | ImageContent)[];
  details?: unknown;
  display: boolean;
}
export interface LabelEntry extends EntryBase {
  type: 'label';
  targetId: string;
  label: string;
}
export interface SessionInfoEntry extends EntryBase {
  type: 'session_info';
  name?: string;
}
/** Moves the active leaf. */
export interface LeafEntry extends EntryBase {
  type: 'leaf';
  targetId: string | null;
  appendParentId?: string;
}

export type SessionEntry =
  | MessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | CompactionEntry
  | ResetEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | SessionInfoEntry
  | LeafEntry;

export type SessionEntryType = SessionEntry['type'];

/** The entry types OpenClaw writes into a transcript (`leaf` moves are ContextScope's own bookkeeping). */
export const OPENCLAW_ENTRY_TYPES: readonly SessionEntryType[] = [
  'message',
  'thinking_level_change',
  'model_change',
  'compaction',
  'reset',
  'branch_summary',
  'custom',
  'custom_message',
  'label',
  'session_info',
];

/** `sessions.json`: session key -> entry (only the fields ContextScope reads are typed). */
export interface SessionStoreEntry {
  sessionId: string;
  sessionFile?: string;
  updatedAt?: number;
  spawnedBy?: string;
  forkedFromParent?: boolean;
  [extra: string]: unknown;
}
export type SessionStore = Record<string, SessionStoreEntry>;

/** Fields an appended entry gets from the transcript (id, parentId, timestamp). */
export type NewSessionEntry = SessionEntry extends infer E
  ? E extends SessionEntry
    ? Omit<E, 'id' | 'parentId' | 'timestamp'> & { timestamp?: string }
    : never
  : never;

/**
 * A live, mutable session transcript: what the built-in compaction and the replay host read and append to.
 * Implemented by src/transcripts (in memory, optionally mirrored to a JSONL file on disk).
 */
export interface SessionTranscriptHandle {
  readonly sessionId: string;
  /** path of the JSONL file mirroring this transcript, when there is one */
  readonly sessionFile?: string;
  readonly header: SessionHeader;
  /** entries on the active branch, root first */
  activePath(): SessionEntry[];
  /** id of the current leaf (null for an empty transcript) */
  leafId(): string | null;
  /** appends an entry as a child of the current leaf (assigning id, parentId, timestamp) and returns it */
  appendEntry(entry: NewSessionEntry): SessionEntry;
}
