/**
 * When the recorded provider usage describes a lane's context. OpenClaw's threshold reads the usage the model
 * reported for what OpenClaw sent; a lane may send something else. Its context is OpenClaw's as long as the lane
 * compacted exactly where the recording did (same positions in the turn sequence, none more, none fewer) — then
 * the recorded usage is the lane's too. Once the lane compacts where OpenClaw did not (a smaller window, other
 * settings) or misses one, the recorded usage describes another context and the lane's own estimate is used.
 *
 * A position counts the recorded turns before a compaction: one appended after turn k's messages (the recording's
 * `turn: k`, the lane's threshold compaction after turn k) is at k + 1; an overflow/manual compaction before turn
 * k's prompt is at k; a recovery from the provider's overflow during turn k (a recorded compaction entry after an
 * overflow error of turn k, the lane's compaction after the provider check of turn k said overflow) is at k + ½:
 * after turn k's first request, before its end.
 */
import type { CompactionOutcome } from '../findings/computeTurnFindings';
import type { TurnDraft } from '../recording/turnDraft';
import type { PreparedSession } from '../session/prepareSession';
import { recoveryCompactionIds } from '../session/recordedRequests';
import type { Lane } from './laneContext';

const DURING = 0.5;

/** compactions the lane made to recover from the provider's overflow (not the precheck's) */
const providerRecoveries = new WeakSet<CompactionOutcome>();

/** Mark a compaction as the recovery from a provider overflow (its position is during the turn). */
export function noteProviderRecovery(outcome: CompactionOutcome): void {
  providerRecoveries.add(outcome);
}

function positionOf(outcome: CompactionOutcome, turn: number): number {
  if (outcome.trigger === 'auto' || outcome.trigger === 'budget' || outcome.trigger === 'recorded') return turn + 1;
  return providerRecoveries.has(outcome) ? turn + DURING : turn;
}

const recordedBySession = new WeakMap<PreparedSession, number[]>();

/** The recorded compactions' positions, sorted. */
function recordedPositions(session: PreparedSession): number[] {
  const known = recordedBySession.get(session);
  if (known) return known;
  const recoveries = recoveryCompactionIds(session.split);
  const positions = session.info.recordedCompactions
    .map((c) => (recoveries.has(c.entryId) ? c.turn + DURING : c.turn + 1))
    .sort((a, b) => a - b);
  recordedBySession.set(session, positions);
  return positions;
}

/** Remember the positions of the compactions this turn made (call once, when the turn is recorded). */
export function noteLaneCompactions(lane: Lane, draft: TurnDraft, turn: number): void {
  for (const c of draft.compactions) if (c.compacted) lane.compactionPositions.push(positionOf(c, turn));
}

function lanePositions(lane: Lane, draft: TurnDraft, turn: number): number[] {
  const positions = [...lane.compactionPositions];
  for (const c of draft.compactions) if (c.compacted) positions.push(positionOf(c, turn));
  return positions.sort((a, b) => a - b);
}

const samePositions = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((p, i) => p === b[i]);

/** True when, up to this turn's threshold check, the lane compacted exactly where the recording did. */
export function recordedUsageApplies(lane: Lane, draft: TurnDraft, turn: number): boolean {
  const recorded = recordedPositions(lane.session).filter((p) => p <= turn + DURING);
  return samePositions(lanePositions(lane, draft, turn), recorded);
}

/**
 * Which recorded request of this turn the lane is about to send, when its context is the one OpenClaw sent for
 * it: the lane compacted where the recording did before the turn, and recovered from the provider's overflow during
 * the turn as often as OpenClaw did before that request (n recoveries: the turn's request n). Undefined once the
 * lane's compactions depart from the recording's.
 */
export function recordedRequestIndex(lane: Lane, draft: TurnDraft, turn: number): number | undefined {
  const positions = lanePositions(lane, draft, turn);
  const recoveries = positions.filter((p) => p === turn + DURING).length;
  const all = recordedPositions(lane.session);
  const before = all.filter((p) => p <= turn);
  const recordedRecoveries = all.filter((p) => p === turn + DURING).length;
  if (recoveries > recordedRecoveries) return undefined;
  const expected = [...before, ...new Array<number>(recoveries).fill(turn + DURING)];
  return samePositions(positions, expected) ? recoveries : undefined;
}
