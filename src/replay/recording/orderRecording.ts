import type { Finding, LaneRecord, ReplayEvent, TurnRecord } from '../../contract/recording';

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

/**
 * Event `seq` numbers were taken as events happened, so across concurrent lanes they follow timing. Renumbers every
 * event (in turns and outside them) by turn, then lane order, then the order it had within its lane: the lane's
 * setup events (before its first turn event) come first, its end-of-replay events last. Call after
 * `orderRecordingParts`. Changes the events in place.
 */
const AFTER_TURNS = Number.MAX_SAFE_INTEGER;

export function renumberEventSeqs(
  lanes: readonly LaneRecord[],
  turns: Record<string, TurnRecord[]>,
  events: readonly ReplayEvent[],
): void {
  const laneOrder = new Map(lanes.map((l, i) => [l.id, i]));
  const all: ReplayEvent[] = [...events];
  const firstTurnSeq = new Map<string, number>();
  for (const records of Object.values(turns)) {
    for (const record of records) {
      for (const event of record.events) {
        all.push(event);
        firstTurnSeq.set(event.lane, Math.min(firstTurnSeq.get(event.lane) ?? Infinity, event.seq));
      }
    }
  }
  const turnRank = (event: ReplayEvent) =>
    event.turn !== null ? event.turn : event.seq < (firstTurnSeq.get(event.lane) ?? Infinity) ? -1 : AFTER_TURNS;
  const ranked = all.map((event) => ({ event, turn: turnRank(event), lane: laneOrder.get(event.lane) ?? -1 }));
  ranked.sort((a, b) => a.turn - b.turn || a.lane - b.lane || a.event.seq - b.event.seq);
  ranked.forEach(({ event }, i) => (event.seq = i));
}
