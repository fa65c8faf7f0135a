/**
 * Reading a compaction's input from a `SessionTranscriptHandle`: the model context and the path to prepare, taken
 * from a handle that keeps them (`TrackedTranscriptHandle`, the replay's lane transcripts) or rebuilt from the
 * active path.
 */
import type { AgentMessage, SessionEntry, SessionTranscriptHandle } from '../../contract';
import { buildContextFromPath } from '../../transcripts';

/**
 * A transcript handle that keeps its model context (the replay's lane transcripts), so a compaction reads only the
 * entries from the latest boundary on instead of the whole branch.
 */
export interface TrackedTranscriptHandle extends SessionTranscriptHandle {
  /** `buildContextFromPath(activePath()).messages` */
  contextMessages(): readonly AgentMessage[];
  /**
   * The end of `activePath()` from where the model context starts: the latest compaction or reset's first kept
   * entry when it comes before the boundary, else the boundary (the whole path without one). Its context is the
   * whole path's, and so is its `prepareCompaction` (but for `firstKeptEntryIndex`, which counts from its start).
   */
  contextPath(): SessionEntry[];
}

function isTracked(transcript: SessionTranscriptHandle): transcript is TrackedTranscriptHandle {
  const t = transcript as Partial<TrackedTranscriptHandle>;
  return typeof t.contextMessages === 'function' && typeof t.contextPath === 'function';
}

/** `buildContextFromPath(transcript.activePath()).messages` */
export function contextMessagesOf(transcript: SessionTranscriptHandle): readonly AgentMessage[] {
  return isTracked(transcript) ? transcript.contextMessages() : buildContextFromPath(transcript.activePath()).messages;
}

/** The path `prepareCompaction` reads: the tracked context path, else the whole active path. */
export function compactionPathOf(transcript: SessionTranscriptHandle): SessionEntry[] {
  return isTracked(transcript) ? transcript.contextPath() : transcript.activePath();
}
