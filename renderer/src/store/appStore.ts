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

/** Asked before the section on screen is left for `to`: true lets the user go. */
export type LeaveGuard = (to: SectionId) => boolean;

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
  /**
   * What the section on screen asks before the user leaves it (the Config view: unsaved changes); false stays.
   * Set by that section's view while it is shown.
   */
  leaveGuard: LeaveGuard | null;
  setConnection(state: ConnectionState, problem?: string | null): void;
  setTransport(transport: TransportKind | null): void;
  /**
   * Shows a section. The user's navigation asks the leave guard first; `ask: false` is for a section a workflow
   * opens as the result the user asked for (a replay's recording, try-before-save's Compare).
   */
  selectSection(section: SectionId, options?: { ask?: boolean }): void;
  setLeaveGuard(guard: LeaveGuard | null): void;
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
  leaveGuard: null as LeaveGuard | null,
};

export const useAppStore = create<AppState>()((set, get) => ({
  ...initialState,
  setConnection: (connection, problem = null) => set({ connection, connectionProblem: problem }),
  setTransport: (transport) => set({ transport }),
  selectSection: (section, options) => {
    if (!SECTIONS.some((entry) => entry.id === section && entry.available)) return;
    const { activeSection, leaveGuard } = get();
    if (section === activeSection) return;
    if (options?.ask !== false && leaveGuard && !leaveGuard(section)) return;
    set({ activeSection: section });
  },
  setLeaveGuard: (leaveGuard) => set({ leaveGuard }),
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
