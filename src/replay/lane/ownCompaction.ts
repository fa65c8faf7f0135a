/**
 * An engine that owns compaction may compact whenever it likes — in afterTurn, in ingest — without the host calling
 * its compact(): OpenClaw then has no compaction to log, and neither would the replay. What shows is the context it
 * assembles: after such a fold it sends much less than it sent the turn before, although the history only grew.
 * A turn whose assembled context (OpenClaw's estimate) fell to at most SHRINK_RATIO of the previous turn's, with
 * fewer messages, on the same owning engine and with no compaction of the host's in between, gets a `compaction`
 * event with trigger `engine`: tokens before = what the previous turn sent plus what it added (what the engine would
 * have had to send had it kept everything), tokens after = what it sends now.
 */
import type { TurnDraft } from '../recording/turnDraft';
import type { Lane, LastContext } from './laneContext';

/** a context cut to 90% or less is a fold, not the give and take of a window that slides by a message */
export const SHRINK_RATIO = 0.9;

/** Adds the `engine` compaction event when `now` is an unreported compaction of the lane's owning engine. */
export function noteOwnCompaction(lane: Lane, draft: TurnDraft, now: LastContext, ownsCompaction: boolean): void {
  const before = lane.lastContext;
  if (!ownsCompaction || !before || before.engineId !== now.engineId) return;
  if (draft.compactions.length > 0) return;
  if (now.tokens > before.tokens * SHRINK_RATIO || now.count >= before.count) return;
  draft.addEvent({
    type: 'compaction',
    trigger: 'engine',
    engineId: now.engineId,
    ok: true,
    compacted: true,
    tokensBefore: before.tokens + before.appendedTokens,
    tokensAfter: now.tokens,
    summary: null,
    firstKeptEntryId: null,
    cause: { measure: 'shrank' },
  });
}
