/** The total row of a batch (pure): figures of every finished session summed per lane. */
import type { BatchLaneFigures, BatchRow, BatchTotals } from './batchTypes';

function addLane(into: BatchLaneFigures, lane: BatchLaneFigures): void {
  into.turns += lane.turns;
  into.compactions += lane.compactions;
  into.quarantines += lane.quarantines;
  into.failedTurns += lane.failedTurns;
  into.tokens += lane.tokens;
  into.findings.error += lane.findings.error;
  into.findings.warning += lane.findings.warning;
  into.findings.info += lane.findings.info;
  if (lane.savedTokens !== null) into.savedTokens = (into.savedTokens ?? 0) + lane.savedTokens;
}

/**
 * Lanes are matched by id across sessions. The saved fraction of the total is the saved tokens over the
 * baseline's tokens of the sessions where both ran (a session whose lane failed to run adds to neither).
 */
export function batchTotals(rows: readonly BatchRow[]): BatchTotals {
  const lanes = new Map<string, BatchLaneFigures>();
  const baselineOf = new Map<string, number>();
  let turns = 0;
  let failing = 0;
  for (const row of rows) {
    if (row.status !== 'done') continue;
    turns += row.turns ?? 0;
    failing += row.failing;
    const baseline = row.lanes.find((l) => l.baseline && !l.error);
    for (const lane of row.lanes) {
      let into = lanes.get(lane.laneId);
      if (!into) {
        into = { ...lane, turns: 0, compactions: 0, quarantines: 0, failedTurns: 0, tokens: 0, savedTokens: null };
        into.findings = { error: 0, warning: 0, info: 0 };
        delete into.error;
        lanes.set(lane.laneId, into);
      }
      addLane(into, lane);
      if (baseline && lane.savedTokens !== null)
        baselineOf.set(lane.laneId, (baselineOf.get(lane.laneId) ?? 0) + baseline.tokens);
    }
  }
  for (const lane of lanes.values()) {
    const base = baselineOf.get(lane.laneId);
    lane.savedFraction = lane.savedTokens !== null && base ? lane.savedTokens / base : null;
  }
  return {
    sessions: rows.length,
    done: rows.filter((r) => r.status === 'done').length,
    failed: rows.filter((r) => r.status === 'failed').length,
    turns,
    lanes: [...lanes.values()],
    failing,
  };
}
