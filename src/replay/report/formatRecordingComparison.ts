/**
 * `contextscope compare old.json new.json` (pure): for each lane both recordings have, the turns where the same
 * engine now assembles something different, with the one-line account of each; the rows of one of those turns come
 * from formatAlignedTurn (`--turn <n>`).
 */
import { describePair, turnDifferences, type CompareInput, type TurnDifference } from '../../view';

export interface LaneRegression {
  lane: string;
  /** 1-based turns where the lane's old and new recording differ */
  turns: number[];
  /** one line per differing turn */
  details: { turn: number; difference: string }[];
}

export interface RecordingComparison {
  session: string;
  lanes: LaneRegression[];
  /** lanes of only one recording (not compared) */
  onlyOld: string[];
  onlyNew: string[];
  differingTurns: number;
  turnCount: number;
}

/** The differing turns of each lane pair (`input` from compareRecordings: columns old, new, old, new …). */
export function compareRecordingLanes(
  input: CompareInput,
  onlyOld: readonly string[] = [],
  onlyNew: readonly string[] = [],
): RecordingComparison {
  const differences: TurnDifference[] = turnDifferences(input);
  const lanes = input.comparisons.map(([base, other], k): LaneRegression => {
    const [oldLabel, newLabel] = [input.columns[base]!.label, input.columns[other]!.label];
    const details = differences.flatMap((d) =>
      d.pairs[k]!.differs
        ? [{ turn: d.turn + 1, difference: describePair(d.pairs[k]!, oldLabel, newLabel, d.turn) }]
        : [],
    );
    return { lane: input.columns[base]!.lane.id, turns: details.map((x) => x.turn), details };
  });
  return {
    session: input.session.sessionId,
    lanes,
    onlyOld: [...onlyOld],
    onlyNew: [...onlyNew],
    differingTurns: differences.filter((d) => d.differs).length,
    turnCount: differences.length,
  };
}

/** `[4, 5, 6, 9]` → `4–6, 9`. */
export function turnRanges(turns: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < turns.length; i++) {
    let j = i;
    while (j + 1 < turns.length && turns[j + 1] === turns[j]! + 1) j++;
    parts.push(j > i ? `${turns[i]}–${turns[j]}` : String(turns[i]));
    i = j;
  }
  return parts.join(', ');
}

/** Detail lines listed per lane before "… N more". */
const MAX_DETAILS = 20;

export function formatRecordingComparison(
  comparison: RecordingComparison,
  names: { old: string; new: string },
): string {
  const out: string[] = [`Comparing ${names.old} (old) with ${names.new} (new), session ${comparison.session}:`];
  for (const lane of comparison.lanes) {
    if (lane.turns.length === 0) {
      out.push(`  ${lane.lane}: the same at every turn`);
      continue;
    }
    out.push(
      `  ${lane.lane}: assembles something different at ${lane.turns.length} of ${comparison.turnCount} turns (${turnRanges(lane.turns)})`,
    );
    for (const detail of lane.details.slice(0, MAX_DETAILS)) out.push(`    turn ${detail.turn}: ${detail.difference}`);
    if (lane.details.length > MAX_DETAILS)
      out.push(`    … ${lane.details.length - MAX_DETAILS} more turns (--json lists them all)`);
  }
  if (comparison.onlyOld.length > 0)
    out.push(`  only in ${names.old} (not compared): ${comparison.onlyOld.join(', ')}`);
  if (comparison.onlyNew.length > 0)
    out.push(`  only in ${names.new} (not compared): ${comparison.onlyNew.join(', ')}`);
  out.push(
    comparison.differingTurns > 0
      ? `${comparison.differingTurns} turn(s) differ; --turn <n> lists the messages of one.`
      : 'No turn differs.',
  );
  return `${out.join('\n')}\n`;
}
