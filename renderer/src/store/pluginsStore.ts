import { create } from 'zustand';
import type { HostGrantsInfo, InspectorApi, PluginsListResponse } from '../../../src/bridge';
import { errorText } from './errorText';
import { onStateDirChange, useWorkspaceStore } from './workspaceStore';

export interface PluginsState {
  list: PluginsListResponse | null;
  loading: boolean;
  error: string | null;
  /** the plugin folder an approve/revoke is running for */
  busyPath: string | null;
  actionError: string | null;
  /** Lists the plugins of `stateDir` (default: the app's state dir, see workspaceStore). */
  load(api: InspectorApi, stateDir?: string): Promise<void>;
  /** `grants`: child processes / worker threads for its engine host (default: neither) */
  approve(api: InspectorApi, path: string, grants?: HostGrantsInfo): Promise<boolean>;
  revoke(api: InspectorApi, path: string): Promise<boolean>;
}

const initial = { list: null, loading: false, error: null, busyPath: null, actionError: null };

export const usePluginsStore = create<PluginsState>()((set, get) => {
  async function change(api: InspectorApi, path: string, run: () => Promise<unknown>): Promise<boolean> {
    set({ busyPath: path, actionError: null });
    try {
      await run();
      set({ busyPath: null });
      await get().load(api, get().list?.stateDir);
      return true;
    } catch (error) {
      set({ busyPath: null, actionError: errorText(error) });
      return false;
    }
  }
  return {
    ...initial,
    async load(api, stateDir) {
      set({ loading: true, error: null });
      try {
        const dir = stateDir ?? (await useWorkspaceStore.getState().ensure(api))?.stateDir;
        const list = await api.call('plugins.list', dir ? { stateDir: dir } : {});
        set({ list, loading: false });
      } catch (error) {
        set({ loading: false, error: errorText(error) });
      }
    },
    approve: (api, path, grants) =>
      change(api, path, async () => {
        // the main process confirms (Electron: its own dialog, naming the grants) and hands out a one-time nonce
        const { nonce } = await api.call('plugins.requestConsent', {
          paths: [path],
          purpose: 'approve',
          ...(grants && Object.keys(grants).length > 0 ? { grants } : {}),
        });
        return api.call('plugins.approve', { nonce });
      }),
    revoke: (api, path) => change(api, path, () => api.call('plugins.revoke', { path })),
  };
});

// another state dir: its plugins (its extensions/ and openclaw.json)
onStateDirChange((api, info) => void usePluginsStore.getState().load(api, info.stateDir));

export function resetPluginsStore(): void {
  usePluginsStore.setState({ ...initial });
}
