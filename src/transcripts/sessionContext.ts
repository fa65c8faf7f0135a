/**
 * What the model sees from a session branch: OpenClaw's `buildSessionContext` (harness `session/session.ts`).
 *
 * 1. The boundary is the last `reset` or `compaction` on the path.
 * 2. It is emitted first: a compaction as a `compactionSummary` message, a reset as nothing.
 * 3. Then the retained entries from the boundary's `firstKeptEntryId` up to the boundary (after a reset only the
 *    tool-pair-safe kept set: user and assistant messages, and tool results whose call is kept), then every
 *    entry after the boundary.
 * 4. Only `message`, `custom_message` and `branch_summary` entries give messages; `excludeFromContext`
 *    messages (except reset-retained ones) and empty branch summaries are skipped.
 * 5. Retained assistant messages lose their server-compaction replay checkpoint.
 * 6. The thinking level is the last `thinking_level_change` (default "off"); the model is the last
 *    `model_change` or assistant message on the path, whichever comes later.
 */
import type { AgentMessage, SessionEntry } from '../contract';
import { projectSessionEntryMessage, stripCompactionReplayCheckpoint } from './projectEntryMessage';
import { indexSessionEntries } from './sessionTree';

export interface SessionContext {
  messages: AgentMessage[];
  /** `messageEntryIds[i]` is the id of the entry `messages[i]` came from (the compaction id for its summary) */
  messageEntryIds: (string | undefined)[];
  thinkingLevel: string;
  model: { provider: string; modelId: string } | null;
}

/** Anything with entries in file order and a current leaf, e.g. a LoadedSession. */
export interface SessionTreeSource {
  entries: readonly SessionEntry[];
  leafId: string | null;
}

/** The active branch, root first: the path from `leafId` (default: the session's leaf) back to the root. */
export function getActivePath(session: SessionTreeSource, leafId?: string | null): SessionEntry[] {
  const index = indexSessionEntries(session.entries);
  return index.pathTo(leafId === undefined ? session.leafId : leafId);
}

/**
 * Reset-retained entries: user and assistant messages, plus tool results answering a tool call of a retained
 * assistant message (each call id answered at most as often as it was called).
 */
export function selectResetKeptEntries(entries: readonly SessionEntry[]): Set<SessionEntry> {
  const pendingCalls = new Map<string, number>();
  const kept = new Set<SessionEntry>();
  for (const entry of entries) {
    if (entry.type !== 'message') continue;
    const message = entry.message;
    if (message.role === 'assistant') {
      for (const block of Array.isArray(message.content) ? message.content : []) {
        if (block && block.type === 'toolCall') pendingCalls.set(block.id, (pendingCalls.get(block.id) ?? 0) + 1);
      }
      kept.add(entry);
    } else if (message.role === 'user') {
      kept.add(entry);
    } else if (message.role === 'toolResult') {
      const pending = pendingCalls.get(message.toolCallId) ?? 0;
      if (pending === 0) continue;
      if (pending === 1) pendingCalls.delete(message.toolCallId);
      else pendingCalls.set(message.toolCallId, pending - 1);
      kept.add(entry);
    }
  }
  return kept;
}

type EntryContext = 'current' | 'retained' | 'reset-retained';

/**
 * Build the model context from an ordered branch path (root first). Pure. Reads the path backwards and stops once
 * the boundary, thinking level and model are known, so the work is proportional to the entries from the boundary's
 * first kept entry on (plus one id search and, for a path without a later thinking-level or model change, the scan
 * back to the one that set them).
 */
export function buildContextFromPath(path: readonly SessionEntry[]): SessionContext {
  let thinkingLevel = 'off';
  let thinkingFound = false;
  let model: SessionContext['model'] = null;
  let modelFound = false;
  let boundaryIndex = -1;
  for (let i = path.length - 1; i >= 0 && !(thinkingFound && modelFound && boundaryIndex >= 0); i--) {
    const entry = path[i]!;
    if (entry.type === 'thinking_level_change') {
      if (!thinkingFound) thinkingLevel = entry.thinkingLevel;
      thinkingFound = true;
    } else if (entry.type === 'model_change') {
      if (!modelFound) model = { provider: entry.provider, modelId: entry.modelId };
      modelFound = true;
    } else if (entry.type === 'message' && entry.message.role === 'assistant' && !modelFound) {
      const { provider, model: modelId } = entry.message;
      if (typeof provider === 'string' && typeof modelId === 'string') {
        model = { provider, modelId };
        modelFound = true;
      }
    }
    if (boundaryIndex < 0 && (entry.type === 'reset' || entry.type === 'compaction')) boundaryIndex = i;
  }

  const boundary = boundaryIndex >= 0 ? path[boundaryIndex] : undefined;
  let firstKeptIndex = boundaryIndex;
  if (boundary && (boundary.type === 'compaction' || boundary.type === 'reset') && boundary.firstKeptEntryId) {
    const found = path.findIndex((e) => e.id === boundary.firstKeptEntryId);
    if (found >= 0 && found < boundaryIndex) firstKeptIndex = found;
  }
  const resetKept =
    boundary?.type === 'reset' ? selectResetKeptEntries(path.slice(firstKeptIndex, boundaryIndex)) : undefined;

  const messages: AgentMessage[] = [];
  const messageEntryIds: (string | undefined)[] = [];
  const push = (message: AgentMessage, entryId: string) => {
    messages.push(message);
    messageEntryIds.push(entryId);
  };

  if (boundary?.type === 'compaction') {
    const summary = projectSessionEntryMessage(boundary);
    if (summary) push(summary, boundary.id);
  }

  // entries before the first kept one never reach the context
  for (let i = Math.max(0, firstKeptIndex); i < path.length; i++) {
    if (i === boundaryIndex) continue;
    const entry = path[i]!;
    const retained = i < boundaryIndex;
    if (retained && (i < firstKeptIndex || (resetKept && !resetKept.has(entry)))) continue;
    const context: EntryContext = retained ? (resetKept ? 'reset-retained' : 'retained') : 'current';
    let message: AgentMessage | undefined;
    if (entry.type === 'message') {
      // Explicitly reset-retained history enters context even when marked excludeFromContext.
      message = context === 'reset-retained' ? entry.message : projectSessionEntryMessage(entry);
    } else if (entry.type === 'custom_message') {
      message = projectSessionEntryMessage(entry);
    } else if (entry.type === 'branch_summary') {
      message = entry.summary ? projectSessionEntryMessage(entry) : undefined;
    }
    if (!message) continue;
    if (context !== 'current' && message.role === 'assistant') message = stripCompactionReplayCheckpoint(message);
    push(message, entry.id);
  }

  return { messages, messageEntryIds, thinkingLevel, model };
}

/** `buildContextFromPath(getActivePath(session, leafId))`. */
export function buildSessionContext(session: SessionTreeSource, leafId?: string | null): SessionContext {
  return buildContextFromPath(getActivePath(session, leafId));
}
