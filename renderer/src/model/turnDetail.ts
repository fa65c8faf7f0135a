/**
 * Everything the TurnView shows for one lane's turn: the assembled messages in order (role, provenance, both
 * token counts, text), the reference messages the engine left out (summarized / dropped, from the index
 * ranges), the turn's new messages and its findings. Pure.
 */
import { laneQuarantineAt, recordingFindings, STATUS_TEXT, turnProblems, type LaneQuarantine } from '../../../src/view';
import type { Finding, LaneRecord, MessageRecord, Provenance, Recording, TurnRecord } from '../recordingTypes';
import { messagePreview, messageText } from './messageText';
import { sessionOfLane } from './recordingLanes';

export interface MessageRow {
  /** position in its list (0-based) */
  index: number;
  key: string;
  role: string;
  provenance?: Provenance;
  estTokens: number;
  tiktokenTokens: number;
  preview: string;
  text: string;
  /** modified messages: the transcript message they derive from */
  sourceKey?: string;
  /** summaries: how many transcript messages they say they cover */
  coversCount?: number;
  /** the message as recorded (what "Copy as JSON" copies); null when the recording lacks it */
  message: unknown;
}

export interface TurnDetail {
  lane: LaneRecord;
  record: TurnRecord;
  assembled: MessageRow[];
  /** built when first read: the left-out lists are collapsed until opened, so a turn switch need not build them */
  summarized: MessageRow[];
  dropped: MessageRow[];
  /** how many rows `summarized` and `dropped` hold (known without building them) */
  summarizedCount: number;
  droppedCount: number;
  newMessages: MessageRow[];
  findings: Finding[];
  /** the lane's quarantine at or before this turn (runtime, or factory/resolve/contract before turn 1), or null */
  quarantine: LaneQuarantine | null;
  /** subagent lanes this turn spawned, and the parent turn that spawned this lane (links both ways) */
  links: SpawnLink[];
  /** the worst of the turn's status, its quarantine, its errors and its warnings: the status badge */
  worst: TurnVerdict;
}

export interface SpawnLink {
  direction: 'child' | 'parent';
  laneId: string;
  sessionId: string;
  turn: number;
  label: string;
}

/** The child lanes spawned at this turn of `lane`, and this lane's parent turn when it is a subagent lane. */
export function spawnLinks(recording: Recording, lane: LaneRecord, turn: number): SpawnLink[] {
  const links: SpawnLink[] = [];
  if (lane.parentLane !== undefined) {
    const parent = recording.lanes.find((l) => l.id === lane.parentLane);
    if (parent && turn === 0) {
      const at = lane.spawnedAtTurn ?? 0;
      links.push({
        direction: 'parent',
        laneId: parent.id,
        sessionId: parent.sessionId,
        turn: at,
        label: `${parent.label}, turn ${at + 1}`,
      });
    }
  }
  for (const child of recording.lanes) {
    if (child.parentLane !== lane.id || child.spawnedAtTurn !== turn) continue;
    links.push({
      direction: 'child',
      laneId: child.id,
      sessionId: child.sessionId,
      turn: 0,
      label: child.childSessionKey ?? child.label,
    });
  }
  return links;
}

export interface TurnVerdict {
  text: string;
  tone: 'ok' | 'warn' | 'bad';
  title: string;
}

/**
 * The turn's status badge: its status when the turn did not complete, its quarantine, else the count of its errors
 * or warnings as src/view defines them (turnProblems: the turns the header counts and the filters find; findings not
 * tied to a turn are the notices' and count on no turn).
 */
export function turnVerdict(
  record: TurnRecord,
  quarantine: LaneQuarantine | null,
  findings: readonly Finding[],
): TurnVerdict {
  const problems = turnProblems(record, findings);
  if (record.status !== 'ok') return { text: STATUS_TEXT[record.status], tone: 'bad', title: problems.errors[0]! };
  if (quarantine) return { text: `quarantined → ${quarantine.servedBy}`, tone: 'bad', title: quarantine.text };
  if (problems.errors.length > 0)
    return {
      text: `${problems.errors.length} error${problems.errors.length === 1 ? '' : 's'}`,
      tone: 'bad',
      title: problems.errors.join('\n'),
    };
  if (problems.warnings.length > 0)
    return {
      text: `${problems.warnings.length} warning${problems.warnings.length === 1 ? '' : 's'}`,
      tone: 'warn',
      title: problems.warnings.join('\n'),
    };
  return { text: 'ok', tone: 'ok', title: 'The turn ran and nothing was found.' };
}

/**
 * A message's text and preview, worked out once per stored message: consecutive turns assemble mostly the same
 * messages, and the records outlive a streaming replay's successive Recordings.
 */
const textCache = new WeakMap<MessageRecord, { text: string; preview: string }>();

function textOf(stored: MessageRecord): { text: string; preview: string } {
  let texts = textCache.get(stored);
  if (!texts) {
    const text = messageText(stored.message);
    textCache.set(stored, (texts = { text, preview: messagePreview(text) }));
  }
  return texts;
}

function rowFor(recording: Recording, key: string, index: number, extra: Partial<MessageRow> = {}): MessageRow {
  const stored: MessageRecord | undefined = recording.messages[key];
  const missing = `(message ${key} is not in the recording)`;
  const { text, preview } = stored ? textOf(stored) : { text: missing, preview: messagePreview(missing) };
  return {
    index,
    key,
    role: stored?.role ?? 'unknown',
    estTokens: stored?.estTokens ?? 0,
    tiktokenTokens: stored?.tiktokenTokens ?? 0,
    preview,
    text,
    message: stored?.message ?? null,
    ...extra,
  };
}

function rowsForRanges(
  recording: Recording,
  messageKeys: readonly string[],
  ranges: readonly (readonly [number, number])[],
): MessageRow[] {
  const rows: MessageRow[] = [];
  for (const [from, to] of ranges) {
    for (let i = from; i < to && i < messageKeys.length; i++)
      rows.push(rowFor(recording, messageKeys[i]!, rows.length));
  }
  return rows;
}

/** How many rows rowsForRanges makes of `ranges`. */
function rangesLength(ranges: readonly (readonly [number, number])[], count: number): number {
  return ranges.reduce((sum, [from, to]) => sum + Math.max(0, Math.min(to, count) - from), 0);
}

/** How many transcript messages a summary says it covers (its key list, else its stored ranges), if it says. */
function coveredCount(
  recording: Recording,
  key: string,
  coversKeys: readonly string[] | undefined,
): number | undefined {
  if (coversKeys !== undefined) return coversKeys.length;
  const covers = recording.messages[key]?.covers;
  return covers ? covers.ranges.reduce((sum, [from, to]) => sum + Math.max(0, to - from), 0) : undefined;
}

export function buildTurnDetail(recording: Recording, laneId: string, turn: number): TurnDetail | null {
  const lane = recording.lanes.find((l) => l.id === laneId);
  const record = recording.turns[laneId]?.[turn];
  if (!lane || !record) return null;
  const session = sessionOfLane(recording, lane);
  const assembled = record.assembled.map((ref, index) => {
    const coversCount = coveredCount(recording, ref.key, ref.coversKeys);
    return {
      ...rowFor(recording, ref.key, index, {
        provenance: ref.provenance,
        ...(ref.sourceKey !== undefined ? { sourceKey: ref.sourceKey } : {}),
        ...(coversCount !== undefined ? { coversCount } : {}),
      }),
      // the assembled copy's own counts (a modified message differs from the stored original)
      estTokens: ref.estTokens,
      tiktokenTokens: ref.tiktokenTokens,
    };
  });
  const findings = [...recordingFindings(recording).at(laneId, turn)];
  const quarantine = laneQuarantineAt(recording, laneId, turn);
  const keys = session.messageKeys;
  let summarized: MessageRow[] | undefined;
  let dropped: MessageRow[] | undefined;
  return {
    lane,
    record,
    assembled,
    get summarized() {
      return (summarized ??= rowsForRanges(recording, keys, record.omitted.summarized));
    },
    get dropped() {
      return (dropped ??= rowsForRanges(recording, keys, record.omitted.dropped));
    },
    summarizedCount: rangesLength(record.omitted.summarized, keys.length),
    droppedCount: rangesLength(record.omitted.dropped, keys.length),
    newMessages: record.newMessageKeys.map((key, index) => rowFor(recording, key, index)),
    findings,
    quarantine,
    links: spawnLinks(recording, lane, turn),
    worst: turnVerdict(record, quarantine, findings),
  };
}

/** The turn as JSON: its TurnRecord with the lane's id and the assembled messages themselves (by key). */
export function turnJson(detail: TurnDetail): string {
  const messages = Object.fromEntries(detail.assembled.map((row) => [row.key, row.message]));
  return JSON.stringify({ ...detail.record, laneId: detail.lane.id, messages }, null, 2);
}

/** The turn's message lists narrowed to the rows that contain `query` (case-insensitive); the detail itself when empty. */
export function detailMatching(detail: TurnDetail, query: string): TurnDetail {
  const needle = query.trim().toLowerCase();
  if (needle === '') return detail;
  const keep = (rows: MessageRow[]) => rows.filter((row) => row.text.toLowerCase().includes(needle));
  const [summarized, dropped] = [keep(detail.summarized), keep(detail.dropped)];
  return {
    ...detail,
    assembled: keep(detail.assembled),
    summarized,
    dropped,
    summarizedCount: summarized.length,
    droppedCount: dropped.length,
    newMessages: keep(detail.newMessages),
  };
}
