/**
 * `replay.get` within the bridge's message bound: a Recording small enough travels whole; a larger one is read as
 * pages (`from`, `count`) of its turns — lane by lane, in the Recording's order, each page under a byte budget,
 * lists as deltas against the lane's previous turn and each message once, as `replay.stream` pages carry them
 * (the same TurnLog). The first page has the head (the Recording without turns and messages); a head too large for
 * a page (a session's message keys run to MBs) comes first as pieces of its JSON text (`headText`), one a page,
 * before the turns. Read from 0 until `more` is false, the pages give the Recording back.
 */
import type { MessageRecord, Recording } from '../../contract/recording';
import type { EncodedTurnRecord } from '../../view/listDelta';
import { sliceRecording, type RecordingSlice } from '../recording/sliceRecording';
import { DEFAULT_PAGE_BYTES, type RecordingHead } from './replayStreamPage';
import { headPieces } from './headPieces';
import { turnLogOf, type TurnLog } from './turnLog';

/** JSON bytes a bridge message stays under */
export const BRIDGE_MESSAGE_BYTES = 1_000_000;
/** a Recording travels whole only under this (room left for the answer around it) */
export const INLINE_RECORDING_BYTES = 900_000;
/** the most turns one page may ask for */
export const MAX_PAGE_TURNS = 10_000;

export interface RecordingPageRequest {
  /** the position of the page's first turn (0 to the number of turns) */
  from?: number;
  /** at most this many turns (default: as many as fit in the page's byte budget) */
  count?: number;
}

export interface RecordingPage {
  from: number;
  /** where the next page starts */
  next: number;
  /** turns in the Recording (all lanes) */
  total: number;
  more: boolean;
  /** on the page from 0 */
  head?: RecordingHead;
  /** a piece of the head's JSON text, when the head is too large for one page (the pieces joined parse to it) */
  headText?: string;
  turns: EncodedTurnRecord[];
  messages: Record<string, MessageRecord>;
}

/** A page request a person or program got wrong; `path` names the field (`/from`, `/count`). */
export class RecordingPageError extends Error {
  readonly code = 'invalid_params';
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

const fits = new WeakMap<Recording, boolean>();

/** Whether the Recording's JSON stays under `limit` bytes (summed part by part: a long one is never one string). */
export function recordingFitsInline(recording: Recording, limit = INLINE_RECORDING_BYTES): boolean {
  const known = limit === INLINE_RECORDING_BYTES ? fits.get(recording) : undefined;
  if (known !== undefined) return known;
  const { turns, messages, ...head } = recording;
  let bytes = Buffer.byteLength(JSON.stringify(head));
  const add = (value: unknown) => (bytes += Buffer.byteLength(JSON.stringify(value)) + 1) <= limit;
  const fit =
    bytes <= limit && Object.values(turns).every((lane) => lane.every(add)) && Object.values(messages).every(add);
  if (limit === INLINE_RECORDING_BYTES) fits.set(recording, fit);
  return fit;
}

/** What paging a job's Recording keeps between pages (the log of the Recording, or of the slice, last read). */
export interface PageCache {
  recording?: Recording;
  sliceKey?: string;
  source?: Recording;
  log?: TurnLog;
  head?: RecordingHead;
  /** the head's JSON in pieces when it is too large for a page (else empty) */
  headPieces?: string[];
}

function logFor(cache: PageCache, recording: Recording, slice: RecordingSlice | undefined) {
  const sliceKey = JSON.stringify(slice ?? {});
  if (cache.recording !== recording || cache.sliceKey !== sliceKey || !cache.log || !cache.source) {
    const source = slice ? sliceRecording(recording, slice) : recording;
    const { turns: _turns, messages: _messages, ...head } = source;
    Object.assign(cache, { recording, sliceKey, source, log: turnLogOf(source), head, headPieces: headPieces(head) });
  }
  return { source: cache.source!, log: cache.log!, head: cache.head!, pieces: cache.headPieces! };
}

/** Throws a RecordingPageError for a request that cannot name a page of `total` turns. */
export function checkPageRequest(request: RecordingPageRequest, total: number): number {
  if (request.from === undefined) {
    throw new RecordingPageError('count pages a recording together with from (the first page is from: 0).', '/count');
  }
  const { from, count } = request;
  if (!Number.isSafeInteger(from) || from < 0 || from > total) {
    throw new RecordingPageError(
      `from ${from} is outside the recording: it has ${total} turns, so a page starts at 0 to ${total}.`,
      '/from',
    );
  }
  if (count !== undefined && (!Number.isSafeInteger(count) || count < 1 || count > MAX_PAGE_TURNS)) {
    throw new RecordingPageError(`count ${count} is not a number of turns from 1 to ${MAX_PAGE_TURNS}.`, '/count');
  }
  return from;
}

/** The page of `recording` (or of its slice) at `request`. */
export function recordingPage(
  cache: PageCache,
  recording: Recording,
  request: RecordingPageRequest,
  slice?: RecordingSlice,
): RecordingPage {
  const { source, log, head, pieces } = logFor(cache, recording, slice);
  // positions: the head's pieces (if any), then the turns
  const total = pieces.length + log.length;
  const from = checkPageRequest(request, total);
  if (from < pieces.length) {
    return { from, next: from + 1, total, more: true, headText: pieces[from]!, turns: [], messages: {} };
  }
  const withHead = from === 0;
  const budget = DEFAULT_PAGE_BYTES - (withHead ? Buffer.byteLength(JSON.stringify(head)) : 0);
  const page = log.page(from - pieces.length, Math.max(1, budget), (key) => source.messages[key], {
    ...(request.count !== undefined ? { maxTurns: request.count } : {}),
  });
  const next = pieces.length + page.next;
  return {
    from,
    next,
    total,
    more: next < total,
    ...(withHead ? { head } : {}),
    turns: page.turns,
    messages: page.messages,
  };
}
