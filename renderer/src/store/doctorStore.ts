import { create } from 'zustand';
import type { DoctorReportInfo, InspectorApi } from '../../../src/bridge';
import { errorText } from './errorText';
import { onStateDirChange, useWorkspaceStore } from './workspaceStore';

export interface DoctorState {
  report: DoctorReportInfo | null;
  running: boolean;
  error: string | null;
  /** run every plugin's code for this run (the user ticked the box) */
  allowExecute: boolean;
  /** progress of the running (or last) check: each plugin as it was loaded, then driven */
  steps: DoctorStep[];
  /** the last report came from the runtime's cache (no plugin changed since it was made) */
  cached: boolean;
  setAllowExecute(value: boolean): void;
  run(api: InspectorApi, stateDir?: string): Promise<void>;
}

export interface DoctorStep {
  pluginId: string;
  phase: string;
  done: number;
  total: number | null;
}

const initial = {
  report: null,
  running: false,
  error: null,
  allowExecute: false,
  steps: [] as DoctorStep[],
  cached: false,
};

/** "Run every plugin's code": the main process confirms each loadable plugin of the state dir for this check. */
async function consentForEveryPlugin(api: InspectorApi, stateDir: string | undefined): Promise<string | undefined> {
  const list = await api.call('plugins.list', stateDir ? { stateDir } : {});
  const paths = list.plugins.filter((p) => p.loadable).map((p) => p.path);
  if (paths.length === 0) return undefined;
  return (await api.call('plugins.requestConsent', { paths: paths.slice(0, 64), purpose: 'run' })).nonce;
}

export const useDoctorStore = create<DoctorState>()((set, get) => ({
  ...initial,
  setAllowExecute: (allowExecute) => set({ allowExecute }),
  async run(api, stateDir) {
    set({ running: true, error: null, steps: [], cached: false });
    const stop = api.onEvent((event) => {
      if (event.topic !== 'progress' || event.payload.taskId !== 'doctor') return;
      const { phase, done, total, message } = event.payload;
      if (phase === 'cached') set({ cached: true });
      else set({ steps: [...get().steps, { pluginId: message ?? '', phase, done, total }] });
    });
    try {
      const dir = stateDir ?? (await useWorkspaceStore.getState().ensure(api))?.stateDir;
      const consentNonce = get().allowExecute ? await consentForEveryPlugin(api, dir) : undefined;
      const report = await api.call('doctor.run', {
        ...(dir ? { stateDir: dir } : {}),
        ...(consentNonce !== undefined ? { consentNonce } : {}),
      });
      set({ report, running: false });
    } catch (error) {
      set({ running: false, error: errorText(error) });
    } finally {
      stop();
    }
  },
}));

// a report of another state dir's plugins no longer applies
onStateDirChange(() => useDoctorStore.setState({ report: null, error: null }));

export function resetDoctorStore(): void {
  useDoctorStore.setState({ ...initial });
}
