/**
 * `replay.stream`: a replay read page by page while it runs. While it runs, pages carry the turns lanes have
 * finished (generation `live`); once it has a Recording (done, or cancelled with its partial recording), pages
 * carry that Recording (generation `final`), starting with its head — everything but turns and messages. A client
 * keeps its cursor within one generation and starts again at 0 when the generation changes. A head too large for a
 * page (a long session's message keys) comes first as pieces of its JSON text (`headText`), one a page, each taking
 * a cursor position before the turns (`headPieces.ts`).
 */
import type { LaneRecord, MessageRecord, Recording } from '../../contract/recording';
import type { EncodedTurnRecord } from '../../view/listDelta';
import type { LiveReplay } from '../lane/replayTypes';
import { headPieces } from './headPieces';
import { TurnLog, turnLogOf } from './turnLog';

/** what a replay's job keeps for streaming */
export interface JobStream {
  log: TurnLog;
  live?: LiveReplay;
  /** the live generation's head as sent (its pieces when it is too large for a page) */
  liveHead?: { head: RecordingHead; pieces: string[] };
  final?: { recording: Recording; log: TurnLog; head: RecordingHead; pieces: string[] };
}

export type StreamGeneration = 'live' | 'final';

export interface ReplayStreamRequest {
  generation?: StreamGeneration;
  cursor?: number;
  /** JSON bytes a page stays under (default 512 KiB) */
  maxBytes?: number;
}

export type RecordingHead = Omit<Recording, 'turns' | 'messages'>;

export interface ReplayStreamPage {
  generation: StreamGeneration;
  /** where the next page starts */
  cursor: number;
  /** more turns are ready beyond `cursor` */
  more: boolean;
  /** ms since the replay started */
  elapsedMs: number;
  lanes: LaneRecord[];
  /** on the first page of a generation that has turns */
  head?: RecordingHead;
  /** instead of `head` when it is too large for a page: a piece of its JSON text (the pieces come first) */
  headText?: string;
  /** lists as deltas against the lane's previous turn in this generation (`decodeLaneTurns`) */
  turns: EncodedTurnRecord[];
  messages: Record<string, MessageRecord>;
}

export const DEFAULT_PAGE_BYTES = 512 * 1024;

export function createJobStream(): JobStream {
  return { log: new TurnLog() };
}

function headOf(recording: Recording): RecordingHead {
  const { turns: _turns, messages: _messages, ...head } = recording;
  return head;
}

/** The page of a head piece at `cursor` (before the turns), or null past the pieces. */
function piecePage(pieces: string[], cursor: number, generation: StreamGeneration, lanes: LaneRecord[]) {
  if (cursor >= pieces.length) return null;
  return { generation, cursor: cursor + 1, more: true, lanes, headText: pieces[cursor]!, turns: [], messages: {} };
}

function finalPage(stream: JobStream, recording: Recording, request: ReplayStreamRequest, maxBytes: number) {
  if (stream.final?.recording !== recording) {
    const head = headOf(recording);
    stream.final = { recording, log: turnLogOf(recording), head, pieces: headPieces(head) };
  }
  const { log, pieces } = stream.final;
  const cursor = request.generation === 'final' ? (request.cursor ?? 0) : 0;
  const piece = piecePage(pieces, cursor, 'final', recording.lanes);
  if (piece) return piece;
  const head = cursor === 0 ? stream.final.head : undefined;
  const budget = maxBytes - (head ? Buffer.byteLength(JSON.stringify(head)) : 0);
  const page = log.page(cursor - pieces.length, Math.max(1, budget), (key) => recording.messages[key]);
  return {
    generation: 'final' as const,
    cursor: pieces.length + page.next,
    more: page.next < log.length,
    lanes: recording.lanes,
    ...(head ? { head } : {}),
    turns: page.turns,
    messages: page.messages,
  };
}

function livePage(stream: JobStream, request: ReplayStreamRequest, maxBytes: number) {
  const { live, log } = stream;
  const cursor = request.generation === 'live' ? (request.cursor ?? 0) : 0;
  if (!live || log.length === 0) {
    return { generation: 'live' as const, cursor, more: false, lanes: live?.lanes() ?? [], turns: [], messages: {} };
  }
  // the head goes with the first turns (before them the client has nothing to draw)
  if (cursor === 0 || !stream.liveHead) {
    const head = headOf(live.partial());
    stream.liveHead = { head, pieces: headPieces(head) };
  }
  const { pieces } = stream.liveHead;
  const piece = piecePage(pieces, cursor, 'live', live.lanes());
  if (piece) return piece;
  const head = cursor === 0 ? stream.liveHead.head : undefined;
  const budget = maxBytes - (head ? Buffer.byteLength(JSON.stringify(head)) : 0);
  const page = log.page(cursor - pieces.length, Math.max(1, budget), live.message, { withAsSent: false });
  return {
    generation: 'live' as const,
    cursor: pieces.length + page.next,
    more: page.next < log.length,
    lanes: live.lanes(),
    ...(head ? { head } : {}),
    turns: page.turns,
    messages: page.messages,
  };
}

/** The next page for a client at `request` (see the module comment). */
export function streamPage(
  stream: JobStream,
  job: { running: boolean; recording?: Recording; startedAt: number },
  request: ReplayStreamRequest,
): ReplayStreamPage {
  const maxBytes = request.maxBytes ?? DEFAULT_PAGE_BYTES;
  const page =
    job.recording && !job.running
      ? finalPage(stream, job.recording, request, maxBytes)
      : livePage(stream, request, maxBytes);
  return { ...page, elapsedMs: Math.max(0, performance.now() - job.startedAt) };
}
