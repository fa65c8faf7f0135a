/**
 * One session's row figures from its Recording (pure): per root lane the turns, compactions, quarantines,
 * assembled tokens summed over turns, tokens saved against the baseline legacy lane and findings by severity.
 */
import type { Finding, LaneRecord, Recording } from '../../contract/recording';
import { selectFailingFindings } from '../report/compareTurns';
import { BASELINE_SPEC } from './planBatch';
import type { BatchLaneFigures } from './batchTypes';

function findingCounts(findings: readonly Finding[]): BatchLaneFigures['findings'] {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

function laneFigures(recording: Recording, lane: LaneRecord): Omit<BatchLaneFigures, 'savedTokens' | 'savedFraction'> {
  const turns = recording.turns[lane.id] ?? [];
  let compactions = 0;
  let quarantines = recording.events.filter((e) => e.lane === lane.id && e.type === 'quarantine').length;
  let tokens = 0;
  let failedTurns = 0;
  for (const t of turns) {
    tokens += t.totals.tiktokenTokens;
    if (t.status !== 'ok') failedTurns++;
    for (const e of t.events) {
      if (e.type === 'compaction' && e.compacted) compactions++;
      if (e.type === 'quarantine') quarantines++;
    }
  }
  return {
    laneId: lane.id,
    label: lane.label,
    spec: lane.spec,
    baseline: false,
    added: false,
    turns: turns.length,
    compactions,
    quarantines,
    failedTurns,
    tokens,
    findings: findingCounts(recording.findings.filter((f) => f.lane === lane.id)),
    ...(lane.error ? { error: lane.error } : {}),
  };
}

export interface RecordingSummary {
  turns: number;
  lanes: BatchLaneFigures[];
  failing: number;
}

/** `baselineAdded`: the plain legacy lane was added by the batch, so its findings do not count as the user's. */
export function summarizeRecording(
  recording: Recording,
  options: { baselineAdded: boolean; failOn?: readonly string[] },
): RecordingSummary {
  const roots = recording.lanes.filter((l) => l.parentLane === undefined && l.source !== 'trajectory');
  // the baseline is the last plain legacy lane: the one the batch added comes after the lanes asked for
  const baseline = roots.findLast((l) => l.spec === BASELINE_SPEC);
  const base = baseline && !baseline.error ? laneFigures(recording, baseline).tokens : null;
  const lanes = roots.map((lane): BatchLaneFigures => {
    const figures = laneFigures(recording, lane);
    const isBaseline = lane === baseline;
    const savedTokens = base === null || lane.error ? null : base - figures.tokens;
    return {
      ...figures,
      baseline: isBaseline,
      added: isBaseline && options.baselineAdded,
      savedTokens,
      savedFraction: savedTokens !== null && base ? savedTokens / base : null,
    };
  });
  const added = new Set(lanes.filter((l) => l.added).map((l) => l.laneId));
  const own = recording.findings.filter((f) => !added.has(f.lane));
  return {
    turns: recording.session.turnStarts.length,
    lanes,
    failing: options.failOn?.length ? selectFailingFindings(own, options.failOn).length : 0,
  };
}
