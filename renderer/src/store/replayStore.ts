/**
 * The replay workflow: the form (lanes, window, reserve, host), consent before plugin code runs, the running
 * replay (progress from `replay.progress` events and `replay.get` polls), the finished Recording, export.
 * The actions live in replayConsent.ts and replayRun.ts; this file wires them into one zustand store.
 */
import { create } from 'zustand';
import type { InspectorApi } from '../../../src/bridge';
import { errorText } from './errorText';
import { confirmConsent, requestStart } from './replayConsent';
import { DEFAULT_HOST, DEFAULT_WINDOW } from './replayParams';
import { cancelReplay, progressApplier } from './replayRun';
import type { ExportFormat, ReplayFormState, ReplayStoreState, ReplayStoreAccess } from './replayTypes';

export { DEFAULT_HOST, DEFAULT_WINDOW, replayParams } from './replayParams';
export type {
  ExportFormat,
  FinishedRecording,
  LaunchOptions,
  PendingStart,
  ReplayFormState,
  ReplayJobView,
  ReplayStoreState,
} from './replayTypes';

const initialForm: ReplayFormState = {
  lanes: ['legacy'],
  extraSpecs: '',
  window: String(DEFAULT_WINDOW),
  reserve: '',
  keepRecentTokens: '',
  openclawVersion: '',
  follow: false,
  laneConfigs: {},
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
  previous: [],
  exporting: null,
  exportError: null,
  pollIntervalMs: 250,
};

function toggleLane({ set, get }: ReplayStoreAccess, spec: string): void {
  const lanes = get().form.lanes;
  set({
    form: { ...get().form, lanes: lanes.includes(spec) ? lanes.filter((l) => l !== spec) : [...lanes, spec] },
    lanesTouched: true,
    formError: null,
  });
}

/** Why Export waits while a (non-live) replay runs: what is shown then is not yet the Recording. */
export const STILL_RUNNING = 'The replay is still running: export once it ends, or Cancel to keep a partial recording.';

async function exportRecording(
  { set, get }: ReplayStoreAccess,
  api: InspectorApi,
  format: ExportFormat,
): Promise<string | null> {
  const { recordingReplayId: replayId, recording, run } = get();
  if (replayId && run?.replayId === replayId && run.status === 'running' && !run.following) {
    set({ exportError: STILL_RUNNING });
    return null;
  }
  // a recording opened from a file or kept from an earlier run has no replay in this runtime: its JSON is itself
  const own = format === 'json' && recording ? JSON.stringify(recording) : null;
  if (!replayId) {
    if (own === null) {
      set({
        exportError:
          format === 'html' && recording
            ? 'The HTML report is made from a replay of this runtime: replay the session again (Sessions), or export JSON.'
            : 'There is no finished replay to export: run one from Sessions first.',
      });
    }
    return own;
  }
  set({ exporting: format, exportError: null });
  try {
    // an export over the bridge's bound comes in bridge.piece pieces, put together by the client
    const { content = '' } = await api.call('replay.export', { replayId, format });
    set({ exporting: null });
    return content;
  } catch (error) {
    set({ exporting: null, exportError: own === null ? errorText(error) : null });
    return own;
  }
}

export const useReplayStore = create<ReplayStoreState>()((set, get, api) => {
  const store: ReplayStoreAccess = { set, get, subscribe: api.subscribe };
  const applyProgress = progressApplier(store);
  return {
    ...initial,
    setForm: (patch) => set({ form: { ...get().form, ...patch }, formError: null }),
    toggleLane: (spec) => toggleLane(store, spec),
    requestStart: (api, session, choices, options) => requestStart(store, api, session, choices, options),
    confirmConsent: (api, mode) => confirmConsent(store, api, mode),
    dismissConsent: () => set({ pending: null }),
    handleEvent: applyProgress,
    cancel: (api) => cancelReplay(store, api),
    exportRecording: (api, format) => exportRecording(store, api, format),
  };
});

export function resetReplayStore(): void {
  useReplayStore.setState({ ...initial, form: { ...initialForm } });
}
