/** The BudgetChart's layout in px, shared by the plot (loaded on demand) and the cursor layer laid over it. */
import type { BudgetSeries } from '../model/budgetSeries';
import type { MarkGroup, MarkKind } from '../model/chartMarkers';

export const PLOT_MARGIN = { top: 8, right: 16, bottom: 4, left: 4 };
export const Y_AXIS_WIDTH = 48;
export const X_AXIS_HEIGHT = 24;
export const BRUSH_HEIGHT = 22;
/** one row of markers (compaction, quarantine, spawn) in the strip above the plot */
export const MARKER_ROW_HEIGHT = 12;
/**
 * The least plot height (inside the axes): room for 3–5 y labels at least 16 px apart, the window and threshold
 * labels beside their lines, and the lines themselves. A shorter pane scrolls rather than squashing the chart.
 */
export const MIN_PLOT_HEIGHT = 72;

export interface TurnRange {
  start: number;
  end: number;
}

/** A round number at or above `value` (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × a power of ten): the y axis' top. */
function niceTop(value: number): number {
  if (value <= 0) return 1000;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const steps = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];
  for (const step of steps) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

/**
 * The y axis' top while `range` is shown: a round number a little above the highest figure drawn on those turns —
 * each lane's line, the estimate a compaction was decided on, the token budget lines — so the lines fill the plot
 * at any zoom. `withWindow` puts the context window on the scale too (and so the compaction threshold and the
 * reserve band below it); without it a limit above the data is not drawn.
 */
export function yAxisTop(series: BudgetSeries, range: TurnRange, withWindow: boolean): number {
  let highest = withWindow && series.bands ? series.bands.contextWindow : 0;
  const last = Math.min(range.end, series.points.length - 1);
  for (let turn = Math.max(0, range.start); turn <= last; turn++) {
    const point = series.points[turn]!;
    for (const lane of series.lanes) {
      for (const key of [lane.tokensKey, lane.beforeCompactionKey, lane.budgetKey]) {
        highest = Math.max(highest, Number(point[key] ?? 0));
      }
    }
  }
  // a little room above the highest figure for the threshold's label
  return niceTop(highest * 1.05);
}

/** The strip above the plot holding one row per kind of marker the chart has (none without markers). */
export function markerStripHeight(rows: number): number {
  return rows > 0 ? rows * MARKER_ROW_HEIGHT + 1 : 0;
}

/** The kinds that get a row in the marker strip, top to bottom. */
export function markerRows(counts: Record<MarkKind, number>): MarkKind[] {
  return (['compaction', 'quarantine', 'spawn'] as const).filter((kind) => counts[kind] > 0);
}

/** Px above the plot area (margin and marker strip). */
function plotTop(rows: number): number {
  return PLOT_MARGIN.top + markerStripHeight(rows);
}

/** The chart's height for a wanted one: never less than a plot of MIN_PLOT_HEIGHT with its axes and strip. */
export function chartHeightAtLeast(wanted: number, rows: number): number {
  return Math.max(wanted, plotTop(rows) + MIN_PLOT_HEIGHT + PLOT_MARGIN.bottom + X_AXIS_HEIGHT + BRUSH_HEIGHT);
}

/**
 * The plot area (inside the axes, below the marker strip, above the x axis and the brush) of a chart `width` ×
 * `height` px with `rows` marker rows.
 */
export function plotArea(
  width: number,
  height: number,
  rows = 0,
): { left: number; top: number; width: number; height: number } {
  const top = plotTop(rows);
  return {
    left: PLOT_MARGIN.left + Y_AXIS_WIDTH,
    top,
    width: Math.max(0, width - PLOT_MARGIN.left - Y_AXIS_WIDTH - PLOT_MARGIN.right),
    height: Math.max(0, height - top - PLOT_MARGIN.bottom - X_AXIS_HEIGHT - BRUSH_HEIGHT),
  };
}

/** The x (px from the chart's left edge) at which `turn` is drawn while `range` is shown. */
export function xOfTurn(turn: number, range: TurnRange, width: number): number {
  const area = plotArea(width, 0);
  return area.left + ((turn - range.start) / Math.max(1, range.end - range.start)) * area.width;
}

/**
 * The turn nearest a point (px from the chart's top-left corner), or null outside the plot area and its marker
 * strip. Computed from the layout rather than recharts' tooltip state: that state lags a click that arrives before
 * the hover is processed, and then names the range's first turn.
 */
export function turnAtPoint(
  x: number,
  y: number,
  range: TurnRange,
  width: number,
  height: number,
  rows = 0,
): number | null {
  const area = plotArea(width, height, rows);
  const stripTop = area.top - markerStripHeight(rows);
  if (x < area.left || x > area.left + area.width || y < stripTop || y > area.top + area.height) return null;
  if (area.width === 0) return range.start;
  const turn = range.start + Math.round(((x - area.left) / area.width) * Math.max(1, range.end - range.start));
  return Math.min(range.end, Math.max(range.start, turn));
}

/** The fewest turns a wheel zoom narrows the chart to. */
export const MIN_ZOOM_TURNS = 5;

/**
 * The range after zooming `range` by `factor` (below 1 in, above 1 out) around the point `fraction` (0–1) across
 * the plot: the turn under that point stays under it. Within turns 0–`last`, never fewer than MIN_ZOOM_TURNS (or
 * all of them), and a step in always narrows by at least one turn (a slow wheel would otherwise round to nothing).
 */
export function zoomRange(range: TurnRange, fraction: number, factor: number, last: number): TurnRange {
  const span = range.end - range.start;
  const narrowest = Math.min(MIN_ZOOM_TURNS - 1, last);
  let next = Math.round(span * factor);
  if (factor < 1) next = Math.min(next, span - 1);
  if (factor > 1) next = Math.max(next, span + 1);
  next = Math.min(last, Math.max(narrowest, next));
  const anchor = range.start + fraction * span;
  const start = Math.min(last - next, Math.max(0, Math.round(anchor - fraction * next)));
  return { start, end: start + next };
}

/** The range moved by `turns` (negative: back), as wide as it was, within turns 0–`last`. */
export function panRange(range: TurnRange, turns: number, last: number): TurnRange {
  const span = range.end - range.start;
  const start = Math.min(last - span, Math.max(0, range.start + Math.round(turns)));
  return { start, end: start + span };
}

/** Px a marker takes from its centre to the right edge of what follows it (the count beside a grouped one). */
function markerReach(group: MarkGroup): number {
  return group.turns > 1 ? 7 + 7 * String(group.turns).length : 5;
}

/**
 * The groups drawn apart: per kind, a group that would be drawn over the one before it (its shape, or that one's
 * count) joins it, so no two markers of a row overlap at any zoom or width.
 */
export function spreadMarkGroups(groups: readonly MarkGroup[], range: TurnRange, plotWidth: number): MarkGroup[] {
  const px = (turn: number) => ((turn - range.start) / Math.max(1, range.end - range.start)) * plotWidth;
  const spread: MarkGroup[] = [];
  const lastOfKind = new Map<MarkKind, number>();
  for (const group of [...groups].sort((a, b) => a.turn - b.turn)) {
    const at = lastOfKind.get(group.kind);
    const previous = at === undefined ? undefined : spread[at]!;
    if (!previous || px(group.turn) - px(previous.turn) >= markerReach(previous) + 7) {
      lastOfKind.set(group.kind, spread.length);
      spread.push(group);
      continue;
    }
    const lastTurn = Math.max(previous.lastTurn, group.lastTurn);
    spread[at!] = {
      ...previous,
      lastTurn,
      turns: previous.turns + group.turns,
      turn: (previous.firstTurn + lastTurn) / 2,
    };
  }
  return spread;
}
