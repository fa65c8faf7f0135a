import { create } from 'zustand';
import type { AppHealth, AppInfo, InspectorApi } from '../../../src/bridge';
import type { ConnectionState, TransportKind } from '../bridge/InspectorClient';

export const SECTIONS = [
  { id: 'overview', label: 'Overview', available: true },
  { id: 'sessions', label: 'Sessions', available: true },
  { id: 'replay', label: 'Replay', available: true },
  { id: 'compare', label: 'Compare', available: true },
  { id: 'plugins', label: 'Plugins', available: true },
  { id: 'config', label: 'Config', available: true },
  { id: 'doctor', label: 'Doctor', available: true },
] as const;

export type SectionId = (typeof SECTIONS)[number]['id'];

export interface AppState {
  connection: ConnectionState;
  /** Why the bridge is not connected (shown to the user), or null. */
  connectionProblem: string | null;
  transport: TransportKind | null;
  info: AppInfo | null;
  health: AppHealth | null;
  /** The last failed overview load, as a sentence. */
  loadError: string | null;
  activeSection: SectionId;
  setConnection(state: ConnectionState, problem?: string | null): void;
  setTransport(transport: TransportKind | null): void;
  selectSection(section: SectionId): void;
  /** Fetches app.info and app.health through the bridge. */
  loadOverview(api: InspectorApi): Promise<void>;
}

const initialState = {
  connection: 'connecting' as ConnectionState,
  connectionProblem: null,
  transport: null,
  info: null,
  health: null,
  loadError: null,
  activeSection: 'overview' as SectionId,
};

export const useAppStore = create<AppState>()((set) => ({
  ...initialState,
  setConnection: (connection, problem = null) => set({ connection, connectionProblem: problem }),
  setTransport: (transport) => set({ transport }),
  selectSection: (section) => {
    if (SECTIONS.some((entry) => entry.id === section && entry.available)) set({ activeSection: section });
  },
  async loadOverview(api) {
    try {
      const [info, health] = await Promise.all([api.call('app.info', {}), api.call('app.health', {})]);
      set({ info, health, loadError: null });
    } catch (error) {
      set({ loadError: error instanceof Error ? error.message : String(error) });
    }
  },
}));

/** Back to the state of a fresh window (tests). */
export function resetAppStore(): void {
  useAppStore.setState({ ...initialState });
}
