import { useEffect } from 'react';
import { useCompareStore } from '../store/compareStore';
import { useSelectionStore } from '../store/selectionStore';

const TYPING_TARGETS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/**
 * The Compare view's keys, as in the Replay view: j/k (↓/↑, Home/End) move through the listed turns (the shared
 * selected turn), [/] (←/→) move between the lane columns. Keys typed into a field or with a modifier are left alone.
 */
export function useCompareKeys(order: readonly number[], columnLaneIds: readonly string[]): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (target && (TYPING_TARGETS.has(target.tagName) || target.isContentEditable)) return;
      const selection = useSelectionStore.getState();
      const compare = useCompareStore.getState();
      const turnKeys: Record<string, number> = { j: 1, ArrowDown: 1, k: -1, ArrowUp: -1 };
      const laneKeys: Record<string, number> = { ']': 1, ArrowRight: 1, '[': -1, ArrowLeft: -1 };
      if (event.key in turnKeys) selection.moveTurn(turnKeys[event.key]!, order);
      else if (event.key === 'Home') selection.moveTurn(-order.length, order);
      else if (event.key === 'End') selection.moveTurn(order.length, order);
      else if (event.key in laneKeys) {
        compare.cycleColumn(laneKeys[event.key]!, columnLaneIds.length);
        const laneId = columnLaneIds[useCompareStore.getState().column];
        if (laneId) selection.selectLane(laneId);
      } else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [order, columnLaneIds]);
}
