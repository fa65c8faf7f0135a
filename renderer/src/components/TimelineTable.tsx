import { useEffect, useRef, useState } from 'react';
import { formatCount } from '../formatQuantities';
import type { TimelineCell, TimelineRow } from '../model/timelineRows';
import { scrollToReveal, visibleRange } from '../model/windowRange';
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

/** Per-turn rows with the lanes side by side; only the rows in view are rendered. Click a row to open it. */
export function TimelineTable({ lanes, rows, selectedTurn, onSelectTurn, height = 320 }: TimelineTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = Math.max(TIMELINE_ROW_HEIGHT, height - HEADER_HEIGHT);
  const range = visibleRange(scrollTop, viewport, TIMELINE_ROW_HEIGHT, rows.length);
  const selectedIndex = rows.findIndex((row) => row.turn === selectedTurn);

  useEffect(() => {
    const element = scroller.current;
    if (!element || selectedIndex < 0) return;
    // clientHeight leaves out a horizontal scrollbar (many lanes), which would hide the last row's bottom
    // and the sticky head is as tall as the browser laid it out
    const visible = element.clientHeight > 0 ? element.clientHeight : height;
    const head = element.querySelector('thead')?.getBoundingClientRect().height || HEADER_HEIGHT;
    const next = scrollToReveal(selectedIndex, TIMELINE_ROW_HEIGHT, element.scrollTop, visible, head);
    if (next !== element.scrollTop) {
      element.scrollTop = next;
      setScrollTop(next);
    }
  }, [selectedIndex, height]);

  const contentHeight = HEADER_HEIGHT + rows.length * TIMELINE_ROW_HEIGHT + 2;
  return (
    <div
      ref={scroller}
      className="timeline"
      style={{ height: Math.min(height, contentHeight) }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      data-testid="timeline"
    >
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
          {range.padTop > 0 && <tr aria-hidden="true" style={{ height: range.padTop }} />}
          {rows.slice(range.start, range.end).map((row) => {
            const selected = row.turn === selectedTurn;
            return (
              <tr
                key={row.turn}
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
          })}
          {range.padBottom > 0 && <tr aria-hidden="true" style={{ height: range.padBottom }} />}
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
