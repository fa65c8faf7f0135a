/**
 * `openclaw/plugin-sdk/session-transcript-runtime` (the read side of OpenClaw 2026.9.6's module) and the
 * transcript reads of `openclaw/plugin-sdk/session-store-runtime`, backed by JSONL transcript files: in a replay
 * lane, the lane's own transcript. Every call reads the file as it is now (appends since the last call are read
 * incrementally). Results are fresh copies: an engine may change them without changing what later reads return.
 */
import { normalizeAgentId, parseTranscriptTarget } from './transcriptTarget';
import {
  readRawDelta,
  readVisibleMessageDelta,
  type RawDeltaResult,
  type VisibleMessageDeltaResult,
} from './transcriptDeltas';
import { readTranscriptFile, type TranscriptFileSnapshot } from './transcriptFile';
import { locateTranscript, type SessionTranscriptRegistry, type TranscriptTarget } from './transcriptLocator';
import { visibleMessageEntries, type SessionTranscriptMessageEntry } from './visibleMessages';

export const SESSION_TRANSCRIPT_RUNTIME = 'openclaw/plugin-sdk/session-transcript-runtime';
export const SESSION_STORE_RUNTIME = 'openclaw/plugin-sdk/session-store-runtime';

export interface SessionTranscriptIdentity {
  agentId: string;
  memoryKey: string;
  sessionId: string;
  sessionKey: string | undefined;
}

export interface SessionTranscriptRuntime {
  readVisibleSessionTranscriptMessageEntries(params: unknown): Promise<SessionTranscriptMessageEntry[]>;
  readSessionTranscriptVisibleMessageDelta(params: unknown): Promise<VisibleMessageDeltaResult>;
  readSessionTranscriptRawDelta(params: unknown): Promise<RawDeltaResult>;
  readSessionTranscriptEvents(params: unknown): Promise<unknown[]>;
  resolveSessionTranscriptIdentity(params: unknown): Promise<SessionTranscriptIdentity>;
  resolveSessionTranscriptTarget(
    params: unknown,
  ): Promise<SessionTranscriptIdentity & { targetKind: 'runtime-session' }>;
  formatSessionTranscriptMemoryHitKey(params: { agentId?: string; sessionId: string }): string;
  parseSessionTranscriptMemoryHitKey(key: string): { agentId: string; key: string; sessionId: string } | null;
}

export interface SessionStoreTranscriptRuntime {
  loadTranscriptEventsSync(params: unknown): unknown[];
  readTranscriptStatsSync(params: unknown): { eventCount: number; maxSeq: number; sizeBytes: number };
}

function keySegment(value: string | undefined, label: string): string {
  const trimmed = value?.trim();
  if (!trimmed) throw new Error(`Cannot build session transcript memory hit key without ${label}.`);
  return encodeURIComponent(trimmed);
}

/** OpenClaw's `transcript:<agentId>:<sessionId>` memory hit key (segments URI-encoded). */
export function formatSessionTranscriptMemoryHitKey(params: { agentId?: string; sessionId: string }): string {
  return `transcript:${keySegment(normalizeAgentId(params.agentId), 'agentId')}:${keySegment(params.sessionId, 'sessionId')}`;
}

function decodeSegment(value: string): string | null {
  try {
    return decodeURIComponent(value).trim() || null;
  } catch {
    return null;
  }
}

export function parseSessionTranscriptMemoryHitKey(
  key: string,
): { agentId: string; key: string; sessionId: string } | null {
  const parts = String(key).split(':');
  if (parts.length !== 3 || parts[0] !== 'transcript') return null;
  const agentId = decodeSegment(parts[1] ?? '');
  const sessionId = decodeSegment(parts[2] ?? '');
  if (!agentId || !sessionId) return null;
  return {
    agentId: normalizeAgentId(agentId),
    key: formatSessionTranscriptMemoryHitKey({ agentId, sessionId }),
    sessionId,
  };
}

/** Reads transcripts for the engines of one engine host. */
class TranscriptReader {
  constructor(private readonly registry: SessionTranscriptRegistry) {}

  target(module: string, fn: string, params: unknown): TranscriptTarget {
    return parseTranscriptTarget(`${module} ${fn}`, params);
  }

  snapshot(target: TranscriptTarget): TranscriptFileSnapshot | undefined {
    const located = locateTranscript(target, this.registry);
    return located.file ? readTranscriptFile(located.file) : undefined;
  }

  identity(target: TranscriptTarget): SessionTranscriptIdentity {
    const { agentId, sessionId } = target;
    return {
      agentId,
      memoryKey: formatSessionTranscriptMemoryHitKey(target),
      sessionId,
      sessionKey: target.sessionKey,
    };
  }
}

function limitsOf(params: unknown): Record<string, unknown> {
  return typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
}

export function createSessionTranscriptRuntime(registry: SessionTranscriptRegistry): SessionTranscriptRuntime {
  const reader = new TranscriptReader(registry);
  const at = (fn: string, params: unknown) => reader.target(SESSION_TRANSCRIPT_RUNTIME, fn, params);
  return {
    readVisibleSessionTranscriptMessageEntries: async (params) => {
      const snapshot = reader.snapshot(at('readVisibleSessionTranscriptMessageEntries', params));
      return snapshot ? structuredClone(visibleMessageEntries(snapshot.events)) : [];
    },
    readSessionTranscriptVisibleMessageDelta: async (params) => {
      const target = at('readSessionTranscriptVisibleMessageDelta', params);
      const { cursor, maxMessages, maxBytes } = limitsOf(params);
      return structuredClone(
        readVisibleMessageDelta(reader.snapshot(target), target, { cursor, maxMessages, maxBytes }),
      );
    },
    readSessionTranscriptRawDelta: async (params) => {
      const target = at('readSessionTranscriptRawDelta', params);
      const { cursor, maxEvents, maxBytes } = limitsOf(params);
      return structuredClone(readRawDelta(reader.snapshot(target), target, { cursor, maxEvents, maxBytes }));
    },
    readSessionTranscriptEvents: async (params) => {
      const snapshot = reader.snapshot(at('readSessionTranscriptEvents', params));
      return snapshot ? structuredClone(snapshot.events.map((record) => record.event)) : [];
    },
    resolveSessionTranscriptIdentity: async (params) => reader.identity(at('resolveSessionTranscriptIdentity', params)),
    resolveSessionTranscriptTarget: async (params) => ({
      ...reader.identity(at('resolveSessionTranscriptTarget', params)),
      targetKind: 'runtime-session' as const,
    }),
    formatSessionTranscriptMemoryHitKey,
    parseSessionTranscriptMemoryHitKey,
  };
}

/** The synchronous transcript reads of `session-store-runtime`. */
export function createSessionStoreTranscriptRuntime(
  registry: SessionTranscriptRegistry,
): SessionStoreTranscriptRuntime {
  const reader = new TranscriptReader(registry);
  return {
    loadTranscriptEventsSync: (params) => {
      const snapshot = reader.snapshot(reader.target(SESSION_STORE_RUNTIME, 'loadTranscriptEventsSync', params));
      return snapshot ? structuredClone(snapshot.events.map((record) => record.event)) : [];
    },
    readTranscriptStatsSync: (params) => {
      const snapshot = reader.snapshot(reader.target(SESSION_STORE_RUNTIME, 'readTranscriptStatsSync', params));
      const events = snapshot?.events ?? [];
      if (events.length === 0) return { eventCount: 0, maxSeq: 0, sizeBytes: 0 };
      const sizeBytes = events.reduce((sum, record) => sum + record.bytes, 0) - 1;
      return { eventCount: events.length, maxSeq: events.length - 1, sizeBytes };
    },
  };
}
