import type { Finding, LaneRecord, TurnRecord } from '../../contract/recording';

/**
 * Lanes ran concurrently, so put what they appended in an order that does not depend on timing: turn arrays in
 * turn order, lanes by root lane (in the order given) with their subagent lanes in spawn order, findings by turn,
 * then lane. Sorts in place.
 */
export function orderRecordingParts(
  lanes: LaneRecord[],
  turns: Record<string, TurnRecord[]>,
  findings: Finding[],
): void {
  for (const id of Object.keys(turns)) turns[id].sort((a, b) => a.turn - b.turn);
  const laneById = new Map(lanes.map((l) => [l.id, l]));
  const rootOrder = new Map(lanes.filter((l) => !l.parentLane).map((l, i) => [l.id, i]));
  const rootIndex = new Map(
    lanes.map((lane) => {
      let current = lane;
      while (current.parentLane && laneById.has(current.parentLane)) current = laneById.get(current.parentLane)!;
      return [lane.id, rootOrder.get(current.id) ?? 0];
    }),
  );
  lanes.sort((a, b) => rootIndex.get(a.id)! - rootIndex.get(b.id)!);
  const laneOrder = new Map(lanes.map((l, i) => [l.id, i]));
  findings.sort(
    (a, b) =>
      (a.turn ?? -1) - (b.turn ?? -1) || (laneOrder.get(a.lane ?? '') ?? -1) - (laneOrder.get(b.lane ?? '') ?? -1),
  );
}
