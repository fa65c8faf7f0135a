/** Which app-wide overlay is open (the command palette or the shortcut sheet), and a problem the shell reports. */
import { create } from 'zustand';

export type OverlayId = 'palette' | 'shortcuts';

interface OverlayState {
  open: OverlayId | null;
  /** something a link, a dropped file or the native menu could not do, shown above the view; null when none */
  problem: string | null;
  show(id: OverlayId): void;
  toggle(id: OverlayId): void;
  close(): void;
  setProblem(problem: string | null): void;
}

export const useOverlayStore = create<OverlayState>()((set, get) => ({
  open: null,
  problem: null,
  show: (id) => set({ open: id }),
  toggle: (id) => set({ open: get().open === id ? null : id }),
  close: () => set({ open: null }),
  setProblem: (problem) => set({ problem }),
}));
