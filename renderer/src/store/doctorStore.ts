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
  setAllowExecute(value: boolean): void;
  run(api: InspectorApi, stateDir?: string): Promise<void>;
}

const initial = { report: null, running: false, error: null, allowExecute: false };

export const useDoctorStore = create<DoctorState>()((set, get) => ({
  ...initial,
  setAllowExecute: (allowExecute) => set({ allowExecute }),
  async run(api, stateDir) {
    set({ running: true, error: null });
    try {
      const dir = stateDir ?? (await useWorkspaceStore.getState().ensure(api))?.stateDir;
      const report = await api.call('doctor.run', {
        ...(dir ? { stateDir: dir } : {}),
        allowExecute: get().allowExecute,
      });
      set({ report, running: false });
    } catch (error) {
      set({ running: false, error: errorText(error) });
    }
  },
}));

// a report of another state dir's plugins no longer applies
onStateDirChange(() => useDoctorStore.setState({ report: null, error: null }));

export function resetDoctorStore(): void {
  useDoctorStore.setState({ ...initial });
}
