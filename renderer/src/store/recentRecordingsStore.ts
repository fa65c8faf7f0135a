/**
 * Recordings that outlive the window: every finished replay is kept in the app's config dir through the bridge
 * (`recordings.save`, bounded there), a recording file the user opens is validated by the runtime against the
 * Recording schema and kept too (`recordings.import`), and after a reload the most recently opened one is shown
 * again. Also the recording opener of deep links and of files dropped on the window or chosen in the menu.
 */
import { create } from 'zustand';
import type { InspectorApi, RecentRecording } from '../../../src/bridge';
import { installRecording } from '../flows/installRecording';
import { openFromRuntime, registerRecordingOpener } from '../router/deepLinks';
import { registerFileOpeners } from '../router/fileOpeners';
import { useAppStore } from './appStore';
import { errorText } from './errorText';
import { keptRecordingOf } from './recordingPages';
import { useOverlayStore } from './overlayStore';
import { useReplayStore } from './replayStore';
import { useWorkspaceStore } from './workspaceStore';

export interface RecentRecordingsState {
  entries: RecentRecording[];
  /** where they are kept and the bounds (from recordings.list) */
  limits: { dir: string; maxCount: number; maxBytes: number } | null;
  loaded: boolean;
  /** the last failure (open, import, list), as a sentence */
  error: string | null;
  /** the entry shown now, when the recording came from the list (or was just kept in it) */
  currentId: string | null;
  refresh(api: InspectorApi): Promise<void>;
  /** Keeps a finished replay in the list (the replay store calls this when one is done). */
  keepReplay(api: InspectorApi, replayId: string, title: string): Promise<void>;
  /** Shows a recording of the list; `select` also opens the Replay view. */
  open(api: InspectorApi, idOrReplayId: string, select?: boolean): Promise<boolean>;
  /** A recording file's text (validated by the runtime): kept in the list and shown in Replay. */
  importFile(api: InspectorApi, fileName: string, text: string): Promise<boolean>;
  remove(api: InspectorApi, id: string): Promise<void>;
  /** At start: when nothing is shown, the most recently opened recording of the list. */
  restoreLatest(api: InspectorApi): Promise<void>;
}

function show(entry: RecentRecording, recording: Parameters<typeof installRecording>[0]): void {
  // a replay of this window keeps its replay id (export and Compare's choices use it); a file has none
  const replayId = entry.replayId ?? null;
  installRecording(recording, replayId, entry.title);
}

export const useRecentRecordingsStore = create<RecentRecordingsState>()((set, get) => ({
  entries: [],
  limits: null,
  loaded: false,
  error: null,
  currentId: null,
  async refresh(api) {
    try {
      const answer = await api.call('recordings.list', {});
      const { dir, maxCount, maxBytes } = answer;
      set({ entries: answer.recordings, limits: { dir, maxCount, maxBytes }, loaded: true });
    } catch {
      set({ loaded: true }); // no list (an older runtime): the app works without it
    }
  },
  async keepReplay(api, replayId, title) {
    try {
      const entry = await api.call('recordings.save', { replayId, title });
      set({ currentId: entry.id, error: null });
      await get().refresh(api);
    } catch (error) {
      set({ error: `Could not keep the recording for later: ${errorText(error)}` });
    }
  },
  async open(api, idOrReplayId, select = true) {
    if (!get().loaded) await get().refresh(api);
    const known = get().entries.find((e) => e.id === idOrReplayId || e.replayId === idOrReplayId);
    if (!known) return false;
    try {
      const opened = await api.call('recordings.open', { id: known.id });
      show(opened.entry, await keptRecordingOf(api, opened));
      set({ currentId: opened.entry.id, error: null });
      if (select) useAppStore.getState().selectSection('replay');
      await get().refresh(api);
      return true;
    } catch (error) {
      set({ error: `Could not open ${known.title}: ${errorText(error)}` });
      return false;
    }
  },
  async importFile(api, fileName, text) {
    try {
      const imported = await api.call('recordings.import', { fileName, content: text });
      show(imported.entry, await keptRecordingOf(api, imported));
      set({ currentId: imported.entry.id, error: null });
      useOverlayStore.getState().setProblem(null);
      useAppStore.getState().selectSection('replay');
      await get().refresh(api);
      return true;
    } catch (error) {
      const problem = `Could not open ${fileName}: ${errorText(error)}`;
      set({ error: problem });
      useOverlayStore.getState().setProblem(problem);
      return false;
    }
  },
  async remove(api, id) {
    try {
      await api.call('recordings.remove', { id });
      if (get().currentId === id) set({ currentId: null });
      await get().refresh(api);
    } catch (error) {
      set({ error: errorText(error) });
    }
  },
  async restoreLatest(api) {
    await get().refresh(api);
    const latest = get().entries[0];
    if (latest && !useReplayStore.getState().recording) await get().open(api, latest.id, false);
  },
}));

let wiredTo: InspectorApi | null = null;

/**
 * Once per client: finished replays are kept, deep links and dropped or menu-opened files go through the list,
 * a state dir opened from the menu becomes the app's state dir, and the latest recording is shown again.
 */
export function wireRecentRecordings(api: InspectorApi): () => void {
  if (wiredTo === api) return () => {};
  wiredTo = api;
  const store = useRecentRecordingsStore.getState();
  // a replay the runtime still holds first, else the kept one (both read in pages under the bridge's bound)
  registerRecordingOpener(
    async (id) => (await openFromRuntime(api, id)) || useRecentRecordingsStore.getState().open(api, id, false),
    () => useReplayStore.getState().recordingReplayId ?? useRecentRecordingsStore.getState().currentId,
  );
  const unregisterFileOpeners = registerFileOpeners({
    openRecordingText: async (client, name, text) => {
      await useRecentRecordingsStore.getState().importFile(client, name.split(/[\\/]/).at(-1) ?? name, text);
    },
    openStateDir: async (client, path) => {
      if (await useWorkspaceStore.getState().choose(client, path)) useAppStore.getState().selectSection('sessions');
    },
  });
  const unsubscribe = useReplayStore.subscribe((state, previous) => {
    const run = state.run;
    if (run?.status === 'done' && previous.run?.status !== 'done' && run.replayId)
      void useRecentRecordingsStore.getState().keepReplay(api, run.replayId, run.sessionTitle);
  });
  void store.restoreLatest(api);
  return () => {
    unsubscribe();
    unregisterFileOpeners();
    registerRecordingOpener(null);
    wiredTo = null;
  };
}

export function resetRecentRecordingsStore(): void {
  wiredTo = null;
  useRecentRecordingsStore.setState({ entries: [], limits: null, loaded: false, error: null, currentId: null });
}
