/**
 * The OpenClaw state dir the whole app reads (`workspace.get`): the folder chosen in the Sessions view (remembered
 * in the app's config dir), else `$OPENCLAW_STATE_DIR`, else `~/.openclaw`. Sessions, Plugins, Doctor and Config
 * all take it from here; choosing another folder reloads each of them.
 */
import { create } from 'zustand';
import type { InspectorApi, WorkspaceInfo } from '../../../src/bridge';
import { errorText } from './errorText';

export interface WorkspaceState {
  info: WorkspaceInfo | null;
  /** a failed workspace.get / setStateDir, as a sentence */
  error: string | null;
  choosing: boolean;
  /** workspace.get once per window (later callers share the answer); null when the bridge cannot say */
  ensure(api: InspectorApi): Promise<WorkspaceInfo | null>;
  /** Remembers `stateDir` (null: back to the default) and tells every view that reads it. */
  choose(api: InspectorApi, stateDir: string | null): Promise<boolean>;
}

let pending: Promise<WorkspaceInfo | null> | null = null;
const listeners = new Set<(api: InspectorApi, info: WorkspaceInfo) => void>();

/** Called after the state dir changed (the views that read it reload). Returns the unsubscribe function. */
export function onStateDirChange(listener: (api: InspectorApi, info: WorkspaceInfo) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const useWorkspaceStore = create<WorkspaceState>()((set, get) => ({
  info: null,
  error: null,
  choosing: false,
  ensure(api) {
    const known = get().info;
    if (known) return Promise.resolve(known);
    pending ??= api.call('workspace.get', {}).then(
      (info) => {
        set({ info, error: null });
        return info;
      },
      (error: unknown) => {
        pending = null; // ask again next time
        set({ error: errorText(error) });
        return null;
      },
    );
    return pending;
  },
  async choose(api, stateDir) {
    set({ choosing: true, error: null });
    try {
      const info = await api.call('workspace.setStateDir', { stateDir });
      set({ info, choosing: false });
      pending = Promise.resolve(info);
      for (const listener of listeners) listener(api, info);
      return true;
    } catch (error) {
      set({ choosing: false, error: errorText(error) });
      return false;
    }
  },
}));

/** The state dir to pass to plugins.list / doctor.run / config.read, when the workspace is known. */
export function currentStateDir(): string | undefined {
  return useWorkspaceStore.getState().info?.stateDir;
}

export function resetWorkspaceStore(): void {
  pending = null;
  useWorkspaceStore.setState({ info: null, error: null, choosing: false });
}
