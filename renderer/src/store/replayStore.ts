/**
 * The replay workflow: the form (lanes, window, reserve, host), consent before plugin code runs, the running
 * replay (progress from `replay.progress` events and `replay.get` polls), the finished Recording, export.
 */
import { create } from 'zustand';
import type { BridgeEvent, InspectorApi, RequestOf } from '../../../src/bridge';
import { consentRequests, parseExtraSpecs, type ConsentRequest, type LaneChoice } from '../model/laneChoices';
import type { Recording, ReplayStatus } from '../recordingTypes';
import { useAppStore } from './appStore';
import { errorText } from './errorText';
import { usePluginsStore } from './pluginsStore';
import { useSelectionStore } from './selectionStore';

export const DEFAULT_WINDOW = 32_000;
export const DEFAULT_HOST = 'embedded';

export interface ReplayFormState {
  /** lane specs ticked in the form */
  lanes: string[];
  /** more lane specs typed by the user, whitespace-separated (e.g. `legacy?window=64000`) */
  extraSpecs: string;
  window: string;
  /** '' = OpenClaw's default reserve */
  reserve: string;
  /** '' = OpenClaw's default keepRecentTokens (20000) */
  keepRecentTokens: string;
  host: string;
}

export interface ReplayRun {
  replayId: string | null;
  status: 'starting' | ReplayStatus;
  /** lane-turns finished / planned */
  done: number;
  total: number;
  /** latest turn finished per lane (1-based) and that lane's turn count */
  lanes: Record<string, { turn: number; total: number }>;
  error: string | null;
  sessionFile: string;
  sessionTitle: string;
}

export interface PendingStart {
  sessionFile: string;
  sessionTitle: string;
  requests: ConsentRequest[];
}

export type ExportFormat = 'json' | 'html';

export interface ReplayState {
  form: ReplayFormState;
  /** the user changed the lane choice (so the default plugin lane is no longer added for them) */
  lanesTouched: boolean;
  /** a validation problem of the form, shown next to the Start button */
  formError: string | null;
  run: ReplayRun | null;
  /** consent the user must give before the replay starts */
  pending: PendingStart | null;
  consentBusy: boolean;
  recording: Recording | null;
  /** the replay the recording came from (what export names) */
  recordingReplayId: string | null;
  recordingTitle: string;
  exporting: ExportFormat | null;
  exportError: string | null;
  /** ms between replay.get polls while a replay runs */
  pollIntervalMs: number;

  setForm(patch: Partial<ReplayFormState>): void;
  toggleLane(spec: string): void;
  /** Validates the form; asks for consent when a plugin lane needs it, else starts. */
  requestStart(
    api: InspectorApi,
    session: { file: string; title: string },
    choices: readonly LaneChoice[],
  ): Promise<void>;
  /** `approve`: remember consent for every approvable plugin, then start; `once`: start with allowExecute. */
  confirmConsent(api: InspectorApi, mode: 'approve' | 'once'): Promise<void>;
  dismissConsent(): void;
  handleEvent(event: BridgeEvent): void;
  cancel(api: InspectorApi): Promise<void>;
  /** The export's content (the view saves it as a file), or null when it failed (see exportError). */
  exportRecording(api: InspectorApi, format: ExportFormat): Promise<string | null>;
}

const initialForm: ReplayFormState = {
  lanes: ['legacy'],
  extraSpecs: '',
  window: String(DEFAULT_WINDOW),
  reserve: '',
  keepRecentTokens: '',
  host: DEFAULT_HOST,
};

const initial = {
  form: initialForm,
  lanesTouched: false,
  formError: null,
  run: null,
  pending: null,
  consentBusy: false,
  recording: null,
  recordingReplayId: null,
  recordingTitle: '',
  exporting: null,
  exportError: null,
  pollIntervalMs: 250,
};

/** The params of replay.start from the form, or a sentence saying what to fix. */
export function replayParams(
  form: ReplayFormState,
  sessionFile: string,
  allowExecute: boolean,
): { ok: true; params: RequestOf<'replay.start'> } | { ok: false; problem: string } {
  const lanes = [...form.lanes, ...parseExtraSpecs(form.extraSpecs)];
  if (lanes.length === 0) return { ok: false, problem: 'Choose at least one lane (for example legacy).' };
  if (lanes.length > 8) return { ok: false, problem: `A replay runs at most 8 lanes; ${lanes.length} are chosen.` };
  const window = Number(form.window);
  if (!Number.isInteger(window) || window < 1)
    return { ok: false, problem: `Context window must be a whole number of tokens, e.g. ${DEFAULT_WINDOW}.` };
  let reserve: number | undefined;
  if (form.reserve.trim() !== '') {
    reserve = Number(form.reserve);
    if (!Number.isInteger(reserve) || reserve < 0)
      return { ok: false, problem: 'Reserve must be a whole number of tokens (or empty for OpenClaw’s default).' };
  }
  let keepRecentTokens: number | undefined;
  if (form.keepRecentTokens.trim() !== '') {
    keepRecentTokens = Number(form.keepRecentTokens);
    if (!Number.isInteger(keepRecentTokens) || keepRecentTokens < 1) {
      return {
        ok: false,
        problem: 'Keep recent must be a positive whole number of tokens (or empty for OpenClaw’s default, 20000).',
      };
    }
  }
  const host = form.host.trim();
  return {
    ok: true,
    params: {
      sessionPath: sessionFile,
      lanes,
      window,
      ...(reserve !== undefined ? { reserve } : {}),
      ...(keepRecentTokens !== undefined ? { keepRecentTokens } : {}),
      ...(host !== '' ? { host } : {}),
      ...(allowExecute ? { allowExecute: true } : {}),
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export const useReplayStore = create<ReplayState>()((set, get) => {
  async function watch(api: InspectorApi, replayId: string): Promise<void> {
    for (;;) {
      let snapshot;
      try {
        snapshot = await api.call('replay.get', { replayId });
      } catch (error) {
        if (get().run?.replayId === replayId)
          set({ run: { ...get().run!, status: 'failed', error: errorText(error) } });
        return;
      }
      const run = get().run;
      if (run?.replayId !== replayId) return; // a newer replay replaced this one
      if (snapshot.status === 'running') {
        set({ run: { ...run, status: 'running', done: Math.max(run.done, snapshot.done), total: snapshot.total } });
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
      if (snapshot.status === 'done' && snapshot.recording) {
        const recording = snapshot.recording;
        set({ recording, recordingReplayId: replayId, recordingTitle: run.sessionTitle, exportError: null });
        const firstLane =
          recording.lanes.find((lane) => lane.sessionId === recording.session.sessionId) ?? recording.lanes[0];
        useSelectionStore.getState().reset(recording.session.sessionId, firstLane?.id ?? null);
        useAppStore.getState().selectSection('replay');
      }
      return;
    }
  }

  async function start(
    api: InspectorApi,
    sessionFile: string,
    sessionTitle: string,
    allowExecute: boolean,
  ): Promise<void> {
    const built = replayParams(get().form, sessionFile, allowExecute);
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
      await watch(api, replayId);
    } catch (error) {
      set({ run: { ...get().run!, status: 'failed', error: errorText(error) } });
    }
  }

  return {
    ...initial,
    setForm: (patch) => set({ form: { ...get().form, ...patch }, formError: null }),
    toggleLane(spec) {
      const lanes = get().form.lanes;
      set({
        form: { ...get().form, lanes: lanes.includes(spec) ? lanes.filter((l) => l !== spec) : [...lanes, spec] },
        lanesTouched: true,
        formError: null,
      });
    },
    async requestStart(api, session, choices) {
      const built = replayParams(get().form, session.file, false);
      if (!built.ok) {
        set({ formError: built.problem });
        return;
      }
      const requests = consentRequests(get().form.lanes, choices, parseExtraSpecs(get().form.extraSpecs));
      if (requests.length > 0) {
        set({ pending: { sessionFile: session.file, sessionTitle: session.title, requests }, formError: null });
        return;
      }
      await start(api, session.file, session.title, false);
    },
    async confirmConsent(api, mode) {
      const pending = get().pending;
      if (!pending) return;
      if (mode === 'approve') {
        set({ consentBusy: true });
        try {
          for (const request of pending.requests.filter((r) => r.approvable))
            await api.call('plugins.approve', { path: request.path });
        } catch (error) {
          set({ consentBusy: false, pending: null, formError: `Could not remember consent: ${errorText(error)}` });
          return;
        }
        const plugins = usePluginsStore.getState();
        void plugins.load(api, plugins.list?.stateDir);
      }
      // typed plugin specs cannot be approved by folder: they run with this run's allowExecute
      const allowExecute = mode === 'once' || pending.requests.some((r) => !r.approvable);
      set({ consentBusy: false, pending: null });
      await start(api, pending.sessionFile, pending.sessionTitle, allowExecute);
    },
    dismissConsent: () => set({ pending: null }),
    handleEvent(event) {
      if (event.topic !== 'replay.progress') return;
      const run = get().run;
      const progress = event.payload;
      if (!run || run.replayId !== progress.replayId || run.status !== 'running') return;
      const lanes = { ...run.lanes, [progress.lane]: { turn: progress.turn + 1, total: progress.total } };
      // subagent lanes report their own turns; the run's done/total count the root lanes only
      set({ run: { ...run, lanes, done: progress.parentLane === undefined ? run.done + 1 : run.done } });
    },
    async cancel(api) {
      const run = get().run;
      if (!run?.replayId || run.status !== 'running') return;
      try {
        await api.call('replay.cancel', { replayId: run.replayId });
      } catch (error) {
        set({ run: { ...run, error: errorText(error) } });
      }
    },
    async exportRecording(api, format) {
      const replayId = get().recordingReplayId;
      if (!replayId) {
        set({ exportError: 'There is no finished replay to export: run one from Sessions first.' });
        return null;
      }
      set({ exporting: format, exportError: null });
      try {
        const answer = await api.call('replay.export', { replayId, format });
        set({ exporting: null });
        return answer.content ?? '';
      } catch (error) {
        set({ exporting: null, exportError: errorText(error) });
        return null;
      }
    },
  };
});

export function resetReplayStore(): void {
  useReplayStore.setState({ ...initial, form: { ...initialForm } });
}
