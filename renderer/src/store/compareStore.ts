/**
 * What the Compare view is looking at besides the turn (shared with the Replay view in selectionStore): which lanes,
 * which recording the current one is set against (a previous replay of this window or a file), the two filters,
 * the selected cell and the folds opened at each turn.
 */
import { create } from 'zustand';
import type { Recording } from '../recordingTypes';

export interface CompareBaseline {
  /** what the picker and the column labels call it */
  title: string;
  recording: Recording;
  /** a previous replay's id, or `file:<name>` */
  id: string;
}

export interface CompareState {
  /** lane ids picked; null = every lane of the session */
  laneIds: string[] | null;
  /** set: recording against recording (this one is "old", the current recording "new") */
  baseline: CompareBaseline | null;
  /** why the last recording file could not be used */
  baselineProblem: string | null;
  onlyDiffering: boolean;
  changedOnly: boolean;
  /** the selected row (its identity) and column (index) */
  rowId: string | null;
  column: number;
  /** opened folds by `<turn>:<first row>` */
  openFolds: Record<string, true>;
  toggleLane(laneId: string, allLaneIds: readonly string[]): void;
  setBaseline(baseline: CompareBaseline | null): void;
  setBaselineProblem(problem: string | null): void;
  setOnlyDiffering(value: boolean): void;
  setChangedOnly(value: boolean): void;
  selectCell(rowId: string, column: number): void;
  cycleColumn(delta: number, count: number): void;
  toggleFold(turn: number, start: number): void;
  /** Another recording: every lane ticked, its own lanes side by side (no baseline), no filter, no cell. */
  startAfresh(): void;
}

const initial = {
  laneIds: null,
  baseline: null,
  baselineProblem: null,
  onlyDiffering: false,
  changedOnly: false,
  rowId: null,
  column: 0,
  openFolds: {} as Record<string, true>,
};

export const useCompareStore = create<CompareState>()((set, get) => ({
  ...initial,
  toggleLane(laneId, allLaneIds) {
    const current = get().laneIds ?? [...allLaneIds];
    const next = current.includes(laneId) ? current.filter((id) => id !== laneId) : [...current, laneId];
    set({ laneIds: allLaneIds.filter((id) => next.includes(id)), column: 0 });
  },
  setBaseline: (baseline) => set({ baseline, baselineProblem: null, column: 0, rowId: null }),
  setBaselineProblem: (baselineProblem) => set({ baselineProblem }),
  setOnlyDiffering: (onlyDiffering) => set({ onlyDiffering }),
  setChangedOnly: (changedOnly) => set({ changedOnly }),
  selectCell: (rowId, column) => set({ rowId, column }),
  cycleColumn(delta, count) {
    if (count === 0) return;
    set({ column: (((get().column + delta) % count) + count) % count });
  },
  toggleFold(turn, start) {
    const key = `${turn}:${start}`;
    const openFolds = { ...get().openFolds };
    if (openFolds[key]) delete openFolds[key];
    else openFolds[key] = true;
    set({ openFolds });
  },
  startAfresh: () => set({ ...initial }),
}));

export function resetCompareStore(): void {
  useCompareStore.setState({ ...initial });
}
