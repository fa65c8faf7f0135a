/**
 * Keeps the URL hash and the app in step: what is on screen is written to the hash (a new history entry per view,
 * recording, session, lane or turn; the message replaces the entry), and a hash that arrives — at start, by
 * back/forward, or typed — is applied to the stores. Recordings are opened through `registerRecordingOpener`.
 */
import type { InspectorApi } from '../../../src/bridge';
import { installRecording } from '../flows/installRecording';
import { useAppStore } from '../store/appStore';
import { useOverlayStore } from '../store/overlayStore';
import { recordingOfAnswer } from '../store/recordingPages';
import { useReplayStore } from '../store/replayStore';
import { useSelectionStore } from '../store/selectionStore';
import { formatHash, onlyMessageDiffers, parseHash, type Route } from './hashRoute';

/**
 * Opens the recording with this id so it is the one shown (and its selection reset); resolves false when it is not
 * available. The default knows the replays of this window and of the running runtime (`replay.get`); the
 * recent-recordings store registers one that also reads recordings kept on disk.
 */
export type RecordingOpener = (recordingId: string) => Promise<boolean>;

const replayIdOfCurrent = () => useReplayStore.getState().recordingReplayId;
let opener: RecordingOpener | null = null;
let idOfCurrent: () => string | null = replayIdOfCurrent;

/**
 * The recent-recordings store's hook into links: `open` opens a recording by id, `currentId` names the one shown
 * (default: its replay id). null puts the defaults back.
 */
export function registerRecordingOpener(open: RecordingOpener | null, currentId?: () => string | null): void {
  opener = open;
  idOfCurrent = open && currentId ? currentId : replayIdOfCurrent;
}

/**
 * Opens a replay of this window, or one the running runtime still holds (`replay.get`; a long recording comes page
 * by page, no bridge message over 1 MB); false when neither has it.
 */
export async function openFromRuntime(api: InspectorApi | null, id: string): Promise<boolean> {
  const previous = useReplayStore.getState().previous.find((p) => p.replayId === id);
  if (previous) {
    installRecording(previous.recording, id, previous.title);
    return true;
  }
  if (!api) return false;
  try {
    const recording = await recordingOfAnswer(api, id, await api.call('replay.get', { replayId: id }));
    if (!recording) return false;
    installRecording(recording, id, recording.session.sessionId);
    return true;
  } catch {
    return false;
  }
}

function defaultOpener(api: InspectorApi | null): RecordingOpener {
  return (id) => openFromRuntime(api, id);
}

/** The route of what is on screen now. */
export function currentRoute(): Route {
  const section = useAppStore.getState().activeSection;
  const { recording } = useReplayStore.getState();
  const id = idOfCurrent();
  if ((section !== 'replay' && section !== 'compare') || !recording || !id) return { section };
  const selection = useSelectionStore.getState();
  const route: Route = { section, recording: id, turn: selection.turn };
  if (selection.sessionId && selection.sessionId !== recording.session.sessionId) route.session = selection.sessionId;
  if (selection.laneId) route.lane = selection.laneId;
  const message = Object.keys(selection.expanded).at(-1);
  if (message) route.message = message;
  return route;
}

function applySelection(route: Route): void {
  const { recording } = useReplayStore.getState();
  if (!recording) return;
  const selection = useSelectionStore.getState();
  const session = route.session ?? recording.session.sessionId;
  const lanes = recording.lanes.filter((lane) => lane.sessionId === session);
  const lane = lanes.find((l) => l.id === route.lane) ?? lanes[0];
  if (session !== selection.sessionId) selection.selectSession(session, lane?.id ?? null);
  else if (lane && lane.id !== selection.laneId) selection.selectLane(lane.id);
  if (route.turn !== undefined && route.turn !== useSelectionStore.getState().turn) selection.selectTurn(route.turn);
  const expanded = route.message ? { [route.message]: true as const } : {};
  useSelectionStore.setState({ expanded });
  if (route.message) revealExpandedMessage();
}

function revealExpandedMessage(): void {
  requestAnimationFrame(() =>
    document.querySelector('button.preview[aria-expanded="true"]')?.scrollIntoView?.({ block: 'center' }),
  );
}

/** Applies a route to the stores; a recording it names is opened first (a problem is kept when it cannot be). */
export async function applyRoute(route: Route, open: RecordingOpener): Promise<void> {
  const notice = useOverlayStore.getState();
  notice.setProblem(null);
  if (route.recording && route.recording !== idOfCurrent()) {
    const opened = await open(route.recording).catch(() => false);
    if (!opened) {
      notice.setProblem(
        `The link names recording ${route.recording}, which is not available here any more: replay the session again or open the recording's file.`,
      );
      useAppStore.getState().selectSection(route.section);
      return;
    }
  }
  useAppStore.getState().selectSection(route.section);
  if (route.recording) applySelection(route);
}

/**
 * The history entries the sync writes. A turn switch's entry is written once the browser is idle (the switched
 * frame painted): history.pushState costs a round trip to the browser process, which the switch would otherwise
 * wait for. Writes made meanwhile go out as one: pushed if any of them was a push, else replacing the entry.
 */
function historyWriter(win: Window) {
  let due: { hash: string; push: boolean } | null = null;
  let stopped = false;
  const flush = () => {
    const next = due;
    due = null;
    if (!next || stopped || next.hash === win.location.hash) return;
    if (next.push) win.history.pushState(null, '', next.hash);
    else win.history.replaceState(null, '', next.hash);
  };
  const whenIdle = () => {
    if (typeof win.requestIdleCallback === 'function') win.requestIdleCallback(flush, { timeout: 500 });
    else win.setTimeout(flush, 0);
  };
  return {
    /** the hash the address bar shows, or will once the queued write goes out */
    hash: () => due?.hash ?? win.location.hash,
    write(hash: string, push: boolean, later: boolean) {
      const queued = due !== null;
      due = { hash, push: push || (due?.push ?? false) };
      if (!later) flush();
      else if (!queued) whenIdle();
    },
    /** a navigation (link, back/forward) settles what the address bar shows: a queued write is stale */
    drop: () => void (due = null),
    stop: () => void (stopped = true),
  };
}

/** How often a pending link takes its recording back from one installed by someone else (start-up restores). */
const MAX_RELINKS = 2;

/**
 * Starts the two-way sync; returns the function that stops it. A link stays pending from its arrival until the user
 * changes what is shown: a recording installed meanwhile by other code (the latest one restored at start) gives way
 * to the link's — its selection is applied again, or the link's recording is opened again.
 */
export function startDeepLinks(api: InspectorApi | null, win: Window = window): () => void {
  let applying = false;
  let written: Route | null = null;
  let pending: Route | null = null;
  let relinks = 0;
  const open: RecordingOpener = (id) => (opener ?? defaultOpener(api))(id);

  const history = historyWriter(win);
  const settle = () => {
    history.drop();
    written = currentRoute();
    const hash = formatHash(written);
    if (hash !== win.location.hash && !useOverlayStore.getState().problem) win.history.replaceState(null, '', hash);
  };

  const apply = async (route: Route) => {
    applying = true;
    try {
      await applyRoute(route, open);
    } finally {
      applying = false;
      settle();
    }
  };

  const follow = async () => {
    const route = parseHash(win.location.hash);
    if (!route) return;
    pending = route.recording ? route : null;
    relinks = 0;
    await apply(route);
  };

  const write = (later = false) => {
    if (applying) return;
    const route = currentRoute();
    const hash = formatHash(route);
    if (hash === history.hash()) return;
    pending = null;
    history.write(hash, !onlyMessageDiffers(written, route) && Boolean(history.hash()), later);
    written = route;
  };

  const recordingChanged = () => {
    if (applying) return;
    if (!pending || relinks >= MAX_RELINKS) return write();
    relinks += 1;
    const route = pending;
    // the installer resets the selection right after the recording: apply the link once it is done
    applying = true;
    queueMicrotask(() => {
      applying = false;
      void apply(route);
    });
  };

  const unsubscribers = [
    useAppStore.subscribe(() => write()),
    useSelectionStore.subscribe(() => write(true)),
    useReplayStore.subscribe((state, before) => state.recording !== before.recording && recordingChanged()),
  ];
  win.addEventListener('popstate', follow);
  win.addEventListener('hashchange', follow);
  // after this commit's other effects, so the openers they register are the ones a link uses
  if (parseHash(win.location.hash)) queueMicrotask(() => void follow());
  else write();
  return () => {
    history.stop();
    for (const stop of unsubscribers) stop();
    win.removeEventListener('popstate', follow);
    win.removeEventListener('hashchange', follow);
  };
}
