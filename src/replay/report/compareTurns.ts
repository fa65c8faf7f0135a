/**
 * Lanes side by side, turn by turn (pure): the rows `contextscope compare` prints and the HTML report tabulates.
 */
import type { Finding, Recording, ReplayEvent, Severity, TurnRecord } from '../../contract/recording';

export interface LaneTurnCell {
  status: TurnRecord['status'];
  tiktokenTokens: number;
  estTokens: number;
  tokenBudget: number;
  estimatedTokens: number | null;
  kept: number;
  summarized: number;
  dropped: number;
  /** assembled messages by provenance */
  raw: number;
  modified: number;
  summary: number;
  synthetic: number;
  route: string;
  /** short descriptions of the turn's events */
  events: string[];
}

export interface CompareRow {
  turn: number;
  /** cells by lane id; a lane without this turn has no cell */
  lanes: Record<string, LaneTurnCell>;
}

/** One line per event, e.g. `compaction(auto) 41200→9800`, `quarantine assemble`. */
export function describeEvent(event: ReplayEvent): string {
  switch (event.type) {
    case 'compaction': {
      const tokens = event.tokensBefore !== null ? ` ${event.tokensBefore}→${event.tokensAfter ?? '?'}` : '';
      const state = event.error ? ' failed' : event.compacted ? '' : ' (nothing compacted)';
      return `compaction(${event.trigger})${tokens}${state}`;
    }
    case 'quarantine':
      return `quarantine ${event.operation}`;
    case 'subagentSpawn':
      return event.error
        ? `spawn failed (${event.contextMode})`
        : `spawn ${event.contextMode}${event.prepared ? '' : ' (not prepared)'}`;
    case 'subagentRollback':
      return 'spawn rollback';
    case 'subagentEnded':
      return `subagent ${event.reason}`;
    case 'hostRequirement':
      return `host unsupported (${event.missing.join(', ')})`;
    case 'warning':
      return 'warning';
  }
}

export function laneTurnCell(record: TurnRecord): LaneTurnCell {
  const count = { raw: 0, modified: 0, summary: 0, synthetic: 0 };
  for (const ref of record.assembled) count[ref.provenance]++;
  return {
    status: record.status,
    tiktokenTokens: record.totals.tiktokenTokens,
    estTokens: record.totals.estTokens,
    tokenBudget: record.budget.tokenBudget,
    estimatedTokens: record.estimatedTokens,
    kept: record.omitted.keptCount,
    summarized: record.omitted.summarizedCount,
    dropped: record.omitted.droppedCount,
    ...count,
    route: record.precheck.skipped ? 'skipped' : record.precheck.route,
    events: record.events.map(describeEvent),
  };
}

/** Rows for `laneIds` (default: the lanes replaying the root session), one per turn index. */
export function compareTurns(recording: Recording, laneIds?: readonly string[]): CompareRow[] {
  const lanes = laneIds ?? recording.lanes.filter((l) => !l.parentLane).map((l) => l.id);
  let turns = 0;
  for (const id of lanes) turns = Math.max(turns, recording.turns[id]?.length ?? 0);
  const rows: CompareRow[] = [];
  for (let t = 0; t < turns; t++) {
    const row: CompareRow = { turn: t, lanes: {} };
    for (const id of lanes) {
      const record = recording.turns[id]?.[t];
      if (record) row.lanes[id] = laneTurnCell(record);
    }
    rows.push(row);
  }
  return rows;
}

const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/**
 * The findings a `--fail-on` list selects. Each item is a finding code, or a severity meaning "that severity
 * or worse" (`warning` selects warnings and errors).
 */
export function selectFailingFindings(findings: readonly Finding[], failOn: readonly string[]): Finding[] {
  const codes = new Set<string>();
  let minRank = Infinity;
  for (const item of failOn) {
    const v = item.trim();
    if (!v) continue;
    if (v in SEVERITY_RANK) minRank = Math.min(minRank, SEVERITY_RANK[v as Severity]);
    else codes.add(v);
  }
  return findings.filter((f) => codes.has(f.code) || SEVERITY_RANK[f.severity] >= minRank);
}
