/**
 * A replay followed through `replay.stream`: turns are shown as lanes finish them (the first page opens the
 * Replay view), each page under the bridge's byte bound; once the replay is done (or cancelled, with its partial
 * recording) the finished Recording is read the same way and replaces the live one.
 */
import type { InspectorApi, ReplayStreamResponse } from '../../../src/bridge';
import type { MessageRecord, Recording, TurnRecord } from '../recordingTypes';
import { advancePace } from '../../../src/view';
import { errorText } from './errorText';
import { appendTurns, assembleRecording } from './recordingPages';
import { frameBatch } from './perFrame';
import type { ReplayJobView, ReplayStoreAccess } from './replayTypes';

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Until the first turn is on screen the stream is asked more often: that wait is what a user sees as "stuck". */
const FIRST_TURN_POLL_MS = 50;

/** The pages of one generation read so far. */
interface Gathered {
  generation: ReplayStreamResponse['generation'];
  cursor: number;
  head: ReplayStreamResponse['head'];
  /** a head too large for one page: the pieces of its JSON text so far (they come before the turns) */
  headText: string;
  lanes: Recording['lanes'];
  turns: Record<string, TurnRecord[]>;
  messages: Record<string, MessageRecord>;
}

function fresh(generation: Gathered['generation']): Gathered {
  return { generation, cursor: 0, head: undefined, headText: '', lanes: [], turns: {}, messages: {} };
}

/**
 * Adds a page (new arrays for the lanes that grew, so views see the change). Page turns carry their lists as deltas
 * against the lane's previous turn, decoded here against the turns gathered before.
 */
function gather(into: Gathered, page: ReplayStreamResponse): Gathered {
  const next = page.generation === into.generation ? into : fresh(page.generation);
  const headText = next.headText + (page.headText ?? '');
  // the pieces are complete at the first page after them
  const pieced =
    !next.head && headText && page.headText === undefined ? (JSON.parse(headText) as Gathered['head']) : undefined;
  return {
    generation: page.generation,
    cursor: page.cursor,
    head: page.head ?? next.head ?? pieced,
    headText: page.headText !== undefined ? headText : '',
    lanes: page.lanes,
    turns: appendTurns(next.turns, page.turns),
    messages: page.turns.length > 0 ? { ...next.messages, ...page.messages } : next.messages,
  };
}

function recordingOf(gathered: Gathered): Recording | null {
  return gathered.head ? assembleRecording(gathered.head, gathered.lanes, gathered.turns, gathered.messages) : null;
}

/** The turns streamed so far as a cancelled replay's partial recording (null before the first turn). */
function partialSoFar(gathered: Gathered, done: number, total: number): Recording | null {
  const soFar = recordingOf(gathered);
  return soFar ? { ...soFar, partial: { reason: 'cancelled', done, total } } : null;
}

const LIVE_REDRAW_MS = 1000;

export type ShowRecording = (recording: Recording, open: boolean) => void;

/**
 * Reads the replay's pages until its Recording is complete (or it failed, or a newer replay replaced it). Pages are
 * read as fast as they come; what they change on screen (the run's figures, a live redraw) is applied once a frame
 * (perFrame.ts), so a burst of pages costs one render.
 */
export async function streamReplay(
  { set, get, subscribe }: ReplayStoreAccess,
  api: InspectorApi,
  replayId: string,
  show: ShowRecording,
): Promise<void> {
  let gathered = fresh('live');
  /** a recording was handed to `show` (or is about to be, at the next frame) */
  let opened = false;
  let shownAt = 0;
  let toShow: { recording: Recording; open: boolean } | null = null;
  let latest: ReplayStreamResponse | null = null;
  let pace: ReplayJobView['pace'];
  let cancelShown = false;
  const onScreen = frameBatch(() => {
    if (get().run?.replayId !== replayId) return;
    if (toShow) show(toShow.recording, toShow.open);
    toShow = null;
    const run = get().run!;
    if (!latest) return;
    set({
      run: {
        ...run,
        done: Math.max(run.done, latest.done),
        total: latest.total,
        ...(pace ? { pace } : {}),
      },
    });
  });
  // Cancel, confirmed by the runtime (cancelReplay sets the run cancelled) or seen in a page: the turns streamed so far
  // show at once as the partial recording, replaced by the runtime's (its final generation) once read. Not at the
  // loop's next page: the runtime answers it only once it has closed its engine hosts and built its partial recording.
  const showCancelled = (done: number, total: number) => {
    if (cancelShown || gathered.generation !== 'live') return;
    cancelShown = true;
    const soFar = partialSoFar(gathered, done, total);
    if (soFar) toShow = { recording: soFar, open: !opened };
    opened ||= soFar !== null;
    onScreen.request(); // applied now: the partial and the status together
    onScreen.flush();
    set({ run: { ...get().run!, status: 'cancelled', done, total } });
  };
  const stopWatching = subscribe(({ run }) => {
    if (run?.replayId === replayId && run.status === 'cancelled') showCancelled(run.done, run.total);
  });
  try {
    for (;;) {
      let page: ReplayStreamResponse;
      try {
        page = await api.call('replay.stream', { replayId, generation: gathered.generation, cursor: gathered.cursor });
      } catch (error) {
        onScreen.flush();
        if (get().run?.replayId === replayId)
          set({ run: { ...get().run!, status: 'failed', error: errorText(error) } });
        return;
      }
      if (get().run?.replayId !== replayId) return;
      if (page.status === 'cancelled') showCancelled(Math.max(get().run!.done, page.done), page.total);
      gathered = gather(gathered, page);
      const recording = page.turns.length > 0 || page.head ? recordingOf(gathered) : null;
      const complete = page.generation === 'final' && !page.more;
      // live: the first turns at once, then at most one redraw a second (each redraw re-renders the whole view)
      const due = !opened || Date.now() - shownAt >= LIVE_REDRAW_MS;
      if (recording && ((page.generation === 'live' && due && !cancelShown) || complete)) {
        toShow = { recording, open: !opened };
        opened = true;
        shownAt = Date.now();
      }
      if (page.done > 0 && page.status === 'running')
        pace = advancePace(pace, { done: page.done, elapsedMs: page.elapsedMs });
      latest = page;
      onScreen.request();
      // not running: the final generation until complete; a live page then means no Recording (failed, or
      // cancelled before the first turn)
      const ended = page.status !== 'running' && (complete || page.generation === 'live');
      if (ended) {
        onScreen.flush();
        const run = get().run!;
        set({
          run: {
            ...run,
            status: page.status,
            done: page.status === 'done' ? page.total : Math.max(run.done, page.done),
            total: page.total,
            error: page.error ?? null,
          },
        });
        return;
      }
      if (!page.more && page.status === 'running')
        await delay(opened ? get().pollIntervalMs : Math.min(FIRST_TURN_POLL_MS, get().pollIntervalMs));
    }
  } finally {
    stopWatching();
  }
}
