/**
 * Everything the TurnView shows for one lane's turn: the assembled messages in order (role, provenance, both
 * token counts, text), the reference messages the engine left out (summarized / dropped, from the index
 * ranges), the turn's new messages and its findings. Pure.
 */
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
}

export interface TurnDetail {
  lane: LaneRecord;
  record: TurnRecord;
  assembled: MessageRow[];
  summarized: MessageRow[];
  dropped: MessageRow[];
  newMessages: MessageRow[];
  findings: Finding[];
}

function rowFor(recording: Recording, key: string, index: number, extra: Partial<MessageRow> = {}): MessageRow {
  const stored: MessageRecord | undefined = recording.messages[key];
  const text = stored ? messageText(stored.message) : `(message ${key} is not in the recording)`;
  return {
    index,
    key,
    role: stored?.role ?? 'unknown',
    estTokens: stored?.estTokens ?? 0,
    tiktokenTokens: stored?.tiktokenTokens ?? 0,
    preview: messagePreview(text),
    text,
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
  return {
    lane,
    record,
    assembled,
    summarized: rowsForRanges(recording, session.messageKeys, record.omitted.summarized),
    dropped: rowsForRanges(recording, session.messageKeys, record.omitted.dropped),
    newMessages: record.newMessageKeys.map((key, index) => rowFor(recording, key, index)),
    findings: recording.findings.filter((f) => f.lane === laneId && f.turn === turn),
  };
}
