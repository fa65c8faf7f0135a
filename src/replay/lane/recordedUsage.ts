/**
 * When the recorded provider usage describes a lane's context. OpenClaw's threshold reads the usage the model
 * reported for what OpenClaw sent; a lane may send something else. Its context is OpenClaw's as long as the lane
 * compacted exactly where the recording did (same positions in the turn sequence, none more, none fewer) — then
 * the recorded usage is the lane's too. Once the lane compacts where OpenClaw did not (a smaller window, other
 * settings) or misses one, the recorded usage describes another context and the lane's own estimate is used.
 *
 * A position counts the recorded turns before a compaction: one appended after turn k's messages (the recording's
 * `turn: k`, the lane's threshold compaction after turn k) is at k + 1; an overflow/manual compaction before turn
 * k's prompt is at k.
 */
import type { TurnDraft } from '../recording/turnDraft';
import type { Lane } from './laneContext';

function positionOf(trigger: string, turn: number): number {
  return trigger === 'auto' || trigger === 'recorded' ? turn + 1 : turn;
}

/** Remember the positions of the compactions this turn made (call once, when the turn is recorded). */
export function noteLaneCompactions(lane: Lane, draft: TurnDraft, turn: number): void {
  for (const c of draft.compactions) if (c.compacted) lane.compactionPositions.push(positionOf(c.trigger, turn));
}

/** True when, up to this turn's threshold check, the lane compacted exactly where the recording did. */
export function recordedUsageApplies(lane: Lane, draft: TurnDraft, turn: number): boolean {
  const lanePositions = [...lane.compactionPositions];
  for (const c of draft.compactions) if (c.compacted) lanePositions.push(positionOf(c.trigger, turn));
  const recorded = lane.session.info.recordedCompactions.map((c) => c.turn + 1).filter((p) => p <= turn);
  if (lanePositions.length !== recorded.length) return false;
  const sorted = lanePositions.sort((a, b) => a - b);
  return recorded.sort((a, b) => a - b).every((p, i) => p === sorted[i]);
}
