/**
 * `replay.stream`: a replay read page by page while it runs. While it runs, pages carry the turns lanes have
 * finished (generation `live`); once it has a Recording (done, or cancelled with its partial recording), pages
 * carry that Recording (generation `final`), starting with its head — everything but turns and messages. A client
 * keeps its cursor within one generation and starts again at 0 when the generation changes.
 */
import type { LaneRecord, MessageRecord, Recording } from '../../contract/recording';
import type { EncodedTurnRecord } from '../../view/listDelta';
import type { LiveReplay } from '../lane/replayTypes';
import { TurnLog, turnLogOf } from './turnLog';

/** what a replay's job keeps for streaming */
export interface JobStream {
  log: TurnLog;
  live?: LiveReplay;
  final?: { recording: Recording; log: TurnLog };
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

function finalPage(stream: JobStream, recording: Recording, request: ReplayStreamRequest, maxBytes: number) {
  if (stream.final?.recording !== recording) stream.final = { recording, log: turnLogOf(recording) };
  const { log } = stream.final;
  const cursor = request.generation === 'final' ? (request.cursor ?? 0) : 0;
  const head = cursor === 0 ? headOf(recording) : undefined;
  const budget = maxBytes - (head ? Buffer.byteLength(JSON.stringify(head)) : 0);
  const page = log.page(cursor, Math.max(1, budget), (key) => recording.messages[key]);
  return {
    generation: 'final' as const,
    cursor: page.next,
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
  if (!live) return { generation: 'live' as const, cursor, more: false, lanes: [], turns: [], messages: {} };
  // the head goes with the first turns (before them the client has nothing to draw)
  const head = cursor === 0 && log.length > 0 ? headOf(live.partial()) : undefined;
  const budget = maxBytes - (head ? Buffer.byteLength(JSON.stringify(head)) : 0);
  const page = log.page(cursor, Math.max(1, budget), live.message, { withAsSent: false });
  return {
    generation: 'live' as const,
    cursor: page.next,
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
