import { useEffect } from 'react';
import { useSelectionStore } from '../store/selectionStore';

const TYPING_TARGETS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** Applies one key to the selection; false when the key means nothing here. */
function applyKey(key: string, order: readonly number[], laneIds: readonly string[]): boolean {
  const store = useSelectionStore.getState();
  switch (key) {
    case 'ArrowDown':
    case 'j':
      store.moveTurn(1, order);
      return true;
    case 'ArrowUp':
    case 'k':
      store.moveTurn(-1, order);
      return true;
    case 'Home':
      store.moveTurn(-order.length, order);
      return true;
    case 'End':
      store.moveTurn(order.length, order);
      return true;
    case 'ArrowRight':
    case 'l':
    case ']':
      store.cycleLane(1, laneIds);
      return true;
    case 'ArrowLeft':
    case 'h':
    case '[':
      store.cycleLane(-1, laneIds);
      return true;
    default:
      return false;
  }
}

/**
 * The Replay view's keys: ↑/↓ (j/k, Home/End) move through the listed turns, ←/→ (h/l, [/]) cycle the lanes. Keys typed
 * into a field or pressed with a modifier are left alone.
 */
export function useReplayKeys(rows: readonly { turn: number }[], lanes: readonly { id: string }[]): void {
  useEffect(() => {
    const order = rows.map((row) => row.turn);
    const laneIds = lanes.map((lane) => lane.id);
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (target && (TYPING_TARGETS.has(target.tagName) || target.isContentEditable)) return;
      if (applyKey(event.key, order, laneIds)) event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [rows, lanes]);
}
