/**
 * "Replay all sessions": the lanes and settings of the replay form over every session of the listed state dir
 * (bridge `batch.start`), its rows polled as sessions finish (`batch.get`), any finished row opened in the Replay
 * view (`batch.recording`), cancel. A batch runs only plugins whose folder the person approved.
 */
import { create } from 'zustand';
import type { BatchGetResponse, InspectorApi, RequestOf } from '../../../src/bridge';
import { consentRequests, parseExtraSpecs, type LaneChoice } from '../model/laneChoices';
import { installRecording } from '../router/deepLinks';
import { useAppStore } from './appStore';
import { errorText } from './errorText';
import { replayParams } from './replayParams';
import type { ReplayFormState } from './replayTypes';

export interface BatchState {
  batchId: string | null;
  batch: BatchGetResponse | null;
  starting: boolean;
  /** the row whose recording is being opened */
  opening: number | null;
  error: string | null;
  pollIntervalMs: number;
  start(api: InspectorApi, stateDir: string, form: ReplayFormState, choices: readonly LaneChoice[]): Promise<void>;
  cancel(api: InspectorApi): Promise<void>;
  open(api: InspectorApi, index: number): Promise<void>;
  reset(): void;
}

/** batch.start's params from the replay form, or a sentence saying what to fix first. */
export function batchParams(
  stateDir: string,
  form: ReplayFormState,
  choices: readonly LaneChoice[],
): { ok: true; params: RequestOf<'batch.start'> } | { ok: false; problem: string } {
  const built = replayParams(form, stateDir);
  if (!built.ok) return built;
  const unapproved = consentRequests(form.lanes, choices, parseExtraSpecs(form.extraSpecs));
  if (unapproved.length > 0) {
    return {
      ok: false,
      problem: `A batch runs only approved plugins: approve ${unapproved.map((r) => r.label).join(', ')} in Plugins (or replay one session and choose Approve) first.`,
    };
  }
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
  };
}

const initial = { batchId: null, batch: null, starting: false, opening: null, error: null };

export const useBatchStore = create<BatchState>()((set, get) => {
  const poll = async (api: InspectorApi, batchId: string): Promise<void> => {
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
  };
  return {
    ...initial,
    pollIntervalMs: 300,
    async start(api, stateDir, form, choices) {
      const built = batchParams(stateDir, form, choices);
      if (!built.ok) {
        set({ error: built.problem });
        return;
      }
      set({ ...initial, starting: true });
      try {
        const { batchId } = await api.call('batch.start', built.params);
        set({ batchId, starting: false });
        await poll(api, batchId);
      } catch (error) {
        set({ starting: false, error: `Could not replay all sessions: ${errorText(error)}` });
      }
    },
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
        const recording = await api.call('batch.recording', { batchId, index });
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
