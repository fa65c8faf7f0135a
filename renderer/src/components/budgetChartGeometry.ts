/** The BudgetChart's layout in px, shared by the plot (loaded on demand) and the cursor layer laid over it. */
export const PLOT_MARGIN = { top: 8, right: 16, bottom: 4, left: 4 };
export const Y_AXIS_WIDTH = 48;
export const X_AXIS_HEIGHT = 30;
export const BRUSH_HEIGHT = 22;

export interface TurnRange {
  start: number;
  end: number;
}

/** The plot area (inside the axes, above the x axis and the brush) of a chart `width` × `height` px. */
export function plotArea(width: number, height: number): { left: number; top: number; width: number; height: number } {
  return {
    left: PLOT_MARGIN.left + Y_AXIS_WIDTH,
    top: PLOT_MARGIN.top,
    width: Math.max(0, width - PLOT_MARGIN.left - Y_AXIS_WIDTH - PLOT_MARGIN.right),
    height: Math.max(0, height - PLOT_MARGIN.top - PLOT_MARGIN.bottom - X_AXIS_HEIGHT - BRUSH_HEIGHT),
  };
}

/** The x (px from the chart's left edge) at which `turn` is drawn while `range` is shown. */
export function xOfTurn(turn: number, range: TurnRange, width: number): number {
  const area = plotArea(width, 0);
  return area.left + ((turn - range.start) / Math.max(1, range.end - range.start)) * area.width;
}

/**
 * The turn nearest a point (px from the chart's top-left corner), or null outside the plot area. Computed from the
 * layout rather than recharts' tooltip state: that state lags a click that arrives before the hover is processed,
 * and then names the range's first turn.
 */
export function turnAtPoint(x: number, y: number, range: TurnRange, width: number, height: number): number | null {
  const area = plotArea(width, height);
  if (x < area.left || x > area.left + area.width || y < area.top || y > area.top + area.height) return null;
  if (area.width === 0) return range.start;
  const turn = range.start + Math.round(((x - area.left) / area.width) * Math.max(1, range.end - range.start));
  return Math.min(range.end, Math.max(range.start, turn));
}
