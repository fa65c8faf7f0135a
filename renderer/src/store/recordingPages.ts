/**
 * A replay's Recording as `replay.get` gives it: whole when it fits in one bridge message, else `paged` and read
 * page by page (`from`, `count`), each page under the bridge's bound. Page turns carry their lists as deltas
 * against the lane's previous turn (as `replay.stream` pages do); they are decoded here in order.
 */
import type { InspectorApi, ReplayGetResponse, ReplayStreamResponse } from '../../../src/bridge';
import { decodeTurnRecord } from '../../../src/view/listDelta';
import type { MessageRecord, Recording, TurnRecord } from '../recordingTypes';

type EncodedTurns = ReplayStreamResponse['turns'];
type Head = NonNullable<ReplayStreamResponse['head']>;

/** `turns` with `encoded` added after each lane's turns so far (new arrays for the lanes that grew). */
export function appendTurns(turns: Record<string, TurnRecord[]>, encoded: EncodedTurns): Record<string, TurnRecord[]> {
  const next = { ...turns };
  const grown = new Set<string>();
  for (const record of encoded) {
    if (!grown.has(record.lane)) next[record.lane] = [...(next[record.lane] ?? [])];
    grown.add(record.lane);
    const list = next[record.lane]!;
    list.push(decodeTurnRecord(record, list[list.length - 1], `turn ${record.turn + 1} of lane ${record.lane}`));
  }
  return next;
}

/** The Recording of a head, its lanes and what the pages gave (every lane has its list, empty when it has none). */
export function assembleRecording(
  head: Head,
  lanes: Recording['lanes'],
  turns: Record<string, TurnRecord[]>,
  messages: Record<string, MessageRecord>,
): Recording {
  const byLane: Record<string, TurnRecord[]> = {};
  for (const lane of lanes) byLane[lane.id] = turns[lane.id] ?? [];
  return { ...head, lanes, turns: byLane, messages };
}

/** how often a reading starts again because a new live pass replaced the recording it was reading */
const MAX_RESTARTS = 3;

/**
 * Reads the replay's recording page by page from 0 (null when it has none). In live mode a page of another pass
 * than the first page's means the recording was replaced meanwhile: the reading starts again from 0.
 */
export async function readRecordingPages(api: InspectorApi, replayId: string): Promise<Recording | null> {
  for (let attempt = 0; attempt <= MAX_RESTARTS; attempt++) {
    let head: Head | undefined;
    // a head too large for one page comes in pieces of its JSON text first
    let headText = '';
    let pass: number | undefined;
    let turns: Record<string, TurnRecord[]> = {};
    const messages: Record<string, MessageRecord> = {};
    for (let from = 0; ;) {
      const { page } = await api.call('replay.get', { replayId, from });
      if (!page) return null;
      if (from === 0) pass = page.pass;
      else if (page.pass !== pass) break;
      head = page.head ?? head;
      headText += page.headText ?? '';
      turns = appendTurns(turns, page.turns);
      Object.assign(messages, page.messages);
      if (page.more) {
        from = page.next;
        continue;
      }
      head ??= headText ? (JSON.parse(headText) as Head) : undefined;
      return head ? assembleRecording(head, head.lanes, turns, messages) : null;
    }
  }
  throw new Error(`The recording of replay ${replayId} kept changing while it was read (live mode): try again.`);
}

/** The recording a replay.get answer stands for: the one in it, read page by page when it is `paged`, else null. */
export async function recordingOfAnswer(
  api: InspectorApi,
  replayId: string,
  answer: Pick<ReplayGetResponse, 'recording' | 'paged'>,
): Promise<Recording | null> {
  if (answer.recording) return answer.recording;
  return answer.paged ? readRecordingPages(api, replayId) : null;
}
