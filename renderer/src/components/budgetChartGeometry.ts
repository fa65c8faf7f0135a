/** The BudgetChart's layout in px, shared by the plot (loaded on demand) and the cursor layer laid over it. */
export const PLOT_MARGIN = { top: 8, right: 16, bottom: 4, left: 4 };
export const Y_AXIS_WIDTH = 48;
export const X_AXIS_HEIGHT = 30;
export const BRUSH_HEIGHT = 22;

export interface TurnRange {
  start: number;
  end: number;
}
