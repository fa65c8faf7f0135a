import { useEffect } from 'react';
import { matchShortcut, navigationKeysBlocked } from '../shortcuts';
import { useSelectionStore } from '../store/selectionStore';

const REPLAY_KEYS = ['turn.next', 'turn.previous', 'turn.first', 'turn.last', 'lane.next', 'lane.previous'] as const;

/** Applies one shortcut to the selection. */
function apply(id: (typeof REPLAY_KEYS)[number], order: readonly number[], laneIds: readonly string[]): void {
  const store = useSelectionStore.getState();
  if (id === 'turn.next') store.moveTurn(1, order);
  else if (id === 'turn.previous') store.moveTurn(-1, order);
  else if (id === 'turn.first') store.moveTurn(-order.length, order);
  else if (id === 'turn.last') store.moveTurn(order.length, order);
  else if (id === 'lane.next') store.cycleLane(1, laneIds);
  else store.cycleLane(-1, laneIds);
}

/**
 * The Replay view's keys (renderer/src/shortcuts.ts): ↑/↓ (j/k, Home/End) move through the listed turns, ←/→ (h/l,
 * [/]) cycle the lanes. Keys typed into a field or pressed with a modifier are left alone.
 */
export function useReplayKeys(rows: readonly { turn: number }[], lanes: readonly { id: string }[]): void {
  useEffect(() => {
    const order = rows.map((row) => row.turn);
    const laneIds = lanes.map((lane) => lane.id);
    const onKey = (event: KeyboardEvent) => {
      if (navigationKeysBlocked(event)) return;
      const id = matchShortcut(event, REPLAY_KEYS);
      if (!id) return;
      apply(id, order, laneIds);
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [rows, lanes]);
}
