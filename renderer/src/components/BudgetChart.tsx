import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { BudgetSeries, TokenMeasure } from '../model/budgetSeries';
import {
  chartHeightAtLeast,
  markerRows,
  panRange,
  plotArea,
  turnAtPoint,
  xOfTurn,
  yAxisTop,
  zoomRange,
  type TurnRange,
} from './budgetChartGeometry';
import { BudgetLegend } from './BudgetLegend';
import { saveChartPng, saveChartSvg } from './chartExport';
import { useOverlayStore } from '../store/overlayStore';
import { useElementSize } from './useElementSize';
import './BudgetChart.css';

// recharts is most of the bundle: the plot loads when a chart is first shown
const BudgetChartPlot = lazy(() => import('./BudgetChartPlot').then((m) => ({ default: m.BudgetChartPlot })));

export interface BudgetChartProps {
  series: BudgetSeries;
  measure: TokenMeasure;
  selectedTurn: number;
  onSelectTurn(turn: number): void;
  /** px the chart would like (its plot never gets shorter than MIN_PLOT_HEIGHT: a short pane scrolls instead) */
  height?: number;
  /** width used before the container is measured (and in jsdom, which never measures) */
  initialWidth?: number;
  /** a short pane: the legend keeps to one line (the note is cut, its whole text in its tooltip) */
  compact?: boolean;
}

/** The whole recording until the user zooms; a zoom that showed everything keeps up as turns arrive. */
function useTurnRange(count: number): [TurnRange, (range: TurnRange) => void] {
  const last = Math.max(0, count - 1);
  const [chosen, setChosen] = useState<TurnRange | null>(null);
  // one object per (choice, length): a new one each render would re-render the memoised plot on every turn switch
  const range = useMemo(() => (chosen && chosen.end <= last ? chosen : { start: 0, end: last }), [chosen, last]);
  const choose = useCallback(
    (next: TurnRange) => setChosen(next.start === 0 && next.end >= last ? null : next),
    [last],
  );
  return [range, choose];
}

/** px of wheel movement that zoom by a factor of e (a wheel notch is about 100 px: a notch zooms about 1.2×) */
const WHEEL_ZOOM_PX = 500;

interface WheelZoomState {
  range: TurnRange;
  last: number;
  width: number;
  setRange(range: TurnRange): void;
}

/**
 * The wheel over the plot zooms around the pointer (plain or with Ctrl: a trackpad's pinch arrives as Ctrl+wheel),
 * a sideways wheel (or Shift+wheel) pans. A listener of its own, not React's onWheel: React's is passive, so it
 * could not keep the page from scrolling, or the browser from zooming the page on Ctrl+wheel.
 */
function useWheelZoom(plot: RefObject<HTMLDivElement | null>, state: WheelZoomState): void {
  const latest = useRef(state);
  // the listener reads the latest range and width without being added again on each render
  useEffect(() => {
    latest.current = state;
  });
  useEffect(() => {
    const element = plot.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      const { range, last, width, setRange } = latest.current;
      if (last < 2) return;
      event.preventDefault();
      const px =
        event.deltaMode === WheelEvent.DOM_DELTA_LINE ? 16 : event.deltaMode === WheelEvent.DOM_DELTA_PAGE ? 400 : 1;
      const area = plotArea(width, 0);
      const span = Math.max(1, range.end - range.start);
      if (Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
        setRange(panRange(range, ((event.deltaX * px) / Math.max(1, area.width)) * span, last));
        return;
      }
      const x = event.clientX - element.getBoundingClientRect().left;
      const fraction = Math.min(1, Math.max(0, (x - area.left) / Math.max(1, area.width)));
      setRange(zoomRange(range, fraction, Math.exp((event.deltaY * px) / WHEEL_ZOOM_PX), last));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [plot]);
}

/** The selected turn's line, laid over the plot: moving it renders no part of the chart. */
function Cursor(props: { turn: number; range: TurnRange; width: number; height: number; rows: number }) {
  const { turn, range, width, height, rows } = props;
  if (turn < range.start || turn > range.end) return null;
  const area = plotArea(width, height, rows);
  return (
    <div
      className="budget-chart__cursor"
      data-testid="budget-chart-cursor"
      data-turn={turn}
      aria-hidden="true"
      style={{ transform: `translateX(${xOfTurn(turn, range, width)}px)`, top: area.top, height: area.height }}
    />
  );
}

/** Saves the chart drawn in `plot` as SVG or PNG (a PNG that fails shows as a problem). */
function saveChart(plot: HTMLElement | null, format: 'png' | 'svg'): void {
  const svg = plot?.querySelector<SVGSVGElement>('svg.recharts-surface');
  if (!svg) return;
  if (format === 'svg') saveChartSvg(svg, 'budget-chart.svg');
  else
    saveChartPng(svg, 'budget-chart.png').catch((error: unknown) =>
      useOverlayStore.getState().setProblem(`Saving the chart as PNG failed: ${String(error)}`),
    );
}

/** Tokens per turn for each lane against the token budget or compaction threshold; brush or wheel to zoom. */
export function BudgetChart({
  series,
  measure,
  selectedTurn,
  onSelectTurn,
  height: wanted = 200,
  initialWidth = 900,
  compact = false,
}: BudgetChartProps) {
  const plot = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => markerRows(series.markTurns), [series.markTurns]);
  const height = chartHeightAtLeast(wanted, rows.length);
  const size = useElementSize(plot, { width: initialWidth, height });
  const [range, setRange] = useTurnRange(series.points.length);
  const [withWindow, setWithWindow] = useState(false);
  useWheelZoom(plot, { range, last: series.points.length - 1, width: size.width, setRange });
  // the visible turns' figures: a zoom rescales the y axis to them
  const top = useMemo(() => yAxisTop(series, range, withWindow), [series, range, withWindow]);
  // one function for the chart's life: the memoised legend is not rendered again on a turn switch
  const save = useCallback((format: 'png' | 'svg') => saveChart(plot.current, format), []);
  return (
    <figure
      className={`budget-chart${compact ? ' budget-chart--compact' : ''}`}
      aria-label="Tokens per turn against the token budget"
    >
      <div
        ref={plot}
        className="budget-chart__plot"
        data-testid="budget-chart"
        data-range={`${range.start}-${range.end}`}
        data-top={top}
        onClick={(event) => {
          const box = event.currentTarget.getBoundingClientRect();
          const turn = turnAtPoint(
            event.clientX - box.left,
            event.clientY - box.top,
            range,
            size.width,
            height,
            rows.length,
          );
          if (turn !== null && turn < series.points.length) onSelectTurn(turn);
        }}
      >
        <Suspense fallback={<div className="budget-chart__loading" style={{ height }} />}>
          <BudgetChartPlot
            series={series}
            top={top}
            height={height}
            width={size.width}
            range={range}
            withWindow={withWindow}
            rows={rows}
            onRange={setRange}
          />
        </Suspense>
        <Cursor turn={selectedTurn} range={range} width={size.width} height={height} rows={rows.length} />
      </div>
      <BudgetLegend
        series={series}
        measure={measure}
        onSave={save}
        withWindow={withWindow}
        onWithWindow={setWithWindow}
      />
    </figure>
  );
}
