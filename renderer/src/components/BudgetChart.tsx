import type { ReactElement } from 'react';
import {
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatCount } from '../formatQuantities';
import type { BudgetSeries, TokenMeasure } from '../model/budgetSeries';
import './BudgetChart.css';

export interface BudgetChartProps {
  series: BudgetSeries;
  measure: TokenMeasure;
  selectedTurn: number;
  onSelectTurn(turn: number): void;
  height?: number;
  /** width used before the container is measured (and in jsdom, which never measures) */
  initialWidth?: number;
  /** a short pane: the legend keeps to one line (the note is cut, its whole text in its tooltip) */
  compact?: boolean;
}

const BUDGET_COLOR = '#868e96';

interface DotProps {
  cx?: number;
  cy?: number;
  index?: number;
  payload?: Record<string, unknown>;
}

/** A lane line's dot: a diamond on turns with a compaction, a red cross on quarantines, nothing otherwise. */
function markerDot(markKey: string, color: string, laneIndex: number) {
  return (props: DotProps): ReactElement => {
    const { cx, cy, index = 0, payload } = props;
    const key = `m${laneIndex}-${index}`;
    const marker = payload?.[markKey];
    if (cx === undefined || cy === undefined || (marker !== 'compaction' && marker !== 'quarantine'))
      return <g key={key} />;
    if (marker === 'quarantine') {
      return (
        <g key={key} data-marker="quarantine" className="chart-marker chart-marker--quarantine">
          <circle cx={cx} cy={cy} r={6} fill="#e03131" stroke="#fff" strokeWidth={1.5} />
          <path
            d={`M${cx - 3},${cy - 3}L${cx + 3},${cy + 3}M${cx + 3},${cy - 3}L${cx - 3},${cy + 3}`}
            stroke="#fff"
            strokeWidth={1.8}
          />
        </g>
      );
    }
    return (
      <path
        key={key}
        data-marker="compaction"
        className="chart-marker"
        d={`M${cx},${cy - 5.5}L${cx + 5.5},${cy}L${cx},${cy + 5.5}L${cx - 5.5},${cy}Z`}
        fill={color}
        stroke="#fff"
        strokeWidth={1.2}
      />
    );
  };
}

function niceTop(value: number): number {
  if (value <= 0) return 1000;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const steps = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];
  for (const step of steps) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

function tickLabel(value: number): string {
  return value >= 1000 ? `${Math.round(value / 100) / 10}k` : String(value);
}

/** The y axis' top: a round number a little above the highest figure drawn (and the prompt budget). */
function chartTop(series: BudgetSeries): number {
  let highest = 0;
  for (const point of series.points) {
    for (const lane of series.lanes) {
      highest = Math.max(highest, Number(point[lane.tokensKey] ?? 0), Number(point[lane.budgetKey] ?? 0));
    }
  }
  if (series.reserveBand) highest = Math.max(highest, series.reserveBand.promptBudget);
  return niceTop(highest * 1.12);
}

// Recharts reads its children's props, so the chart's parts are built by functions rather than wrapped in components.

function reserveArea(band: NonNullable<BudgetSeries['reserveBand']>, top: number): ReactElement {
  return (
    <ReferenceArea
      y1={band.promptBudget}
      y2={Math.min(band.contextWindow, top)}
      className="budget-chart__reserve"
      fill="#868e96"
      fillOpacity={0.14}
      ifOverflow="hidden"
      label={{
        value: `reserve ${formatCount(band.contextWindow - band.promptBudget)}`,
        position: 'insideTopRight',
        className: 'budget-chart__band-label',
      }}
    />
  );
}

/** One dashed step line for a budget every lane shares, else one per lane in its colour. */
function budgetLines(series: BudgetSeries): ReactElement | ReactElement[] {
  if (series.sharedBudget) {
    return (
      <Line
        dataKey="budget"
        name="token budget"
        type="stepAfter"
        stroke={BUDGET_COLOR}
        strokeWidth={2}
        strokeDasharray="6 4"
        dot={false}
        isAnimationActive={false}
      />
    );
  }
  return series.lanes.map((lane) => (
    <Line
      key={lane.budgetKey}
      dataKey={lane.budgetKey}
      name={`${lane.label} budget`}
      type="stepAfter"
      stroke={lane.color}
      strokeOpacity={0.6}
      strokeWidth={1.5}
      strokeDasharray="6 4"
      dot={false}
      isAnimationActive={false}
    />
  ));
}

function tokenLines(series: BudgetSeries): ReactElement[] {
  return series.lanes.map((lane, i) => (
    <Line
      key={lane.tokensKey}
      dataKey={lane.tokensKey}
      name={lane.label}
      type="linear"
      stroke={lane.color}
      strokeWidth={2.2}
      dot={markerDot(lane.markKey, lane.color, i)}
      activeDot={{ r: 4 }}
      connectNulls={false}
      isAnimationActive={false}
    />
  ));
}

function tooltip(): ReactElement {
  return (
    <Tooltip
      formatter={(value) => (typeof value === 'number' ? formatCount(value) : String(value ?? ''))}
      labelFormatter={(label) => `Turn ${String(label)}`}
      wrapperClassName="budget-chart__tooltip"
      contentStyle={{
        background: 'var(--surface)',
        border: '1px solid var(--border)',
        borderRadius: 6,
        color: 'var(--text)',
      }}
      labelStyle={{ color: 'var(--text)', fontWeight: 600 }}
      isAnimationActive={false}
    />
  );
}

function BudgetLegend({ series, measure }: { series: BudgetSeries; measure: TokenMeasure }) {
  const band = series.reserveBand;
  const note =
    `${measure === 'tiktoken' ? 'tiktoken counts' : 'OpenClaw estimate'} · token budget up to ${formatCount(series.maxBudget)}` +
    (band
      ? ` · window ${formatCount(band.contextWindow)} − reserve ${formatCount(band.contextWindow - band.promptBudget)}`
      : '');
  return (
    <figcaption className="budget-chart__legend">
      {series.lanes.map((lane) => (
        <span key={lane.id} className="legend-item">
          <span className="legend-swatch" style={{ background: lane.color }} aria-hidden="true" />
          <span className="mono">{lane.label}</span>
        </span>
      ))}
      <span className="legend-item">
        <span className="legend-swatch legend-swatch--dashed" aria-hidden="true" />
        token budget
      </span>
      <span className="legend-item">◆ compaction ({series.compactions})</span>
      <span className="legend-item">✕ quarantine ({series.quarantines})</span>
      <span className="legend-item legend-item--note" data-testid="budget-caption" title={note}>
        {note}
      </span>
    </figcaption>
  );
}

/** Assembled tokens per turn for each lane against the token budget each turn was given. */
export function BudgetChart({
  series,
  measure,
  selectedTurn,
  onSelectTurn,
  height = 200,
  initialWidth = 900,
  compact = false,
}: BudgetChartProps) {
  const top = chartTop(series);
  return (
    <figure
      className={`budget-chart${compact ? ' budget-chart--compact' : ''}`}
      aria-label="Tokens per turn against the token budget"
    >
      <div className="budget-chart__plot" data-testid="budget-chart">
        <ResponsiveContainer width="100%" height={height} initialDimension={{ width: initialWidth, height }}>
          <ComposedChart
            data={series.points}
            margin={{ top: 8, right: 16, bottom: 4, left: 4 }}
            onClick={(state) => {
              const label = state?.activeLabel;
              if (label !== undefined && label !== null && Number.isFinite(Number(label)))
                onSelectTurn(Number(label) - 1);
            }}
          >
            <CartesianGrid strokeDasharray="3 3" vertical={false} className="budget-chart__grid" />
            <XAxis dataKey="label" interval="preserveStartEnd" minTickGap={12} tickLine={false} />
            <YAxis domain={[0, top]} tickFormatter={tickLabel} width={48} tickLine={false} allowDataOverflow />
            {series.reserveBand && reserveArea(series.reserveBand, top)}
            <ReferenceLine
              x={String(selectedTurn + 1)}
              stroke="currentColor"
              strokeDasharray="2 3"
              className="budget-chart__cursor"
            />
            {budgetLines(series)}
            {tokenLines(series)}
            {tooltip()}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <BudgetLegend series={series} measure={measure} />
    </figure>
  );
}
