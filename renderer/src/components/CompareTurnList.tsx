import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import './CompareTurnList.css';

export interface CompareTurnItem {
  turn: number;
  differs: boolean;
  /** how the lanes differ, one line ('' when they agree) */
  summary: string;
}

export interface CompareTurnListProps {
  turns: readonly CompareTurnItem[];
  selectedTurn: number;
  onSelectTurn(turn: number): void;
}

const ITEM_WIDTH = 52;

/**
 * A strip of the turns to step through (all, or only those where the lanes differ): ≠ marks a turn where they
 * differ, the tooltip says how. Only the turns in view are in the DOM, so a 1,000-turn session scrolls smoothly.
 */
export function CompareTurnList({ turns, selectedTurn, onSelectTurn }: CompareTurnListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the app does not use the React Compiler; the virtualizer re-renders this component on scroll itself
  const virtualizer = useVirtualizer({
    horizontal: true,
    count: turns.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ITEM_WIDTH,
    overscan: 10,
    initialRect: { width: 1000, height: 44 },
  });
  const selectedIndex = turns.findIndex((t) => t.turn === selectedTurn);
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);
  return (
    <nav className="compare-turns" aria-label="Turns">
      <div ref={scroller} className="compare-turns__scroller" data-testid="compare-turns">
        {turns.length === 0 && <p className="compare-turns__empty muted">No turn matches the filters.</p>}
        <ul className="compare-turns__list" style={{ width: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const item = turns[v.index]!;
            const selected = item.turn === selectedTurn;
            return (
              <li key={item.turn} style={{ transform: `translateX(${v.start}px)`, width: v.size }}>
                <button
                  type="button"
                  className={`compare-turns__item${selected ? ' compare-turns__item--selected' : ''}${item.differs ? ' compare-turns__item--differs' : ''}`}
                  aria-current={selected ? 'true' : undefined}
                  aria-label={`Turn ${item.turn + 1}: ${item.summary || 'the lanes assembled the same'}`}
                  title={`Turn ${item.turn + 1}: ${item.summary || 'the lanes assembled the same'}`}
                  onClick={() => onSelectTurn(item.turn)}
                  data-testid="compare-turn"
                  data-turn={item.turn}
                  data-differs={item.differs}
                >
                  <span className="mono">{item.turn + 1}</span>
                  <span className="compare-turns__mark" aria-hidden="true">
                    {item.differs ? '≠' : '='}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </nav>
  );
}
