import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef } from 'react';
import { formatCount } from '../formatQuantities';
import type { TimelineCell, TimelineRow } from '../model/timelineRows';
import { scrollToReveal } from '../model/windowRange';
import { Tag } from './Tag';
import './TimelineTable.css';

export interface TimelineLane {
  id: string;
  label: string;
  color: string;
}

export interface TimelineTableProps {
  lanes: readonly TimelineLane[];
  rows: readonly TimelineRow[];
  selectedTurn: number;
  onSelectTurn(turn: number): void;
  /** height of the scrolling area in px (rows beyond it are windowed) */
  height?: number;
}

export const TIMELINE_ROW_HEIGHT = 36;
const HEADER_HEIGHT = 58;

function Cell({ cell }: { cell: TimelineCell | null }) {
  if (!cell) {
    return (
      <>
        <td className="num muted">—</td>
        <td className="num muted">—</td>
        <td />
      </>
    );
  }
  return (
    <>
      <td
        className={`num mono${cell.overBudget ? ' over-budget' : ''}`}
        data-testid="cell-tokens"
        title={cell.overBudget ? 'over the token budget' : undefined}
      >
        {formatCount(cell.tokens)}
        <span className="muted"> / {formatCount(cell.budget)}</span>
      </td>
      <td className="num mono" data-testid="cell-counts" title={`${cell.assembledCount} messages assembled`}>
        {cell.kept} · {cell.summarized} · {cell.dropped}
      </td>
      <td data-testid="cell-events">
        <div className="timeline__events" title={cell.badges.map((badge) => badge.title).join('\n') || undefined}>
          {cell.badges.map((badge) => (
            <Tag
              key={badge.kind}
              text={badge.text}
              tone={badge.tone}
              title={badge.title}
              testId={`badge-${badge.kind}`}
            />
          ))}
        </div>
      </td>
    </>
  );
}

interface RowProps {
  row: TimelineRow;
  lanes: readonly TimelineLane[];
  selected: boolean;
  onSelectTurn(turn: number): void;
}

/** One turn's row; memoised so a turn switch re-renders only the rows whose selection changed. */
const Row = memo(function Row({ row, lanes, selected, onSelectTurn }: RowProps) {
  return (
    <tr
      className={`timeline__row table__row--clickable${selected ? ' table__row--selected' : ''}`}
      style={{ height: TIMELINE_ROW_HEIGHT }}
      aria-selected={selected}
      data-testid="timeline-row"
      data-turn={row.turn}
      onClick={() => onSelectTurn(row.turn)}
    >
      <th scope="row" className="num mono timeline__turn" title={row.prompt}>
        {row.turn + 1}
      </th>
      {row.cells.map((cell, i) => (
        <Cell key={lanes[i]?.id ?? i} cell={cell} />
      ))}
    </tr>
  );
});

/** Per-turn rows with the lanes side by side; only the rows in view are rendered (@tanstack/react-virtual). */
export function TimelineTable({ lanes, rows, selectedTurn, onSelectTurn, height = 320 }: TimelineTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const viewport = Math.max(TIMELINE_ROW_HEIGHT, height - HEADER_HEIGHT);
  // eslint-disable-next-line react-hooks/incompatible-library -- the app does not use the React Compiler; the virtualizer re-renders this component on scroll itself
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => TIMELINE_ROW_HEIGHT,
    overscan: 6,
    paddingStart: HEADER_HEIGHT,
    // before layout (and in jsdom, which has none) the scroller is as tall as the height given
    initialRect: { width: 0, height: viewport + HEADER_HEIGHT },
    observeElementRect: (instance, report) =>
      observeElementRect(instance, (rect) =>
        report(rect.height > 0 ? rect : { width: rect.width, height: viewport + HEADER_HEIGHT }),
      ),
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items.length > 0 ? items[0]!.start - HEADER_HEIGHT : 0;
  const padBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  const selectedIndex = rows.findIndex((row) => row.turn === selectedTurn);

  useEffect(() => {
    const element = scroller.current;
    if (!element || selectedIndex < 0) return;
    // clientHeight leaves out a horizontal scrollbar (many lanes), which would hide the last row's bottom
    // and the sticky head is as tall as the browser laid it out
    const visible = element.clientHeight > 0 ? element.clientHeight : height;
    const head = element.querySelector('thead')?.getBoundingClientRect().height || HEADER_HEIGHT;
    const next = scrollToReveal(selectedIndex, TIMELINE_ROW_HEIGHT, element.scrollTop, visible, head);
    if (next !== element.scrollTop) element.scrollTop = next;
  }, [selectedIndex, height]);

  const contentHeight = HEADER_HEIGHT + rows.length * TIMELINE_ROW_HEIGHT + 2;
  return (
    <div ref={scroller} className="timeline" style={{ height: Math.min(height, contentHeight) }} data-testid="timeline">
      <table className="table timeline__table" aria-label="Turns" aria-rowcount={rows.length + 2}>
        <thead>
          <tr>
            <th scope="col" rowSpan={2} className="timeline__turn-head">
              Turn
            </th>
            {lanes.map((lane) => (
              <th key={lane.id} scope="colgroup" colSpan={3} className="timeline__lane-head">
                <span className="legend-swatch" style={{ background: lane.color }} aria-hidden="true" />
                <span className="mono">{lane.label}</span>
              </th>
            ))}
          </tr>
          <tr>
            {lanes.map((lane) => (
              <LaneSubHeads key={lane.id} />
            ))}
          </tr>
        </thead>
        <tbody>
          {padTop > 0 && <tr aria-hidden="true" style={{ height: padTop }} />}
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <Row
                key={row.turn}
                row={row}
                lanes={lanes}
                selected={row.turn === selectedTurn}
                onSelectTurn={onSelectTurn}
              />
            );
          })}
          {padBottom > 0 && <tr aria-hidden="true" style={{ height: padBottom }} />}
        </tbody>
      </table>
    </div>
  );
}

function LaneSubHeads() {
  return (
    <>
      <th scope="col" className="num" title="assembled tokens / token budget passed to assemble">
        Tokens / budget
      </th>
      <th scope="col" className="num" title="transcript messages kept · summarized · dropped">
        Kept·Sum·Drop
      </th>
      <th scope="col">Events</th>
    </>
  );
}
