/**
 * What is compared: columns (a lane of a recording each) and which pairs of columns "differ" is decided on. Two
 * shapes: the lanes of one recording side by side (each lane against the first), or two recordings of the same
 * session lane by lane (each lane of the old recording against the same lane of the new one: a plugin regression).
 */
import type { LaneRecord, Recording, SessionInfo } from './viewTypes';

export interface CompareColumn {
  /** unique among the columns (`<lane id>` for one recording, `old:<lane id>` / `new:<lane id>` for two) */
  id: string;
  label: string;
  lane: LaneRecord;
  recording: Recording;
  /** which recording the column comes from when two are compared */
  side: 'old' | 'new' | null;
}

export interface CompareInput {
  columns: CompareColumn[];
  /** pairs of column indexes `[base, other]`: "lanes differ" compares `other` against `base` */
  comparisons: [number, number][];
  /** the session every column replays (transcript indexes refer to its messageKeys) */
  session: SessionInfo;
}

/** The session a lane replays: the root session, or the subagent child it was spawned for. */
export function sessionOfLane(recording: Recording, lane: LaneRecord): SessionInfo {
  if (lane.sessionId === recording.session.sessionId) return recording.session;
  return recording.childSessions[lane.sessionId] ?? recording.session;
}

/** Lanes replaying the root session (the default columns). */
export function rootLaneIds(recording: Recording): string[] {
  return recording.lanes.filter((lane) => !lane.parentLane).map((lane) => lane.id);
}

/** How many turns the longest column has. */
export function turnCountOf(input: CompareInput): number {
  let count = 0;
  for (const column of input.columns) count = Math.max(count, column.recording.turns[column.lane.id]?.length ?? 0);
  return count;
}

/** The lanes `laneIds` (default: the root lanes) of one recording, each compared against the first. */
export function compareLanes(recording: Recording, laneIds: readonly string[] = rootLaneIds(recording)): CompareInput {
  const columns: CompareColumn[] = [];
  for (const id of laneIds) {
    const lane = recording.lanes.find((l) => l.id === id);
    if (lane) columns.push({ id: lane.id, label: lane.label, lane, recording, side: null });
  }
  const comparisons: [number, number][] = columns.slice(1).map((_, i) => [0, i + 1]);
  const session = columns[0] ? sessionOfLane(recording, columns[0].lane) : recording.session;
  return { columns, comparisons, session };
}

export type RecordingPairProblem =
  | { code: 'different-session'; message: string }
  | { code: 'different-transcript'; message: string }
  | { code: 'no-common-lane'; message: string };

export type RecordingPairResult =
  | { ok: true; input: CompareInput; onlyOld: string[]; onlyNew: string[] }
  | { ok: false; problem: RecordingPairProblem };

function firstDifference(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/**
 * Two recordings of the same session, lane by lane: the root lanes both have (matched by lane id), old then new.
 * Recordings of different sessions, or of the same session on different branches, are refused.
 */
export function compareRecordings(
  old: Recording,
  next: Recording,
  options: { labels?: { old: string; new: string }; laneIds?: readonly string[] } = {},
): RecordingPairResult {
  const labels = options.labels ?? { old: 'old', new: 'new' };
  if (old.session.sessionId !== next.session.sessionId) {
    return {
      ok: false,
      problem: {
        code: 'different-session',
        message: `The recordings replay different sessions (${old.session.sessionId} and ${next.session.sessionId}): compare two recordings of the same session.`,
      },
    };
  }
  const at = firstDifference(old.session.messageKeys, next.session.messageKeys);
  if (at !== -1) {
    return {
      ok: false,
      problem: {
        code: 'different-transcript',
        message: `The recordings replay session ${old.session.sessionId} on different branches: its messages differ from message ${at + 1} on (${old.session.messageKeys[at]} and ${next.session.messageKeys[at]}).`,
      },
    };
  }
  const oldIds = rootLaneIds(old);
  const newIds = rootLaneIds(next);
  const common = oldIds.filter((id) => newIds.includes(id) && (!options.laneIds || options.laneIds.includes(id)));
  if (common.length === 0) {
    return {
      ok: false,
      problem: {
        code: 'no-common-lane',
        message: `The recordings have no lane in common (old: ${oldIds.join(', ') || 'none'}; new: ${newIds.join(', ') || 'none'}): lanes are matched by id, so label them the same.`,
      },
    };
  }
  const columns: CompareColumn[] = [];
  const comparisons: [number, number][] = [];
  for (const id of common) {
    const oldLane = old.lanes.find((l) => l.id === id)!;
    const newLane = next.lanes.find((l) => l.id === id)!;
    comparisons.push([columns.length, columns.length + 1]);
    columns.push(
      { id: `old:${id}`, label: `${oldLane.label} (${labels.old})`, lane: oldLane, recording: old, side: 'old' },
      { id: `new:${id}`, label: `${newLane.label} (${labels.new})`, lane: newLane, recording: next, side: 'new' },
    );
  }
  const session = old.session.messageKeys.length >= next.session.messageKeys.length ? old.session : next.session;
  return {
    ok: true,
    input: { columns, comparisons, session },
    onlyOld: oldIds.filter((id) => !common.includes(id)),
    onlyNew: newIds.filter((id) => !common.includes(id)),
  };
}
