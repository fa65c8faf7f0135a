import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { cellText, rowLabel, type AlignedCell, type AlignedTurn, type DisplayItem } from '../../../src/view';
import { formatCount } from '../formatQuantities';
import { AlignedColumnHead } from './AlignedColumnHead';
import { useElementWidth } from './useElementWidth';
import { CellStatusBadge } from './CellStatusBadge';
import './AlignedTable.css';

export interface AlignedTableProps {
  aligned: AlignedTurn;
  /** rows and folds to show, in order (see src/view/foldRows.ts) */
  items: readonly DisplayItem[];
  colors: readonly string[];
  selectedRowId: string | null;
  selectedColumn: number;
  onSelectCell(rowId: string, column: number): void;
  onSelectColumn(column: number): void;
  onToggleFold(start: number): void;
  /** height of the scrolling rows in px */
  height?: number;
}

export const ALIGNED_ROW_HEIGHT = 34;
const NUMBER_WIDTH = 48;
const MAX_CELL_WIDTH = 206;
const MIN_CELL_WIDTH = 164;
const MIN_MESSAGE_WIDTH = 240;
/** room for the body's vertical scrollbar */
const SCROLLBAR = 18;

/**
 * One grid template for the head and every row (rows are separate grids, so the widths are fixed in px): lane
 * columns narrow down to MIN_CELL_WIDTH before the table scrolls sideways, the message column takes the rest.
 */
function gridTemplate(width: number, columns: number): { template: string; width: number } {
  const free = Math.floor((width - NUMBER_WIDTH - MIN_MESSAGE_WIDTH - SCROLLBAR) / Math.max(1, columns));
  const cell = Math.max(MIN_CELL_WIDTH, Math.min(MAX_CELL_WIDTH, free));
  const message = Math.max(MIN_MESSAGE_WIDTH, width - NUMBER_WIDTH - columns * cell - SCROLLBAR);
  return {
    template: `${NUMBER_WIDTH}px ${message}px repeat(${columns}, ${cell}px)`,
    width: NUMBER_WIDTH + message + columns * cell,
  };
}

function CellButton({
  cell,
  selected,
  label,
  onSelect,
}: {
  cell: AlignedCell;
  selected: boolean;
  label: string;
  onSelect(): void;
}) {
  const tokens = cell.status === 'absent' ? '' : formatCount(cell.tiktokenTokens);
  return (
    <button
      type="button"
      className={`aligned__cell${selected ? ' aligned__cell--selected' : ''}${cell.position === null ? ' aligned__cell--left-out' : ''}${cell.changed ? ' aligned__cell--changed' : ''}`}
      aria-pressed={selected}
      aria-label={`${label}: ${cellText(cell)}${cell.position !== null ? `, position ${cell.position + 1}` : ''}${tokens ? `, ${tokens} tokens` : ''}${cell.moved ? ', moved' : ''}${cell.changed ? ', changed since the previous turn' : ''}`}
      title={cell.changed ? 'changed since this lane’s previous turn (the bar on the left)' : undefined}
      onClick={onSelect}
      data-testid="aligned-cell"
      data-status={cell.status}
    >
      <CellStatusBadge status={cell.status} text={cellText(cell)} />
      {cell.position !== null && <span className="aligned__pos mono">#{cell.position + 1}</span>}
      <span className="aligned__tokens mono">{cell.position === null && tokens ? `(${tokens})` : tokens}</span>
      {cell.moved && (
        <span className="aligned__flag" title="sent out of the other lane's order">
          ↕
        </span>
      )}
    </button>
  );
}

function ItemRow(props: {
  item: DisplayItem;
  aligned: AlignedTurn;
  selectedRowId: string | null;
  selectedColumn: number;
  onSelectCell(rowId: string, column: number): void;
  onToggleFold(start: number): void;
}) {
  const { item, aligned } = props;
  if (item.type === 'fold') {
    return (
      <button
        type="button"
        className="aligned__fold"
        onClick={() => props.onToggleFold(item.start)}
        data-testid="aligned-fold"
      >
        … {item.label} (rows {item.start + 1}–{item.end}) · show
      </button>
    );
  }
  const row = item.row;
  return (
    <>
      <div role="rowheader" className="aligned__num mono">
        {item.index + 1}
      </div>
      <div role="cell" className="aligned__message" title={row.preview}>
        <span className={`aligned__role aligned__role--${row.kind === 'transcript' ? row.role : row.kind}`}>
          {rowLabel(row)}
        </span>{' '}
        <span className="aligned__preview">{row.preview}</span>
      </div>
      {row.cells.map((cell, c) => (
        <div role="cell" key={aligned.columns[c]!.column.id}>
          <CellButton
            cell={cell}
            label={`row ${item.index + 1}, ${aligned.columns[c]!.column.label}`}
            selected={props.selectedRowId === row.id && props.selectedColumn === c}
            onSelect={() => props.onSelectCell(row.id, c)}
          />
        </div>
      ))}
    </>
  );
}

/** One row per aligned message, one column per lane; only the rows in view are in the DOM. */
export function AlignedTable(props: AlignedTableProps) {
  const { aligned, items, height = 520 } = props;
  const outer = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const width = useElementWidth(outer, 1000);
  // eslint-disable-next-line react-hooks/incompatible-library -- the app does not use the React Compiler; the virtualizer re-renders this component on scroll itself
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ALIGNED_ROW_HEIGHT,
    overscan: 12,
    initialRect: { width: 1000, height },
  });
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [aligned.turn]);
  const { template, width: tableWidth } = gridTemplate(width, aligned.columns.length);
  return (
    <div
      ref={outer}
      className="aligned"
      role="table"
      aria-label={`Turn ${aligned.turn + 1}, messages aligned across lanes`}
      aria-rowcount={items.length + 1}
      data-testid="aligned-table"
      data-aligned-rows={aligned.rows.length}
    >
      <div className="aligned__head" role="row" style={{ gridTemplateColumns: template, width: tableWidth }}>
        <div role="columnheader" className="aligned__head-num">
          Row
        </div>
        <div role="columnheader" className="aligned__head-message">
          Message
        </div>
        {aligned.columns.map((column, c) => (
          <AlignedColumnHead
            key={column.column.id}
            column={column}
            color={props.colors[c] ?? 'var(--text-muted)'}
            turn={aligned.turn}
            selected={props.selectedColumn === c}
            onSelect={() => props.onSelectColumn(c)}
          />
        ))}
      </div>
      <div ref={scroller} className="aligned__body" style={{ height, width: tableWidth }} data-testid="aligned-body">
        {items.length === 0 && <p className="aligned__empty muted">No messages to show at this turn.</p>}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const item = items[v.index]!;
            return (
              <div
                key={item.type === 'fold' ? `fold-${item.start}` : item.row.id}
                role="row"
                className={`aligned__row${item.type === 'fold' ? ' aligned__row--fold' : ''}${item.type === 'row' && !item.row.agree ? ' aligned__row--differs' : ''}`}
                style={{ gridTemplateColumns: template, transform: `translateY(${v.start}px)`, height: v.size }}
                data-testid={item.type === 'fold' ? 'aligned-fold-row' : 'aligned-row'}
                data-row-id={item.type === 'row' ? item.row.id : undefined}
              >
                <ItemRow
                  item={item}
                  aligned={aligned}
                  selectedRowId={props.selectedRowId}
                  selectedColumn={props.selectedColumn}
                  onSelectCell={props.onSelectCell}
                  onToggleFold={props.onToggleFold}
                />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
