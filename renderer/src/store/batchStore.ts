/**
 * "Replay all sessions": the lanes and settings of the replay form over every session of the listed state dir
 * (bridge `batch.start`), its rows polled as sessions finish (`batch.get`), any finished row opened in the Replay
 * view (`batch.recording`), cancel. A plugin lane the person has not approved asks first, as a single replay does:
 * the main process confirms it (remembered, or for this batch only) and the batch starts with its nonce.
 */
import { create } from 'zustand';
import type { BatchGetResponse, InspectorApi, RequestOf } from '../../../src/bridge';
import { consentRequests, parseExtraSpecs, type ConsentRequest, type LaneChoice } from '../model/laneChoices';
import { installRecording } from '../flows/installRecording';
import { useAppStore } from './appStore';
import { errorText } from './errorText';
import { batchRecordingOf } from './recordingPages';
import { confirmPlugins } from './replayConsent';
import { replayParams } from './replayParams';
import type { ReplayFormState } from './replayTypes';

export interface BatchState {
  batchId: string | null;
  batch: BatchGetResponse | null;
  starting: boolean;
  /** the row whose recording is being opened */
  opening: number | null;
  error: string | null;
  /** plugin lanes waiting for consent before the batch starts */
  pending: { params: BatchStartParams; requests: ConsentRequest[] } | null;
  consentBusy: boolean;
  pollIntervalMs: number;
  start(api: InspectorApi, stateDir: string, form: ReplayFormState, choices: readonly LaneChoice[]): Promise<void>;
  /** `approve`: remembered for the approvable plugins; `once`: confirmed for this batch only */
  confirmConsent(api: InspectorApi, mode: 'approve' | 'once'): Promise<void>;
  dismissConsent(): void;
  cancel(api: InspectorApi): Promise<void>;
  open(api: InspectorApi, index: number): Promise<void>;
  reset(): void;
}

type BatchStartParams = RequestOf<'batch.start'>;

/**
 * batch.start's params from the replay form and the plugin folders that need consent first, or a sentence saying
 * what to fix first.
 */
export function batchParams(
  stateDir: string,
  form: ReplayFormState,
  choices: readonly LaneChoice[],
): { ok: true; params: BatchStartParams; consent: ConsentRequest[] } | { ok: false; problem: string } {
  const built = replayParams(form, stateDir, choices);
  if (!built.ok) return built;
  const consent = consentRequests(form.lanes, choices, parseExtraSpecs(form.extraSpecs));
  const { lanes, window, reserve, keepRecentTokens, host, openclawVersion } = built.params;
  return {
    ok: true,
    params: {
      stateDir,
      lanes,
      window,
      ...(reserve !== undefined ? { reserve } : {}),
      ...(keepRecentTokens !== undefined ? { keepRecentTokens } : {}),
      ...(host !== undefined ? { host } : {}),
      ...(openclawVersion !== undefined ? { openclawVersion } : {}),
    },
    consent,
  };
}

const initial = { batchId: null, batch: null, starting: false, opening: null, error: null, pending: null };

type SetBatch = (partial: Partial<BatchState>) => void;
type GetBatch = () => BatchState;

/** Polls batch.get until the batch ends (or another batch replaced it). */
async function pollBatch(set: SetBatch, get: GetBatch, api: InspectorApi, batchId: string): Promise<void> {
  while (get().batchId === batchId) {
    try {
      const batch = await api.call('batch.get', { batchId });
      if (get().batchId !== batchId) return;
      set({ batch });
      if (batch.status !== 'running') return;
    } catch (error) {
      set({ error: `Lost the batch: ${errorText(error)}` });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, get().pollIntervalMs));
  }
}

export const useBatchStore = create<BatchState>()((set, get) => {
  const run = async (api: InspectorApi, params: BatchStartParams): Promise<void> => {
    set({ ...initial, starting: true });
    try {
      const { batchId } = await api.call('batch.start', params);
      set({ batchId, starting: false });
      await pollBatch(set, get, api, batchId);
    } catch (error) {
      set({ starting: false, error: `Could not replay all sessions: ${errorText(error)}` });
    }
  };
  return {
    ...initial,
    consentBusy: false,
    pollIntervalMs: 300,
    async start(api, stateDir, form, choices) {
      const built = batchParams(stateDir, form, choices);
      if (!built.ok) {
        set({ error: built.problem });
        return;
      }
      if (built.consent.length > 0) {
        set({ pending: { params: built.params, requests: built.consent }, error: null });
        return;
      }
      await run(api, built.params);
    },
    async confirmConsent(api, mode) {
      const pending = get().pending;
      if (!pending) return;
      set({ consentBusy: true });
      let consentNonce: string | undefined;
      try {
        consentNonce = await confirmPlugins(api, pending.requests, mode);
      } catch (error) {
        set({ consentBusy: false, pending: null, error: `Consent was not given: ${errorText(error)}` });
        return;
      }
      set({ consentBusy: false, pending: null });
      await run(api, { ...pending.params, ...(consentNonce !== undefined ? { consentNonce } : {}) });
    },
    dismissConsent: () => set({ pending: null }),
    async cancel(api) {
      const batchId = get().batchId;
      if (!batchId) return;
      try {
        await api.call('batch.cancel', { batchId });
      } catch (error) {
        set({ error: errorText(error) });
      }
    },
    async open(api, index) {
      const { batchId, batch } = get();
      const row = batch?.rows[index];
      if (!batchId || !row) return;
      set({ opening: index, error: null });
      try {
        const recording = await batchRecordingOf(api, batchId, index);
        installRecording(recording, null, row.key ?? row.sessionId);
        useAppStore.getState().selectSection('replay');
        set({ opening: null });
      } catch (error) {
        set({ opening: null, error: `Could not open ${row.key ?? row.sessionId}: ${errorText(error)}` });
      }
    },
    reset: () => set({ ...initial }),
  };
});
