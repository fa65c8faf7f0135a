import { create } from 'zustand';
import type { InspectorApi } from '../../../src/bridge';
import { pickDemoSession, type ListedSession, type SessionListView } from '../model/sessionRows';
import { errorText } from './errorText';
import { onStateDirChange, useWorkspaceStore } from './workspaceStore';

/** Which sessions the list shows: the user's state dir, or the bundled demos (an entry of their own). */
export type SessionSource = 'state' | 'demo';

export interface SessionsState {
  /** the folder the list came from (as the runtime resolved it); '' before the first load */
  stateDir: string;
  source: SessionSource;
  sessions: ListedSession[];
  loaded: boolean;
  loading: boolean;
  error: string | null;
  /** why the list shows the demos although the user's state dir was asked for (it has no sessions), or null */
  fallbackNote: string | null;
  /** the session file the replay form uses */
  selectedFile: string | null;
  /** sort and filter of the table */
  view: SessionListView;
  /** Lists the sessions of `stateDir` (default: the bundled demo sessions) and preselects one. */
  load(api: InspectorApi, stateDir?: string): Promise<void>;
  /**
   * The sessions of the app's state dir ($OPENCLAW_STATE_DIR, ~/.openclaw or the folder chosen); the bundled
   * demos when it has none (fallbackNote says so).
   */
  loadWorkspace(api: InspectorApi): Promise<void>;
  select(file: string): void;
  setView(patch: Partial<SessionListView>): void;
}

const initial = {
  stateDir: '',
  source: 'demo' as SessionSource,
  sessions: [] as ListedSession[],
  loaded: false,
  loading: false,
  error: null,
  fallbackNote: null,
  selectedFile: null,
  view: { sort: 'updated', agent: '', query: '' } as SessionListView,
};

export const useSessionsStore = create<SessionsState>()((set, get) => ({
  ...initial,
  async load(api, stateDir) {
    set({ loading: true, error: null });
    try {
      const answer = await api.call('sessions.list', stateDir ? { stateDir } : {});
      const current = get().selectedFile;
      const keep = current !== null && answer.sessions.some((s) => s.file === current);
      const demoDir = useWorkspaceStore.getState().info?.demoDir ?? null;
      set({
        stateDir: answer.stateDir,
        source: !stateDir || stateDir === demoDir ? 'demo' : 'state',
        sessions: answer.sessions,
        loaded: true,
        loading: false,
        fallbackNote: null,
        selectedFile: keep ? current : (pickDemoSession(answer.sessions)?.file ?? null),
        view: { ...get().view, agent: '' },
      });
    } catch (error) {
      set({ loading: false, loaded: true, error: errorText(error) });
    }
  },
  async loadWorkspace(api) {
    set({ loading: true, error: null });
    const info = await useWorkspaceStore.getState().ensure(api);
    if (!info) return get().load(api);
    await get().load(api, info.stateDir);
    if (get().error || get().sessions.length > 0) return;
    const note = info.exists
      ? `No OpenClaw sessions in ${info.stateDir}.`
      : `${info.stateDir} does not exist (no OpenClaw state dir there yet).`;
    await get().load(api);
    set({ fallbackNote: `${note} Showing the bundled demo sessions; choose your state dir above.` });
  },
  select(file) {
    if (get().sessions.some((s) => s.file === file)) set({ selectedFile: file });
  },
  setView(patch) {
    set({ view: { ...get().view, ...patch } });
  },
}));

// another state dir: its sessions
onStateDirChange((api) => void useSessionsStore.getState().loadWorkspace(api));

export function resetSessionsStore(): void {
  useSessionsStore.setState({ ...initial });
}
