/**
 * Everything the replay computes once per recorded session: the active branch split into turns, the reference
 * transcript (every message of the branch in order, keyed by entry id, hashed and counted once), and the model
 * and tool names the session used.
 */
import type { AgentMessage, SessionEntry } from '../../contract';
import { buildContextFromPath, getActivePath, type LoadedSession } from '../../transcripts';
import { sanitizeStoredMessages } from '../../engines/legacy';
import { buildReferenceIndex, type ReferenceIndex } from '../recording/classifyProvenance';
import { hashKeyOf, lazyKey, messageKeyOf } from '../recording/messageIdentity';
import type { MessageTable } from '../recording/messageTable';
import type { SessionInfo } from '../../contract/recording';
import { splitSessionTurns, type SplitSession } from './sessionTurns';
import { turnModelsOf, type TurnModel } from './turnModels';

export interface PreparedSession {
  loaded: LoadedSession;
  path: SessionEntry[];
  split: SplitSession;
  info: SessionInfo;
  reference: ReferenceIndex;
  /** the reference messages, aligned with info.messageKeys */
  messages: AgentMessage[];
  /** content key (`h:…`) of each reference message, aligned with `messages`: each hashed when first asked for */
  hashKeys: (() => string)[];
  model: { provider: string; modelId: string } | null;
  /** the model each turn called (aligned with `split.turns`; session/turnModels.ts) */
  turnModels: (TurnModel | undefined)[];
  /** every tool name the session's assistant messages call (the run's available tools) */
  toolNames: Set<string>;
}

/**
 * `rewriteToolCallIds` decides whether a turn's ids get the strict rewrite (lane/toolCallIds.ts); the messages the
 * recording shows carry the latest turn's decision (default: the latest called model's, as 2026.6+ decides).
 */
export function prepareSession(
  loaded: LoadedSession,
  table: MessageTable,
  rewriteToolCallIds?: (turn: number | null, model: TurnModel | undefined) => boolean,
): PreparedSession {
  const path = getActivePath(loaded);
  const split = splitSessionTurns(path);
  const turnModels = turnModelsOf(path, split.turns);
  const last = split.turns.length - 1;

  // Every message of the branch, ignoring compaction/reset boundaries: the transcript lanes are compared to.
  const full = buildContextFromPath(path.filter((e) => e.type !== 'compaction' && e.type !== 'reset'));
  const keys: string[] = [];
  const hashKeys: (() => string)[] = [];
  const refEntries: { key: string; message: AgentMessage; hashKey: () => string }[] = [];
  // what every engine receives for these messages (ids rewritten for the api, details stripped), keyed as stored
  const strict = rewriteToolCallIds?.(last >= 0 ? last : null, turnModels[last]);
  const shown = sanitizeStoredMessages(full.messages, strict) as AgentMessage[];
  shown.forEach((message, i) => {
    const entryId = full.messageEntryIds[i];
    const key = messageKeyOf(full.messages[i]!, entryId);
    keys.push(key);
    const hashKey = lazyKey(() => hashKeyOf(message));
    hashKeys.push(hashKey);
    refEntries.push({ key, message, hashKey });
    table.intern(key, message, entryId);
  });
  // an engine that reads its own transcript returns the stored form: it is the same message, under the same key
  const storedForms = full.messages
    .map((message, i) => ({ key: refEntries[i]!.key, message, hashKey: lazyKey(() => hashKeyOf(message)) }))
    .filter(({ message }, i) => message !== refEntries[i]!.message);
  const reference = buildReferenceIndex(refEntries, storedForms);
  table.flushQueued();

  const turnStarts = split.turns.map((turn) => reference.position.get(turn.userEntry.id) ?? keys.length);

  const toolNames = new Set<string>();
  for (const message of full.messages) {
    if (message.role !== 'assistant') continue;
    for (const block of message.content ?? []) if (block.type === 'toolCall') toolNames.add(block.name);
  }

  const info: SessionInfo = {
    sessionId: loaded.header.id,
    path: loaded.path || null,
    cwd: typeof loaded.header.cwd === 'string' ? loaded.header.cwd : null,
    startedAt: typeof loaded.header.timestamp === 'string' ? loaded.header.timestamp : null,
    entryCount: loaded.entries.length,
    messageKeys: keys,
    turnStarts,
    recordedCompactions: split.compactions.map(({ entry, turn }) => ({
      entryId: entry.id,
      turn,
      summary: entry.summary,
      firstKeptEntryId: entry.firstKeptEntryId,
      tokensBefore: entry.tokensBefore,
    })),
    problems: loaded.problems.map((p) => ({ line: p.line, code: p.code, message: p.message })),
  };

  return { loaded, path, split, info, reference, messages: shown, hashKeys, model: full.model, turnModels, toolNames };
}
