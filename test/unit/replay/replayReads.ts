/** Reads a replay over a dispatcher as the app does — its export, its pages — noting each answer's wire size. */
import type { createBridgeDispatcher } from '../../../src/bridge';
import type { MessageRecord, Recording, TurnRecord } from '../../../src/contract/recording';
import type { RecordingPage } from '../../../src/replay';
import { decodeTurnRecord } from '../../../src/view/listDelta';
import { callWithinBound } from '../../../renderer/src/bridge/piecedAnswer';

type Dispatcher = Pick<ReturnType<typeof createBridgeDispatcher>, 'call'>;

export interface ExportRead {
  text: string;
  /** UTF-8 bytes of the export, as the answer says */
  bytes: number;
  /** each answer as it goes on the wire: its method (replay.export, then any bridge.piece) and JSON bytes */
  answers: { method: string; bytes: number }[];
}

/** A replay's export read as the app's clients read it (callWithinBound: an answer over 1 MB comes in pieces). */
export async function readExport(d: Dispatcher, replayId: string, format: 'json' | 'html'): Promise<ExportRead> {
  const answers: ExportRead['answers'] = [];
  const call = callWithinBound(async (method, params) => {
    const outcome = await d.call(method, params);
    answers.push({ method, bytes: Buffer.byteLength(JSON.stringify({ id: 1, ...outcome })) });
    if (!outcome.ok) throw new Error(`${method}: ${outcome.error.message}`);
    return outcome.result;
  });
  const { content, bytes } = (await call('replay.export', { replayId, format })) as { content: string; bytes: number };
  return { text: content, bytes, answers };
}

/** Adds a page's turns (decoded against the lane's previous turn) and messages to what has been read so far. */
export function addPageContent(
  page: Pick<RecordingPage, 'turns' | 'messages'>,
  turns: Record<string, TurnRecord[]>,
  messages: Record<string, MessageRecord>,
): void {
  for (const encoded of page.turns) {
    const lane = (turns[encoded.lane] ??= []);
    lane.push(decodeTurnRecord(encoded, lane.at(-1), `turn ${encoded.turn}`));
  }
  Object.assign(messages, page.messages);
}

/**
 * A paged Recording read from 0 with `method` (its params plus `from`: replay.get, recordings.open, batch.recording),
 * as the app does, and put together; `sizes` gets each answer's JSON bytes.
 */
export async function readRecordingPages(d: Dispatcher, method: string, params: object, sizes: number[] = []) {
  const pages: RecordingPage[] = [];
  const turns: Record<string, TurnRecord[]> = {};
  const messages: Record<string, MessageRecord> = {};
  for (let from = 0; ;) {
    const got = await d.call(method, { ...params, from });
    sizes.push(Buffer.byteLength(JSON.stringify({ id: 1, ...got })));
    if (!got.ok) throw new Error(`${method}: ${got.error.message}`);
    const page = (got.result as { page: RecordingPage }).page;
    pages.push(page);
    addPageContent(page, turns, messages);
    if (!page.more) break;
    from = page.next;
  }
  return { pages, recording: { ...pages[0]!.head!, turns, messages } as Recording };
}

/** replay.get's pages of a replay put together. */
export function readReplayPages(d: Dispatcher, replayId: string, sizes: number[] = []) {
  return readRecordingPages(d, 'replay.get', { replayId }, sizes);
}
