import { create } from 'zustand';
import type { DoctorProgressEvent, DoctorReportInfo, InspectorApi } from '../../../src/bridge';
import { errorText } from './errorText';
import { onStateDirChange, useWorkspaceStore } from './workspaceStore';

/** the call deadline `contextscope doctor` uses without --timeout, and what doctor.run accepts */
export const DEFAULT_DOCTOR_TIMEOUT_MS = 10_000;
export const DOCTOR_TIMEOUT_RANGE = { min: 100, max: 600_000 } as const;

export interface DoctorState {
  report: DoctorReportInfo | null;
  running: boolean;
  error: string | null;
  /** run every plugin's code for this run (the user ticked the box) */
  allowExecute: boolean;
  /** each engine call's deadline, as typed (doctor.run timeoutMs once it is a whole number in range) */
  timeoutText: string;
  /** progress of the running (or last) check: one row per plugin the runtime has told of, in its order */
  plugins: DoctorPluginProgress[];
  /** the last doctor.progress event: what the doctor is doing now (null before the first) */
  current: DoctorProgressEvent | null;
  /** the last report came from the runtime's cache (no plugin changed since it was made) */
  cached: boolean;
  setAllowExecute(value: boolean): void;
  setTimeoutText(value: string): void;
  run(api: InspectorApi, stateDir?: string): Promise<void>;
}

/** One plugin's latest step: loading, driving an engine, or checked with its outcome. */
export type DoctorPluginProgress = Pick<DoctorProgressEvent, 'pluginId' | 'plugin' | 'phase' | 'engine' | 'outcome'>;

const initial = {
  report: null,
  running: false,
  error: null,
  allowExecute: false,
  timeoutText: String(DEFAULT_DOCTOR_TIMEOUT_MS),
  plugins: [] as DoctorPluginProgress[],
  current: null,
  cached: false,
};

/** The deadline typed in the field, or why it cannot be sent. */
export function parseDoctorTimeout(text: string): { ms: number } | { problem: string } {
  const ms = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(ms) || ms < DOCTOR_TIMEOUT_RANGE.min || ms > DOCTOR_TIMEOUT_RANGE.max)
    return {
      problem: `Call deadline "${text}": give a whole number of milliseconds from ${DOCTOR_TIMEOUT_RANGE.min} to ${DOCTOR_TIMEOUT_RANGE.max.toLocaleString('en-US')}.`,
    };
  return { ms };
}

/** The rows with one event applied: the plugin's row replaced (or added), kept in the plugins' order. */
export function applyDoctorProgress(
  rows: readonly DoctorPluginProgress[],
  event: DoctorProgressEvent,
): DoctorPluginProgress[] {
  const { pluginId, plugin, phase, engine, outcome } = event;
  const row = { pluginId, plugin, phase, ...(engine ? { engine } : {}), ...(outcome ? { outcome } : {}) };
  return [...rows.filter((r) => r.pluginId !== pluginId), row].sort((a, b) => a.plugin - b.plugin);
}

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
  setTimeoutText: (timeoutText) => set({ timeoutText }),
  async run(api, stateDir) {
    const timeout = parseDoctorTimeout(get().timeoutText);
    if ('problem' in timeout) {
      set({ error: timeout.problem });
      return;
    }
    set({ running: true, error: null, plugins: [], current: null, cached: false });
    const stop = api.onEvent((event) => {
      if (event.topic === 'doctor.progress')
        set({ plugins: applyDoctorProgress(get().plugins, event.payload), current: event.payload });
      else if (event.topic === 'progress' && event.payload.taskId === 'doctor' && event.payload.phase === 'cached')
        set({ cached: true });
    });
    try {
      const dir = stateDir ?? (await useWorkspaceStore.getState().ensure(api))?.stateDir;
      const consentNonce = get().allowExecute ? await consentForEveryPlugin(api, dir) : undefined;
      const report = await api.call('doctor.run', {
        ...(dir ? { stateDir: dir } : {}),
        ...(consentNonce !== undefined ? { consentNonce } : {}),
        timeoutMs: timeout.ms,
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
onStateDirChange(() => useDoctorStore.setState({ report: null, error: null, plugins: [], current: null }));

export function resetDoctorStore(): void {
  useDoctorStore.setState({ ...initial });
}
