import { memo } from 'react';
import { formatCount } from '../formatQuantities';
import type { BudgetSeries, TokenMeasure } from '../model/budgetSeries';

/** What the lines are, in the caption's first part (the measure switch names them shorter). */
const MEASURE_CAPTION: Record<TokenMeasure, string> = {
  precheck: 'precheck estimate of the prompt (what the compaction threshold is compared with)',
  estimate: 'assembled messages, OpenClaw estimate',
  tiktoken: 'assembled messages, tiktoken counts',
};

/** Whether the y axis reaches the context window (the window line and the reserve band drawn). */
function WindowSwitch({ checked, onChange }: { checked: boolean; onChange(checked: boolean): void }) {
  return (
    <label
      className="legend-item budget-chart__window-switch"
      title="The y axis reaches the context window: the window, the compaction threshold and the reserve band are drawn even above the figures (without it the axis is scaled to the figures of the turns shown)"
    >
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      window line
    </label>
  );
}

/**
 * The budget chart's legend: the lanes, the budget line, the marker counts in turns, the bands' note, the window
 * switch, Save. Memoised: a turn switch renders the chart again (its cursor moves) but changes nothing the legend
 * shows.
 */
export const BudgetLegend = memo(function BudgetLegend({
  series,
  measure,
  onSave,
  withWindow,
  onWithWindow,
}: {
  series: BudgetSeries;
  measure: TokenMeasure;
  onSave(format: 'png' | 'svg'): void;
  /** the y axis reaches the context window (else it is scaled to the figures drawn) */
  withWindow: boolean;
  onWithWindow(withWindow: boolean): void;
}) {
  const bands = series.bands;
  const parts = [
    MEASURE_CAPTION[measure],
    ...(series.budgetLine ? [`token budget up to ${formatCount(series.maxBudget)}`] : []),
    ...(bands
      ? [
          `window ${formatCount(bands.contextWindow)}`,
          `prompt budget ${formatCount(bands.promptBudget)} (reserve ${formatCount(bands.configuredReserve)} configured, ${formatCount(bands.effectiveReserve)} effective)`,
        ]
      : []),
  ];
  const note = parts.join(' · ');
  const turns = (n: number) => `${n} ${n === 1 ? 'turn' : 'turns'}`;
  return (
    <figcaption className="budget-chart__legend">
      {series.lanes.map((lane) => (
        <span key={lane.id} className="legend-item">
          <span className="legend-swatch" style={{ background: lane.color }} aria-hidden="true" />
          <span className="mono">{lane.label}</span>
        </span>
      ))}
      {series.budgetLine && (
        <span className="legend-item">
          <span className="legend-swatch legend-swatch--dashed" aria-hidden="true" />
          token budget
        </span>
      )}
      <span className="legend-item" data-testid="legend-compactions" title="turns where at least one lane compacted">
        ◆ compaction ({turns(series.markTurns.compaction)})
      </span>
      <span
        className="legend-item"
        data-testid="legend-quarantines"
        title="turns where a lane was quarantined (marked where it starts: the lane stays on the fallback after it)"
      >
        ✕ quarantine ({turns(series.markTurns.quarantine)})
      </span>
      <span
        className="legend-item"
        data-testid="legend-spawns"
        title="turns where at least one lane spawned a subagent"
      >
        ▲ spawn ({turns(series.markTurns.spawn)})
      </span>
      {/* in parts: where the line is short, whole parts drop (a cut never leaves a number that reads as another) */}
      <span className="legend-item legend-item--note" data-testid="budget-caption" title={note}>
        {parts.map((part, index) => (
          <span key={index} className="legend-note__part">
            {index > 0 ? ` · ${part}` : part}
          </span>
        ))}
      </span>
      {bands && <WindowSwitch checked={withWindow} onChange={onWithWindow} />}
      <span className="budget-chart__export" role="group" aria-label="Save chart">
        <button type="button" className="button button--small" onClick={() => onSave('png')}>
          PNG
        </button>
        <button type="button" className="button button--small" onClick={() => onSave('svg')}>
          SVG
        </button>
      </span>
    </figcaption>
  );
});
