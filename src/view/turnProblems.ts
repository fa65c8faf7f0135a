/**
 * What an error, a warning and a finding are, defined once: the Replay header's counts, the timeline's badges and
 * its error / warning / finding filters, and the turn detail's verdict all read these, so a count always names the
 * turns its filter finds.
 *
 * - An **error turn** is a lane's turn that did not complete (its status is not `ok`: a prompt error, aborted, host
 *   unsupported) or at which an error-severity finding was made.
 * - A **warning turn** is a lane's turn with a warning-severity finding or a warning event.
 * - A **finding turn** is a lane's turn with any finding (errors, warnings and notes).
 * - A turn of the timeline counts once however many of the lanes shown have it.
 * - Findings not tied to a turn (lane set-up, the end of the replay) belong to no turn: no turn filter finds them,
 *   so they are counted apart ("outside turns") and shown as notices.
 */
import type { Finding, Recording, TurnRecord } from './viewTypes';

export const PROBLEM_DEFINITIONS = {
  error:
    'a turn that did not complete (prompt error, aborted, host unsupported) or at which an error-severity finding was made',
  warning: 'a turn with a warning-severity finding or a warning event',
  finding: 'a turn with any finding (error, warning or note)',
  outside: 'findings not tied to a turn (lane set-up, end of the replay): listed in the notices above the timeline',
} as const;

/** The turn's problems as one line each: why it is an error turn, why a warning turn, and its notes. */
export interface TurnProblems {
  /** the status when it is not ok (with its error text), then each error finding; [] = not an error turn */
  errors: string[];
  /** each warning finding, then each warning event; [] = not a warning turn */
  warnings: string[];
  /** info findings */
  notes: string[];
  /** the turn has a finding of any severity */
  hasFinding: boolean;
}

export const STATUS_TEXT: Record<TurnRecord['status'], string> = {
  ok: 'ok',
  prompt_error: 'prompt error',
  aborted: 'aborted',
  host_unsupported: 'host unsupported',
};

/** `findings` are the findings of this lane at this turn (findingsIndex(recording).at(lane, turn)). */
export function turnProblems(record: TurnRecord, findings: readonly Finding[]): TurnProblems {
  const errors: string[] = [];
  const warnings: string[] = [];
  const notes: string[] = [];
  if (record.status !== 'ok') errors.push(`${STATUS_TEXT[record.status]}${record.error ? `: ${record.error}` : ''}`);
  for (const f of findings) {
    const line = `${f.code}: ${f.message}`;
    if (f.severity === 'error') errors.push(line);
    else if (f.severity === 'warning') warnings.push(line);
    else notes.push(line);
  }
  for (const event of record.events) if (event.type === 'warning') warnings.push(event.message);
  return { errors, warnings, notes, hasFinding: findings.length > 0 };
}

export type ProblemKind = 'error' | 'warning' | 'finding';

export function hasProblem(problems: TurnProblems, kind: ProblemKind): boolean {
  if (kind === 'error') return problems.errors.length > 0;
  if (kind === 'warning') return problems.warnings.length > 0;
  return problems.hasFinding;
}

/** A recording's findings by lane and turn, built once; `outside(lane)` are the lane's findings without a turn. */
export interface FindingsIndex {
  at(laneId: string, turn: number): readonly Finding[];
  outside(laneId: string): readonly Finding[];
}

const NONE: readonly Finding[] = [];

export function findingsIndex(findings: readonly Finding[]): FindingsIndex {
  const byKey = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = `${finding.lane}\u0000${finding.turn ?? -1}`;
    const list = byKey.get(key);
    if (list) list.push(finding);
    else byKey.set(key, [finding]);
  }
  return {
    at: (laneId, turn) => byKey.get(`${laneId}\u0000${turn}`) ?? NONE,
    outside: (laneId) => byKey.get(`${laneId}\u0000-1`) ?? NONE,
  };
}

const indexCache = new WeakMap<readonly Finding[], FindingsIndex>();

/** findingsIndex of the recording's findings, built once per findings array. */
export function recordingFindings(recording: Pick<Recording, 'findings'>): FindingsIndex {
  let index = indexCache.get(recording.findings);
  if (!index) indexCache.set(recording.findings, (index = findingsIndex(recording.findings)));
  return index;
}

export interface ProblemCounts {
  /** turns of the timeline (the most any of the lanes has) */
  turns: number;
  /** timeline turns where some lane's turn is an error turn / a warning turn / has a finding */
  errorTurns: number;
  warningTurns: number;
  findingTurns: number;
  /** findings of these lanes not tied to a turn, by severity */
  outsideTurns: { errors: number; warnings: number; notes: number };
}

/** The counts over the given lanes of a recording (the lanes the timeline shows). */
export function problemCounts(recording: Recording, laneIds: readonly string[]): ProblemCounts {
  const index = recordingFindings(recording);
  const lanes = laneIds.map((id) => recording.turns[id] ?? []);
  const turns = Math.max(0, ...lanes.map((records) => records.length));
  let errorTurns = 0;
  let warningTurns = 0;
  let findingTurns = 0;
  for (let turn = 0; turn < turns; turn++) {
    let error = false;
    let warning = false;
    let finding = false;
    lanes.forEach((records, i) => {
      const record = records[turn];
      if (!record) return;
      const problems = turnProblems(record, index.at(laneIds[i]!, turn));
      error ||= problems.errors.length > 0;
      warning ||= problems.warnings.length > 0;
      finding ||= problems.hasFinding;
    });
    if (error) errorTurns++;
    if (warning) warningTurns++;
    if (finding) findingTurns++;
  }
  const outsideTurns = { errors: 0, warnings: 0, notes: 0 };
  for (const id of laneIds) {
    for (const f of index.outside(id)) {
      if (f.severity === 'error') outsideTurns.errors++;
      else if (f.severity === 'warning') outsideTurns.warnings++;
      else outsideTurns.notes++;
    }
  }
  return { turns, errorTurns, warningTurns, findingTurns, outsideTurns };
}

function plural(count: number, word: string): string {
  return `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * The header's one line: "107 error turns, 4 warning turns" (+ "· 1 error outside turns"), its tone and a
 * tooltip with the definitions.
 */
export function problemSummary(counts: ProblemCounts): { text: string; tone: 'bad' | 'warn' | 'ok'; title: string } {
  // short enough to sit beside the title at 1280 px: a header that wraps takes a timeline row away
  const parts = [
    counts.errorTurns === 0 && counts.warningTurns === 0
      ? 'no error or warning turns'
      : `${plural(counts.errorTurns, 'error turn')}, ${plural(counts.warningTurns, 'warning turn')}`,
  ];
  const outside = [
    counts.outsideTurns.errors > 0 ? plural(counts.outsideTurns.errors, 'error') : '',
    counts.outsideTurns.warnings > 0 ? plural(counts.outsideTurns.warnings, 'warning') : '',
  ].filter(Boolean);
  if (outside.length > 0) parts.push(`${outside.join(', ')} outside turns`);
  const bad = counts.errorTurns > 0 || counts.outsideTurns.errors > 0;
  const warn = counts.warningTurns > 0 || counts.outsideTurns.warnings > 0;
  return {
    text: parts.join(' · '),
    tone: bad ? 'bad' : warn ? 'warn' : 'ok',
    title:
      `Error turn: ${PROBLEM_DEFINITIONS.error}. Warning turn: ${PROBLEM_DEFINITIONS.warning}. ` +
      `A turn counts once however many lanes have it; the timeline's error and warning filters find these turns. ` +
      `Outside turns: ${PROBLEM_DEFINITIONS.outside}.`,
  };
}
