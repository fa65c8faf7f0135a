import { memo, type ReactElement } from 'react';
import {
  Brush,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  ReferenceDot,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { laneStroke } from '../../../src/view';
import { formatCount } from '../formatQuantities';
import type { BudgetSeries } from '../model/budgetSeries';
import { groupMarks, type MarkGroup, type MarkKind } from '../model/chartMarkers';
import {
  BRUSH_HEIGHT,
  MARKER_ROW_HEIGHT,
  markerStripHeight,
  PLOT_MARGIN,
  plotArea,
  spreadMarkGroups,
  X_AXIS_HEIGHT,
  Y_AXIS_WIDTH,
  type TurnRange,
} from './budgetChartGeometry';

/** at most one marker per this many px of plot width; denser turns are drawn as one marker with a count */
const MARKER_SPACING = 20;
/** px a band label takes above or below its line */
const BAND_LABEL_HEIGHT = 16;

const BUDGET_COLOR = '#868e96';
const THRESHOLD_COLOR = '#c92a2a';
const MARK_COLOR: Record<MarkKind, string> = { compaction: '#1c7ed6', quarantine: '#e03131', spawn: '#2f9e44' };

export interface BudgetChartPlotProps {
  series: BudgetSeries;
  top: number;
  height: number;
  width: number;
  range: TurnRange;
  /** the window line and reserve band are drawn (the y axis reaches the window) */
  withWindow: boolean;
  /** the marker strip's rows above the plot, top to bottom */
  rows: readonly MarkKind[];
  onRange(range: TurnRange): void;
}

/** The y scale of the plot area: the value drawn `px` above (negative: below) the plot's top edge. */
function valueAbovePlot(top: number, plotHeight: number, px: number): number {
  return top * (1 + px / Math.max(1, plotHeight));
}

function tickLabel(value: number): string {
  return value >= 1000 ? `${Math.round(value / 100) / 10}k` : String(value);
}

interface ShapeProps {
  cx?: number;
  cy?: number;
  payload?: MarkGroup;
}

function markerShape(kind: MarkKind) {
  return ({ cx = 0, cy = 0, payload }: ShapeProps): ReactElement => {
    const many = (payload?.turns ?? 1) > 1;
    const color = MARK_COLOR[kind];
    const shape =
      kind === 'compaction' ? (
        <path d={`M${cx},${cy - 5}L${cx + 5},${cy}L${cx},${cy + 5}L${cx - 5},${cy}Z`} fill={color} />
      ) : kind === 'quarantine' ? (
        <path
          d={`M${cx - 4},${cy - 4}L${cx + 4},${cy + 4}M${cx + 4},${cy - 4}L${cx - 4},${cy + 4}`}
          stroke={color}
          strokeWidth={2.4}
        />
      ) : (
        <path d={`M${cx},${cy - 5}L${cx + 5},${cy + 4}L${cx - 5},${cy + 4}Z`} fill={color} />
      );
    return (
      <g className={`chart-marker chart-marker--${kind}`} data-marker={kind} data-turns={payload?.turns ?? 1}>
        {shape}
        {many && (
          <text x={cx + 7} y={cy + 4} className="chart-marker__count" fill={color}>
            {payload!.turns}
          </text>
        )}
      </g>
    );
  };
}

/**
 * The compaction threshold where it is on the y axis, and with `withWindow` (the axis then reaches the window) the
 * window line and the reserve band between them.
 */
function bandParts(series: BudgetSeries, top: number, plotHeight: number, withWindow: boolean): ReactElement[] {
  const bands = series.bands;
  if (!bands) return [];
  // labels (drawn with the window line only) sit outside the reserve band between the lines (often narrow): window
  // above its line on the left, threshold below its line on the right — each on its line's other side where the
  // plot's edge leaves it no room. (On a line, recharts' "insideBottom" is above it and "insideTop" below.)
  const room = BAND_LABEL_HEIGHT / Math.max(1, plotHeight);
  const windowBelow = bands.contextWindow > top * (1 - room);
  const thresholdLabelAbove = bands.compactionThreshold < top * room;
  const label = (
    value: string,
    position: 'insideTopLeft' | 'insideBottomLeft' | 'insideTopRight' | 'insideBottomRight',
  ) => ({
    value,
    position,
    className: 'budget-chart__band-label',
  });
  const parts: ReactElement[] = [];
  if (withWindow && bands.contextWindow <= top) {
    parts.push(
      <ReferenceArea
        key="reserve"
        y1={bands.compactionThreshold}
        y2={bands.contextWindow}
        className="budget-chart__reserve"
        fill={BUDGET_COLOR}
        fillOpacity={0.12}
        ifOverflow="hidden"
      />,
      <ReferenceLine
        key="window"
        y={bands.contextWindow}
        stroke={BUDGET_COLOR}
        ifOverflow="hidden"
        className="budget-chart__window"
        label={label(`window ${formatCount(bands.contextWindow)}`, windowBelow ? 'insideTopLeft' : 'insideBottomLeft')}
      />,
    );
  }
  // above the y axis (scaled to the figures, the window line off) it has no line: the legend gives its figure
  if (bands.compactionThreshold <= top) {
    parts.push(
      <ReferenceLine
        key="threshold"
        y={bands.compactionThreshold}
        // solid and in no lane's colour: later lanes' lines are dashed
        stroke={THRESHOLD_COLOR}
        strokeWidth={1.5}
        ifOverflow="hidden"
        className="budget-chart__threshold"
        // its label only where the axis reaches the window (room above the line): scaled to the figures, the line
        // runs just under the top, where a label would sit on the peaks and the compaction dots; the legend's note
        // names its figure either way
        {...(withWindow
          ? {
              label: label(
                `compaction threshold ${formatCount(bands.compactionThreshold)}`,
                thresholdLabelAbove ? 'insideBottomRight' : 'insideTopRight',
              ),
            }
          : {})}
      />,
    );
  }
  return parts;
}

function budgetLines(series: BudgetSeries): ReactElement[] {
  if (!series.budgetLine) return [];
  if (series.sharedBudget) {
    return [
      <Line
        key="budget"
        dataKey="budget"
        name="token budget"
        type="stepAfter"
        stroke={BUDGET_COLOR}
        strokeWidth={2}
        strokeDasharray="6 4"
        dot={false}
        isAnimationActive={false}
      />,
    ];
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

/**
 * Per lane and compaction decided on the precheck, in the turns shown: a line from the estimate it was decided on
 * (above the threshold, the figure of its cause line) down to the estimate after it, which the lane's line plots.
 * The estimate before is a dot of its own series (`beforeCompactionKey`), so the tooltip names it.
 */
function compactionDrops(series: BudgetSeries, range: TurnRange): ReactElement[] {
  const drops: ReactElement[] = [];
  for (let turn = range.start; turn <= Math.min(range.end, series.points.length - 1); turn++) {
    const point = series.points[turn]!;
    for (const lane of series.lanes) {
      const before = point[lane.beforeCompactionKey];
      const after = point[lane.tokensKey];
      if (typeof before !== 'number' || typeof after !== 'number') continue;
      drops.push(
        <ReferenceLine
          key={`${lane.beforeCompactionKey}:${turn}`}
          segment={[
            { x: turn, y: before },
            { x: turn, y: after },
          ]}
          stroke={lane.color}
          strokeWidth={1.5}
          ifOverflow="hidden"
          className="budget-chart__drop"
        />,
      );
    }
  }
  return drops;
}

interface DotProps {
  cx?: number;
  cy?: number;
  value?: number | null;
  payload?: { turn: number };
}

function beforeCompactionDots(series: BudgetSeries): ReactElement[] {
  return series.lanes.map((lane) => (
    <Line
      key={lane.beforeCompactionKey}
      dataKey={lane.beforeCompactionKey}
      name={`${lane.label} before compaction`}
      className="budget-chart__before-compaction"
      // no line between the dots; the stroke colours the tooltip's entry
      stroke={lane.color}
      strokeWidth={0}
      // a dot of its own (recharts draws dots in a layer apart from the line's): it says whose and which turn it is
      dot={({ cx, cy, value, payload }: DotProps) =>
        typeof value === 'number' && cx !== undefined && cy !== undefined && payload ? (
          <circle
            className="budget-chart__before-compaction-dot"
            data-lane={lane.id}
            data-turn={payload.turn}
            data-tokens={value}
            cx={cx}
            cy={cy}
            r={3}
            fill={lane.color}
          />
        ) : null
      }
      activeDot={false}
      legendType="none"
      isAnimationActive={false}
    />
  ));
}

/** Markers in the strip above the plot, a row per kind: they never cover a line or a band's label. */
function markerDots(props: BudgetChartPlotProps, plotHeight: number): ReactElement[] {
  const { series, range, width, top, rows } = props;
  const buckets = Math.max(8, Math.floor((width - Y_AXIS_WIDTH) / MARKER_SPACING));
  const strip = markerStripHeight(rows.length);
  const rowValue = (kind: MarkKind) =>
    valueAbovePlot(top, plotHeight, strip - 1 - MARKER_ROW_HEIGHT * (rows.indexOf(kind) + 0.5));
  const groups = groupMarks(series.marks, range.start, range.end, buckets);
  return spreadMarkGroups(groups, range, plotArea(width, 0).width).map((group) => (
    <ReferenceDot
      key={`${group.kind}:${group.firstTurn}`}
      x={group.turn}
      y={rowValue(group.kind)}
      // drawn outside the plot area (in the strip above it), so not clipped to it
      ifOverflow="visible"
      shape={(props: ShapeProps) => markerShape(group.kind)({ ...props, payload: group }) as ReactElement<SVGElement>}
    />
  ));
}

/** The chart itself. Memoised on its data: a turn switch moves only the cursor layer (BudgetChart), not this. */
export const BudgetChartPlot = memo(function BudgetChartPlot(props: BudgetChartPlotProps) {
  const { series, top, height, width, range, rows, onRange, withWindow } = props;
  const zoomable = series.points.length > 2;
  const plotHeight = plotArea(width, height, rows.length).height;
  return (
    <ResponsiveContainer width="100%" height={height} initialDimension={{ width, height }}>
      {/* a click selects a turn through the plot's own handler (BudgetChart), from the layout */}
      <ComposedChart
        data={series.points}
        margin={{ ...PLOT_MARGIN, top: PLOT_MARGIN.top + markerStripHeight(rows.length) }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} className="budget-chart__grid" />
        <XAxis
          dataKey="turn"
          type="number"
          // a one-turn range (the first turn of a streaming replay) still needs a span for the scale
          domain={[range.start, Math.max(range.end, range.start + 1)]}
          allowDataOverflow
          tickFormatter={(turn: number) => String(turn + 1)}
          allowDecimals={false}
          height={X_AXIS_HEIGHT}
          tickLine={false}
        />
        <YAxis domain={[0, top]} tickFormatter={tickLabel} width={Y_AXIS_WIDTH} tickLine={false} allowDataOverflow />
        {bandParts(series, top, plotHeight, withWindow)}
        {budgetLines(series)}
        {series.lanes.map((lane, position) => (
          <Line
            key={lane.tokensKey}
            dataKey={lane.tokensKey}
            name={lane.label}
            type="linear"
            stroke={lane.color}
            // later lanes dashed apart: two lanes with the same figures show both colours, not only the last one's
            strokeDasharray={laneStroke(position, series.lanes.length).dasharray}
            strokeDashoffset={laneStroke(position, series.lanes.length).dashoffset}
            strokeWidth={2}
            dot={false}
            activeDot={{ r: 4 }}
            connectNulls={false}
            isAnimationActive={false}
          />
        ))}
        {compactionDrops(series, range)}
        {!series.budgetLine && beforeCompactionDots(series)}
        {markerDots(props, plotHeight)}
        <Tooltip
          formatter={(value) => (typeof value === 'number' ? formatCount(value) : String(value ?? ''))}
          labelFormatter={(turn) => `Turn ${Number(turn) + 1}`}
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
        {zoomable && (
          <Brush
            // remounted when the data grows (a streaming replay): a mounted Brush keeps its old layout and draws NaN
            key={series.points.length}
            dataKey="turn"
            height={BRUSH_HEIGHT}
            startIndex={range.start}
            endIndex={range.end}
            tickFormatter={(turn: number) => String(turn + 1)}
            onChange={(next) => {
              if (next.startIndex !== undefined && next.endIndex !== undefined)
                onRange({ start: next.startIndex, end: next.endIndex });
            }}
            className="budget-chart__brush"
            stroke={BUDGET_COLOR}
          />
        )}
      </ComposedChart>
    </ResponsiveContainer>
  );
});
