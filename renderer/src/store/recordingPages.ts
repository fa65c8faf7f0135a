/**
 * A Recording as `replay.get`, `recordings.open`, `recordings.import` and `batch.recording` give it: whole when it
 * fits in one bridge message, else `paged` and read page by page (`from`, `count`), each page under the bridge's
 * bound. Page turns carry their lists as deltas
 * against the lane's previous turn (as `replay.stream` pages do); they are decoded here in order.
 */
import type { InspectorApi, OpenedRecording, ReplayGetResponse, ReplayStreamResponse } from '../../../src/bridge';
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

type Page = NonNullable<ReplayGetResponse['page']>;

/** how often a reading starts again because a new live pass replaced the recording it was reading */
const MAX_RESTARTS = 3;

/**
 * Reads a recording page by page from 0 with `pageAt` (null when there is none); `what` names it in errors. In
 * live mode a page of another pass than the first page's means the recording was replaced meanwhile: the reading
 * starts again from 0.
 */
export async function readPages(
  pageAt: (from: number) => Promise<Page | undefined>,
  what: string,
): Promise<Recording | null> {
  for (let attempt = 0; attempt <= MAX_RESTARTS; attempt++) {
    let head: Head | undefined;
    // a head too large for one page comes in pieces of its JSON text first
    let headText = '';
    let pass: number | undefined;
    let turns: Record<string, TurnRecord[]> = {};
    const messages: Record<string, MessageRecord> = {};
    for (let from = 0; ;) {
      const page = await pageAt(from);
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
  throw new Error(`The recording of ${what} kept changing while it was read (live mode): try again.`);
}

/** Reads the replay's recording page by page with `replay.get` (null when it has none). */
export function readRecordingPages(api: InspectorApi, replayId: string): Promise<Recording | null> {
  return readPages(async (from) => (await api.call('replay.get', { replayId, from })).page, `replay ${replayId}`);
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

/** A kept recording (recordings.open / recordings.import): the one in the answer, else read with recordings.open. */
export async function keptRecordingOf(
  api: InspectorApi,
  answer: Pick<OpenedRecording, 'entry' | 'recording' | 'paged'>,
): Promise<Recording> {
  const { id, title } = answer.entry;
  const pageAt = async (from: number) => (await api.call('recordings.open', { id, from })).page;
  const read = answer.recording ?? (answer.paged ? await readPages(pageAt, title) : null);
  if (!read) throw new Error(`The recent recording ${title} came without its recording.`);
  return read;
}

/** A batch row's recording (batch.recording): whole when it fits in one message, else read page by page. */
export async function batchRecordingOf(api: InspectorApi, batchId: string, index: number): Promise<Recording> {
  const answer = await api.call('batch.recording', { batchId, index });
  const pageAt = async (from: number) => (await api.call('batch.recording', { batchId, index, from })).page;
  const read = answer.recording ?? (answer.paged ? await readPages(pageAt, `session ${index + 1} of the batch`) : null);
  if (!read) throw new Error(`Session ${index + 1} of the batch came without its recording.`);
  return read;
}
