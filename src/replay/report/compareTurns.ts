/**
 * Lanes side by side, turn by turn (pure): the rows `contextscope compare` prints and the HTML report tabulates.
 * The figures come from the shared view model (`src/view`), which the app draws from too; this module keeps the
 * CLI's JSON shape (`rows[].lanes[laneId]`) and the `--fail-on` selection.
 */
import type { Finding, Recording, Severity, TurnRecord } from '../../contract/recording';
import { compareLanes, laneTurnFigures, turnFiguresTable, type CompareInput, type LaneTurnFigures } from '../../view';

export { describeEvent } from '../../view';

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
  /** cells by lane id (column id when two recordings are compared); a lane without this turn has no cell */
  lanes: Record<string, LaneTurnCell>;
  /** the lanes differ in what they assembled (see src/view/lanesDiffer.ts) */
  differs: boolean;
  /** how, in one line ('' when they agree) */
  difference: string;
}

function cellOf(f: LaneTurnFigures): LaneTurnCell {
  return {
    status: f.status,
    tiktokenTokens: f.tokens.tiktoken,
    estTokens: f.tokens.estimate,
    tokenBudget: f.tokenBudget,
    estimatedTokens: f.estimatedTokens,
    kept: f.kept,
    summarized: f.summarized,
    dropped: f.dropped,
    ...f.provenance,
    route: f.route,
    events: f.events,
  };
}

export function laneTurnCell(record: TurnRecord): LaneTurnCell {
  return cellOf(laneTurnFigures(record));
}

/** One row per turn of the compared columns. */
export function compareRows(input: CompareInput): CompareRow[] {
  return turnFiguresTable(input).map((row) => {
    const lanes: Record<string, LaneTurnCell> = {};
    row.cells.forEach((cell, c) => {
      if (cell) lanes[input.columns[c]!.id] = cellOf(cell);
    });
    return { turn: row.turn, lanes, differs: row.differs, difference: row.difference };
  });
}

/** Rows for `laneIds` (default: the lanes replaying the root session), one per turn index. */
export function compareTurns(recording: Recording, laneIds?: readonly string[]): CompareRow[] {
  return compareRows(compareLanes(recording, laneIds));
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
