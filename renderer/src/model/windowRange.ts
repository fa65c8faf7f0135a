/**
 * Windowing for long fixed-height row lists (the Timeline): which rows to render for a scroll position, and where
 * to scroll so a selected row is visible. Pure, so the list component stays a thin renderer.
 */

export interface WindowRange {
  /** first row to render */
  start: number;
  /** one past the last row to render */
  end: number;
  /** blank space above and below the rendered rows, in px */
  padTop: number;
  padBottom: number;
}

export function visibleRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  count: number,
  overscan = 6,
): WindowRange {
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visible = Math.ceil(Math.max(viewportHeight, rowHeight) / rowHeight);
  const start = Math.max(0, Math.min(count - 1, first - overscan));
  const end = Math.min(count, first + visible + overscan);
  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight };
}

/** The scrollTop that shows row `index` fully, moving as little as possible (unchanged when it already shows). */
export function scrollToReveal(
  index: number,
  rowHeight: number,
  scrollTop: number,
  viewportHeight: number,
  headerHeight = 0,
): number {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  const visibleHeight = viewportHeight - headerHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + visibleHeight) return bottom - visibleHeight;
  return scrollTop;
}
