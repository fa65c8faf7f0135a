/** A replay from replay.start to its Recording: progress from `replay.get` polls and `replay.progress` events. */
import type { BridgeEvent, InspectorApi } from '../../../src/bridge';
import { startRecordingView } from '../flows/recordingView';
import { useAppStore } from './appStore';
import { errorText } from './errorText';
import { frameBatch } from './perFrame';
import { recordingOfAnswer } from './recordingPages';
import { replayParams } from './replayParams';
import { streamReplay } from './replayStream';
import type { FinishedRecording, ReplayLaunch, ReplayOpensIn, ReplayStoreAccess } from './replayTypes';

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How many finished recordings a window keeps besides the current one (Compare's "against" choices). */
export const MAX_PREVIOUS_RECORDINGS = 4;

/** The current recording joins the previous ones when a new one replaces it. */
function keepPrevious(state: ReturnType<ReplayStoreAccess['get']>): FinishedRecording[] {
  const { recording, recordingReplayId, recordingTitle, previous } = state;
  if (!recording || !recordingReplayId) return previous;
  const current = { replayId: recordingReplayId, title: recordingTitle, recording, finishedAt: Date.now() };
  return [current, ...previous.filter((p) => p.replayId !== recordingReplayId)].slice(0, MAX_PREVIOUS_RECORDINGS);
}

/**
 * The recording becomes the one shown; `opensIn` (its first pages only) starts the views afresh on it and opens
 * that section — what the user asked for by starting the replay, so leaving the section they are in does not ask.
 */
function showRecording(
  { set, get }: ReplayStoreAccess,
  replayId: string,
  recording: NonNullable<FinishedRecording['recording']>,
  title: string,
  opensIn: ReplayOpensIn | null,
): void {
  set({
    recording,
    recordingReplayId: replayId,
    recordingTitle: title,
    exportError: null,
    previous: get().recordingReplayId === replayId ? get().previous : keepPrevious(get()),
  });
  if (!opensIn) return;
  startRecordingView(recording);
  useAppStore.getState().selectSection(opensIn, { ask: false });
}

/**
 * Polls replay.get until the replay ends (or a newer one replaces it); a finished one opens in the Replay view.
 * In live mode every pass replaces the recording shown (the timeline grows; the selection stays). A recording too
 * large for one bridge message is read page by page.
 */
async function watch(
  store: ReplayStoreAccess,
  api: InspectorApi,
  replayId: string,
  opensIn: ReplayOpensIn,
): Promise<void> {
  const { set, get } = store;
  let passes = 0;
  for (;;) {
    let snapshot;
    try {
      snapshot = await api.call('replay.get', { replayId, ...(passes > 0 ? { afterPass: passes } : {}) });
    } catch (error) {
      if (get().run?.replayId === replayId) set({ run: { ...get().run!, status: 'failed', error: errorText(error) } });
      return;
    }
    const run = get().run;
    if (run?.replayId !== replayId) return; // a newer replay replaced this one
    if (snapshot.status === 'running') {
      const pass = snapshot.passes ?? 0;
      if (snapshot.following && (snapshot.recording || snapshot.paged) && pass > passes) {
        const recording = await recordingOfAnswer(api, replayId, snapshot);
        if (get().run?.replayId !== replayId) return;
        if (recording) showRecording(store, replayId, recording, run.sessionTitle, passes === 0 ? opensIn : null);
        passes = pass;
      }
      set({
        run: {
          ...get().run!,
          status: 'running',
          done: Math.max(run.done, snapshot.done),
          total: snapshot.total,
          ...(snapshot.following ? { following: true, passes } : {}),
        },
      });
      await delay(get().pollIntervalMs);
      continue;
    }
    set({
      run: {
        ...run,
        status: snapshot.status,
        done: snapshot.status === 'done' ? snapshot.total : Math.max(run.done, snapshot.done),
        total: snapshot.total,
        error: snapshot.error ?? null,
      },
    });
    const recording = snapshot.status === 'done' ? await recordingOfAnswer(api, replayId, snapshot) : null;
    if (recording && get().run?.replayId === replayId) {
      showRecording(store, replayId, recording, run.sessionTitle, passes === 0 ? opensIn : null);
    }
    return;
  }
}

/** Starts the replay `launch` asks for (its lanes, not necessarily the form's) and follows it to the end. */
export async function startReplay(
  store: ReplayStoreAccess,
  api: InspectorApi,
  launch: ReplayLaunch,
  /** plugins.requestConsent's nonce for the plugins confirmed for this run */
  consentNonce?: string,
): Promise<void> {
  const { set, get } = store;
  const { file: sessionFile, title: sessionTitle } = launch.session;
  const built = replayParams(launch.form, sessionFile, launch.choices, consentNonce);
  if (!built.ok) {
    set({ formError: built.problem });
    return;
  }
  set({
    formError: null,
    run: { replayId: null, status: 'starting', done: 0, total: 0, lanes: {}, error: null, sessionFile, sessionTitle },
  });
  try {
    const { replayId } = await api.call('replay.start', built.params);
    set({ run: { ...get().run!, replayId, status: 'running' } });
    // live mode replaces the recording per pass (replay.get); a one-off replay streams its turns (replay.stream)
    if (built.params.follow) await watch(store, api, replayId, launch.opensIn);
    else
      await streamReplay(store, api, replayId, (recording, open) => {
        showRecording(store, replayId, recording, sessionTitle, open ? launch.opensIn : null);
      });
  } catch (error) {
    set({ run: { ...get().run!, status: 'failed', error: errorText(error) } });
  }
}

type ProgressPayload = Extract<BridgeEvent, { topic: 'replay.progress' }>['payload'];

/**
 * The running replay's `replay.progress` events (one per lane-turn): each that lane's latest turn and one more
 * lane-turn done. They are applied together once a frame (perFrame.ts), not one store update each.
 */
export function progressApplier({ set, get }: ReplayStoreAccess): (event: BridgeEvent) => void {
  let pending: ProgressPayload[] = [];
  const batch = frameBatch(() => {
    const events = pending;
    pending = [];
    const run = get().run;
    if (!run || run.status !== 'running') return;
    const lanes = { ...run.lanes };
    let done = run.done;
    for (const progress of events) {
      if (progress.replayId !== run.replayId) continue;
      lanes[progress.lane] = { turn: progress.turn + 1, total: progress.total };
      // subagent lanes report their own turns; the run's done/total count the root lanes only
      if (progress.parentLane === undefined) done++;
    }
    set({ run: { ...run, lanes, done } });
  });
  return (event) => {
    if (event.topic !== 'replay.progress') return;
    pending.push(event.payload);
    batch.request();
  };
}

/**
 * Cancels the running replay. Once the runtime confirms (its lanes stop before their next turn), a streaming
 * replay shows as cancelled at once: streamReplay shows the turns streamed so far as the partial recording while
 * the runtime closes its engine hosts and builds the partial recording that replaces them (issue 34: waiting for
 * that took seconds). Live mode's Stop ends the job as done with its last pass: it waits for watch() to see that.
 */
export async function cancelReplay({ set, get }: ReplayStoreAccess, api: InspectorApi): Promise<void> {
  const run = get().run;
  if (!run?.replayId || run.status !== 'running') return;
  try {
    const { cancelled } = await api.call('replay.cancel', { replayId: run.replayId });
    const now = get().run;
    if (cancelled && now?.replayId === run.replayId && now.status === 'running' && !now.following) {
      set({ run: { ...now, status: 'cancelled' } });
    }
  } catch (error) {
    set({ run: { ...run, error: errorText(error) } });
  }
}
