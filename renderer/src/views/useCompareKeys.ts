import { useEffect } from 'react';
import { matchShortcut, navigationKeysBlocked } from '../shortcuts';
import { useCompareStore } from '../store/compareStore';
import { useSelectionStore } from '../store/selectionStore';

const COMPARE_KEYS = [
  'turn.next',
  'turn.previous',
  'turn.first',
  'turn.last',
  'column.next',
  'column.previous',
] as const;

/**
 * The Compare view's keys (renderer/src/shortcuts.ts), as in the Replay view: j/k (↓/↑, Home/End) move through the
 * listed turns (the shared selected turn), [/] (←/→) move between the lane columns. Keys typed into a field or with a
 * modifier are left alone.
 */
export function useCompareKeys(order: readonly number[], columnLaneIds: readonly string[]): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (navigationKeysBlocked(event)) return;
      const id = matchShortcut(event, COMPARE_KEYS);
      if (!id) return;
      const selection = useSelectionStore.getState();
      if (id === 'turn.next') selection.moveTurn(1, order);
      else if (id === 'turn.previous') selection.moveTurn(-1, order);
      else if (id === 'turn.first') selection.moveTurn(-order.length, order);
      else if (id === 'turn.last') selection.moveTurn(order.length, order);
      else {
        const compare = useCompareStore.getState();
        compare.cycleColumn(id === 'column.next' ? 1 : -1, columnLaneIds.length);
        const laneId = columnLaneIds[useCompareStore.getState().column];
        if (laneId) selection.selectLane(laneId);
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [order, columnLaneIds]);
}
