/**
 * Message alignment across lanes at one turn: one row per message identity — a transcript message by its entry
 * id, a summary by the span it stands for, a synthetic message by what produced it, a second copy as `#2` — and
 * per lane its status, its position in the assembled list and its tokens (OpenClaw estimate and tiktoken). Rows
 * follow the transcript; a summary stands before the first message it covers, anything else after the transcript
 * message the lane sent before it. Every assembled message of every lane is in exactly one row.
 */
import type { CompareInput, CompareColumn } from './compareInput';
import { laneQuarantineAt, type LaneQuarantine } from './laneQuarantine';
import { differencesOf, movedIds, type TurnDifference } from './lanesDiffer';
import {
  inContext,
  laneTurnState,
  positionAt,
  rangesContain,
  refAt,
  sentSignature,
  statusAt,
  type CellStatus,
  type ExtraKind,
  type LaneTurnState,
} from './laneTurnState';
import { messagePreview, messageText } from './messageText';
import { laneTurnDelta, type LaneTurnDelta } from './turnDelta';
import type { IndexRange, TurnRecord } from './viewTypes';

export interface AlignedCell {
  status: CellStatus;
  /** 0-based position in the lane's assembled list; null when the lane did not send it */
  position: number | null;
  /** the message as this lane has it (its assembled copy, or the transcript message it left out); null when absent */
  key: string | null;
  estTokens: number;
  tiktokenTokens: number;
  /** `summarized`: the row (index into `rows`) of the lane's summary that covers it; null when none says so */
  summarizedInto: number | null;
  /** status or content differ from this lane's previous turn */
  changed: boolean;
  /** sent out of the order of the lane it is compared with (see movedIds) */
  moved: boolean;
}

export interface AlignedRow {
  /** the message identity (see the file comment) */
  id: string;
  kind: 'transcript' | ExtraKind;
  /** transcript rows: index in the session's messageKeys */
  transcriptIndex: number | null;
  role: string;
  /** one line of what the message says */
  preview: string;
  /** summaries: the transcript ranges covered (as the first lane that sent it says); null otherwise */
  span: IndexRange[] | null;
  cells: AlignedCell[];
  /** every lane has the same status and, where sent, the same content */
  agree: boolean;
  /** the one column that has the row when every other lacks it, else null */
  onlyIn: number | null;
  /** some lane's cell changed since that lane's previous turn */
  changed: boolean;
}

export interface AlignedColumn {
  column: CompareColumn;
  /** the lane has this turn */
  record: TurnRecord | null;
  quarantine: LaneQuarantine | null;
  delta: LaneTurnDelta;
}

export interface AlignedTurn {
  turn: number;
  columns: AlignedColumn[];
  rows: AlignedRow[];
  difference: TurnDifference;
}

interface Draft {
  id: string;
  index: number | null;
  /** where the row stands: after transcript message `major` (summaries before it: `minor` 0, itself 1, others 2) */
  sort: [major: number, minor: number];
}

function collectRows(input: CompareInput, states: readonly LaneTurnState[]): Draft[] {
  const drafts: Draft[] = [];
  const extent = Math.max(0, ...states.map((s) => s.extent));
  const keys = input.session.messageKeys;
  for (let i = 0; i < extent; i++) {
    // a lane's statuses past its extent are 0 (absent), and past its arrays (laneTurnState's size) there are none
    if (states.some((s) => (s.status[i] ?? 0) !== 0)) drafts.push({ id: keys[i]!, index: i, sort: [i, 1] });
  }
  const seen = new Set<string>();
  for (const state of states) {
    for (const item of state.extras.values()) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      drafts.push({ id: item.id, index: null, sort: [item.major, item.minor] });
    }
  }
  // ties keep the order drafts were made in — lane by lane, each lane's extras by position (the sort is stable)
  return drafts.sort((x, y) => x.sort[0] - y.sort[0] || x.sort[1] - y.sort[1]);
}

/** The row of the lane's summary that covers transcript message `index`. */
function coveringSummary(state: LaneTurnState, index: number, rowOf: Map<string, number>): number | null {
  let unknown: string | null = null;
  for (const item of state.extras.values()) {
    if (item.kind !== 'summary') continue;
    if (rangesContain(item.span, index)) return rowOf.get(item.id) ?? null;
    if (item.span.length === 0 && unknown === null) unknown = item.id;
  }
  return unknown === null ? null : (rowOf.get(unknown) ?? null);
}

function cellOf(
  draft: Draft,
  state: LaneTurnState,
  previous: LaneTurnState,
  rowOf: Map<string, number>,
  transcriptKey: string | null,
  moved: boolean,
): AlignedCell {
  const status = statusAt(state, draft.id, draft.index);
  const ref = refAt(state, draft.id, draft.index);
  const key = ref?.key ?? (status !== 'absent' ? transcriptKey : null);
  const stored = key !== null ? state.recording.messages[key] : undefined;
  const before = statusAt(previous, draft.id, draft.index);
  const changed =
    before !== status ||
    (inContext(status) &&
      sentSignature(previous, draft.id, draft.index) !== sentSignature(state, draft.id, draft.index));
  return {
    status,
    position: positionAt(state, draft.id, draft.index),
    key,
    estTokens: ref?.estTokens ?? stored?.estTokens ?? 0,
    tiktokenTokens: ref?.tiktokenTokens ?? stored?.tiktokenTokens ?? 0,
    summarizedInto: status === 'summarized' && draft.index !== null ? coveringSummary(state, draft.index, rowOf) : null,
    changed,
    moved,
  };
}

function describeRow(draft: Draft, states: readonly LaneTurnState[], cells: readonly AlignedCell[]) {
  const at = cells.findIndex((cell) => cell.key !== null);
  // Stryker disable next-line ConditionalExpression: every row has a lane with a key (a row exists because some lane placed or left out the message), so at >= 0 always holds; kept for a Recording that breaks that
  const stored = at >= 0 ? states[at]!.recording.messages[cells[at]!.key!] : undefined;
  const extra = states.map((s) => s.extras.get(draft.id)).find((item) => item !== undefined);
  const text = stored ? messageText(stored.message) : '';
  return {
    kind: draft.index !== null ? ('transcript' as const) : (extra?.kind ?? 'message'),
    role: stored?.role ?? 'unknown',
    preview: messagePreview(text, 200),
    span: extra && extra.kind === 'summary' ? extra.span : null,
  };
}

function buildRows(input: CompareInput, states: readonly LaneTurnState[], previous: readonly LaneTurnState[]) {
  const drafts = collectRows(input, states);
  const rowOf = new Map(drafts.map((d, i) => [d.id, i]));
  const moved = states.map(() => new Set<string>());
  for (const [base, other] of input.comparisons) {
    for (const id of movedIds(states[base]!, states[other]!)) moved[other]!.add(id);
  }
  return drafts.map((draft): AlignedRow => {
    const transcriptKey = draft.index !== null ? input.session.messageKeys[draft.index]! : null;
    const cells = states.map((state, c) =>
      cellOf(draft, state, previous[c]!, rowOf, transcriptKey, moved[c]!.has(draft.id)),
    );
    const first = cells[0]!;
    const firstSig = sentSignature(states[0]!, draft.id, draft.index);
    const agree = cells.every(
      (cell, c) =>
        cell.status === first.status &&
        !cell.moved &&
        (!inContext(cell.status) || sentSignature(states[c]!, draft.id, draft.index) === firstSig),
    );
    const present = cells.flatMap((cell, c) => (cell.status === 'absent' ? [] : [c]));
    return {
      id: draft.id,
      transcriptIndex: draft.index,
      ...describeRow(draft, states, cells),
      cells,
      agree,
      onlyIn: present.length === 1 && cells.length > 1 ? present[0]! : null,
      changed: cells.some((cell) => cell.changed),
    };
  });
}

/** The aligned rows of `turn` (0-based), each lane's header facts and the lanes' differences. */
export function alignTurn(input: CompareInput, turn: number): AlignedTurn {
  const states = input.columns.map((column) => laneTurnState(column, turn, input.session));
  const previous = input.columns.map((column) => laneTurnState(column, turn - 1, input.session));
  return {
    turn,
    columns: input.columns.map((column, c) => ({
      column,
      record: states[c]!.record,
      quarantine: laneQuarantineAt(column.recording, column.lane.id, turn),
      delta: laneTurnDelta(previous[c]!, states[c]!),
    })),
    rows: buildRows(input, states, previous),
    difference: differencesOf(input, states, turn),
  };
}
