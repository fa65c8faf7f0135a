/**
 * What the Replay view is looking at: which session's lanes, which lane and turn are selected, which messages
 * are expanded, which token measure is drawn and whether only differing turns are listed.
 */
import { create } from 'zustand';
import type { TokenMeasure } from '../model/budgetSeries';

export interface SelectionState {
  sessionId: string | null;
  laneId: string | null;
  turn: number;
  /** message rows expanded in the TurnView, by `<list>:<key>` */
  expanded: Record<string, true>;
  measure: TokenMeasure;
  onlyDiffering: boolean;
  /** A new recording: its root session, its first lane, turn 1, nothing expanded. */
  reset(sessionId: string, laneId: string | null): void;
  selectSession(sessionId: string, laneId: string | null): void;
  selectTurn(turn: number): void;
  /** Moves by `delta` within the given turn order (the visible rows), clamped at both ends. */
  moveTurn(delta: number, order: readonly number[]): void;
  selectLane(laneId: string): void;
  cycleLane(delta: number, laneIds: readonly string[]): void;
  toggleExpanded(id: string): void;
  setMeasure(measure: TokenMeasure): void;
  setOnlyDiffering(value: boolean): void;
}

const initial = {
  sessionId: null,
  laneId: null,
  turn: 0,
  expanded: {} as Record<string, true>,
  measure: 'precheck' as TokenMeasure,
  onlyDiffering: false,
};

export const useSelectionStore = create<SelectionState>()((set, get) => ({
  ...initial,
  reset: (sessionId, laneId) => set({ sessionId, laneId, turn: 0, expanded: {}, onlyDiffering: false }),
  selectSession: (sessionId, laneId) => set({ sessionId, laneId, turn: 0, expanded: {} }),
  selectTurn: (turn) => set({ turn: Math.max(0, turn), expanded: {} }),
  moveTurn(delta, order) {
    if (order.length === 0) return;
    const at = order.indexOf(get().turn);
    const next = at === -1 ? (delta > 0 ? 0 : order.length - 1) : Math.min(order.length - 1, Math.max(0, at + delta));
    if (order[next] !== get().turn) set({ turn: order[next]!, expanded: {} });
  },
  selectLane: (laneId) => set({ laneId, expanded: {} }),
  cycleLane(delta, laneIds) {
    if (laneIds.length === 0) return;
    const at = laneIds.indexOf(get().laneId ?? '');
    const next = (((at === -1 ? 0 : at + delta) % laneIds.length) + laneIds.length) % laneIds.length;
    set({ laneId: laneIds[next]!, expanded: {} });
  },
  toggleExpanded(id) {
    const expanded = { ...get().expanded };
    if (expanded[id]) delete expanded[id];
    else expanded[id] = true;
    set({ expanded });
  },
  setMeasure: (measure) => set({ measure }),
  setOnlyDiffering: (onlyDiffering) => set({ onlyDiffering }),
}));

export function resetSelectionStore(): void {
  useSelectionStore.setState({ ...initial });
}
