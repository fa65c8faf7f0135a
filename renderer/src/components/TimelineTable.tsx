import { observeElementRect, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { Fragment, memo, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
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

export const TIMELINE_ROW_HEIGHT = 28;
/** the sticky head's two rows (lane names, column names), px */
export const TIMELINE_HEAD_HEIGHT = 58;

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
      <EventsCell badges={cell.badges} />
    </>
  );
}

/** a badge as one line of a tooltip: its word and what it stands for */
const badgeLine = (badge: TimelineCell['badges'][number]) =>
  badge.title && badge.title !== badge.text ? `${badge.text}: ${badge.title}` : badge.text;

/**
 * A turn's events in a narrow column: the first badge and `+N` for the others (cutting a row of pills would hide
 * what they say); the cell's tooltip lists every one, and `data-events` their kinds (what a test finds a turn's
 * events by, whichever of them the `+N` hides).
 */
function EventsCell({ badges }: { badges: TimelineCell['badges'] }) {
  const [first, ...others] = badges;
  return (
    <td
      data-testid="cell-events"
      data-events={badges.map((badge) => badge.kind).join(' ')}
      title={badges.map(badgeLine).join('\n') || undefined}
    >
      <div className="timeline__events">
        {first && <Tag text={first.text} tone={first.tone} title={first.title} testId={`badge-${first.kind}`} />}
        {others.length > 0 && (
          <Tag text={`+${others.length}`} tone="muted" title={others.map(badgeLine).join('\n')} testId="badge-more" />
        )}
      </div>
    </td>
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

interface ScrollInsets {
  /** the sticky head's height, px */
  head: number;
  /** what the scroller's box has below its visible content (a horizontal scrollbar, borders), px */
  bottom: number;
}

/**
 * The sticky head's height and the scroller's bottom inset, read when the browser reports a resize (after layout),
 * never on a turn switch: keeping the selected row in view reads no layout.
 */
function useScrollInsets(scroller: RefObject<HTMLDivElement | null>): ScrollInsets {
  const [insets, setInsets] = useState<ScrollInsets>({ head: TIMELINE_HEAD_HEIGHT, bottom: 0 });
  useEffect(() => {
    const element = scroller.current;
    const head = element?.querySelector('thead');
    if (!element || !head || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const next = {
        head: head.getBoundingClientRect().height || TIMELINE_HEAD_HEIGHT,
        bottom: Math.max(0, element.offsetHeight - element.clientHeight),
      };
      setInsets((before) => (before.head === next.head && before.bottom === next.bottom ? before : next));
    });
    observer.observe(element);
    observer.observe(head);
    return () => observer.disconnect();
  }, [scroller]);
  return insets;
}

const OVERSCAN = 6;
/** rows are added and dropped in blocks of this many, so a step (j, k) rarely changes which rows are rendered */
const BLOCK = 8;

function blockRange(from: number, to: number, count: number): number[] {
  const start = Math.max(0, Math.floor(from / BLOCK) * BLOCK);
  const end = Math.min(count - 1, Math.ceil((to + 1) / BLOCK) * BLOCK - 1);
  return Array.from({ length: Math.max(0, end - start + 1) }, (_, i) => start + i);
}

/**
 * The rows to render: those in view and the overscan, in whole blocks; and when the selected row is beyond them (a
 * jump: End, a click on the chart) the rows around it too, so that the frame which scrolls to it has them.
 */
export function timelineIndexes(range: Range, selected: number, visibleRows: number): number[] {
  const shown = blockRange(range.startIndex - OVERSCAN, range.endIndex + OVERSCAN, range.count);
  if (selected < 0 || (selected >= shown[0]! && selected <= shown.at(-1)!)) return shown;
  const around = blockRange(selected - visibleRows - OVERSCAN, selected + visibleRows + OVERSCAN, range.count);
  return [...new Set([...shown, ...around])].sort((a, b) => a - b);
}

/**
 * Per-turn rows with the lanes side by side; only the rows in view are rendered (@tanstack/react-virtual), and the
 * selected row is kept in view from the virtualizer's cached scroll offset and box (no layout is read on a switch).
 */
export function TimelineTable({ lanes, rows, selectedTurn, onSelectTurn, height = 320 }: TimelineTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const viewport = Math.max(TIMELINE_ROW_HEIGHT, height - TIMELINE_HEAD_HEIGHT);
  const insets = useScrollInsets(scroller);
  const written = useRef<{ top: number; from: number | null } | null>(null);
  const selectedIndex = rows.findIndex((row) => row.turn === selectedTurn);
  // eslint-disable-next-line react-hooks/incompatible-library -- the app does not use the React Compiler; the virtualizer re-renders this component on scroll itself
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => TIMELINE_ROW_HEIGHT,
    overscan: OVERSCAN,
    rangeExtractor: (range) => timelineIndexes(range, selectedIndex, Math.ceil(viewport / TIMELINE_ROW_HEIGHT)),
    paddingStart: TIMELINE_HEAD_HEIGHT,
    // before layout (and in jsdom, which has none) the scroller is as tall as the height given
    initialRect: { width: 0, height: viewport + TIMELINE_HEAD_HEIGHT },
    observeElementRect: (instance, report) =>
      observeElementRect(instance, (rect) =>
        report(rect.height > 0 ? rect : { width: rect.width, height: viewport + TIMELINE_HEAD_HEIGHT }),
      ),
  });
  const items = virtualizer.getVirtualItems();

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || selectedIndex < 0) return;
    // from the virtualizer's scroll offset and box (kept from scroll and resize events) and the insets: the
    // virtualizer's own scrollToIndex reads scrollHeight, which would lay the page out in the middle of the switch
    // a scroll written since the last scroll event counts (j pressed again before the browser reported the last one)
    const last = written.current;
    const offset = last && last.from === virtualizer.scrollOffset ? last.top : (virtualizer.scrollOffset ?? 0);
    const visible = (virtualizer.scrollRect?.height ?? viewport + TIMELINE_HEAD_HEIGHT) - insets.bottom;
    const next = scrollToReveal(selectedIndex, TIMELINE_ROW_HEIGHT, offset, visible, insets.head);
    if (Math.abs(next - offset) < 1) return;
    const reveal = () => {
      written.current = { top: next, from: virtualizer.scrollOffset };
      element.scrollTop = next;
    };
    // the rows it brings into view are rendered already (timelineIndexes): it scrolls in the next frame, before that
    // is drawn, where the layout that setting scrollTop needs is the frame's own
    if (typeof requestAnimationFrame !== 'function') return reveal();
    const frame = requestAnimationFrame(reveal);
    return () => cancelAnimationFrame(frame);
  }, [virtualizer, selectedIndex, viewport, insets]);

  const contentHeight = TIMELINE_HEAD_HEIGHT + rows.length * TIMELINE_ROW_HEIGHT + 2;
  return (
    <div ref={scroller} className="timeline" style={{ height: Math.min(height, contentHeight) }} data-testid="timeline">
      <table className="table timeline__table" aria-label="Turns" aria-rowcount={rows.length + 2}>
        <TimelineHead lanes={lanes} />
        <tbody>
          {items.map((item, i) => {
            const row = rows[item.index]!;
            const gap = item.start - (i === 0 ? TIMELINE_HEAD_HEIGHT : items[i - 1]!.end);
            return (
              <Fragment key={row.turn}>
                {gap > 0 && <tr aria-hidden="true" style={{ height: gap }} />}
                <Row row={row} lanes={lanes} selected={row.turn === selectedTurn} onSelectTurn={onSelectTurn} />
              </Fragment>
            );
          })}
          {items.length > 0 && virtualizer.getTotalSize() > items.at(-1)!.end && (
            <tr aria-hidden="true" style={{ height: virtualizer.getTotalSize() - items.at(-1)!.end }} />
          )}
        </tbody>
      </table>
    </div>
  );
}

/** The sticky head: lane names over each lane's columns (memoised: it depends on the lanes only). */
const TimelineHead = memo(function TimelineHead({ lanes }: { lanes: readonly TimelineLane[] }) {
  return (
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
  );
});

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
