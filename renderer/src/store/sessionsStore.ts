import { create } from 'zustand';
import type { InspectorApi } from '../../../src/bridge';
import { pickDemoSession, type ListedSession } from '../model/sessionRows';
import { errorText } from './errorText';

export interface SessionsState {
  /** the state dir the list came from (as the runtime resolved it); '' before the first load */
  stateDir: string;
  sessions: ListedSession[];
  loaded: boolean;
  loading: boolean;
  error: string | null;
  /** the session file the replay form uses */
  selectedFile: string | null;
  /** Lists the sessions of `stateDir` (default: the bundled demo sessions) and preselects the demo session. */
  load(api: InspectorApi, stateDir?: string): Promise<void>;
  select(file: string): void;
}

const initial = {
  stateDir: '',
  sessions: [] as ListedSession[],
  loaded: false,
  loading: false,
  error: null,
  selectedFile: null,
};

export const useSessionsStore = create<SessionsState>()((set, get) => ({
  ...initial,
  async load(api, stateDir) {
    set({ loading: true, error: null });
    try {
      const answer = await api.call('sessions.list', stateDir ? { stateDir } : {});
      const current = get().selectedFile;
      const keep = current !== null && answer.sessions.some((s) => s.file === current);
      set({
        stateDir: answer.stateDir,
        sessions: answer.sessions,
        loaded: true,
        loading: false,
        selectedFile: keep ? current : (pickDemoSession(answer.sessions)?.file ?? null),
      });
    } catch (error) {
      set({ loading: false, loaded: true, error: errorText(error) });
    }
  },
  select(file) {
    if (get().sessions.some((s) => s.file === file)) set({ selectedFile: file });
  },
}));

export function resetSessionsStore(): void {
  useSessionsStore.setState({ ...initial });
}
