import { lazy, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import type { BudgetSeries, TokenMeasure } from '../model/budgetSeries';
import { chartHeightAtLeast, markerRows, plotArea, turnAtPoint, xOfTurn, type TurnRange } from './budgetChartGeometry';
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

function niceTop(value: number): number {
  if (value <= 0) return 1000;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const steps = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];
  for (const step of steps) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

/** The y axis' top: a round number a little above the highest figure drawn (and the compaction threshold). */
function chartTop(series: BudgetSeries): number {
  let highest = 0;
  for (const point of series.points) {
    for (const lane of series.lanes) {
      highest = Math.max(highest, Number(point[lane.tokensKey] ?? 0), Number(point[lane.budgetKey] ?? 0));
    }
  }
  if (series.bands) highest = Math.max(highest, series.bands.compactionThreshold);
  return niceTop(highest * 1.12);
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

/** Assembled tokens per turn for each lane against the token budget each turn was given; brush to zoom. */
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
  const top = useMemo(() => chartTop(series), [series]);
  const [range, setRange] = useTurnRange(series.points.length);
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
            rows={rows}
            onRange={setRange}
          />
        </Suspense>
        <Cursor turn={selectedTurn} range={range} width={size.width} height={height} rows={rows.length} />
      </div>
      <BudgetLegend series={series} measure={measure} onSave={save} />
    </figure>
  );
}
