import type { ChangeEvent } from 'react';
import { formatCount } from '../formatQuantities';
import './CompareControls.css';

export interface CompareLaneChoice {
  id: string;
  label: string;
  color: string;
  checked: boolean;
}

export interface CompareBaselineChoice {
  id: string;
  label: string;
}

export interface CompareControlsProps {
  lanes: readonly CompareLaneChoice[];
  onToggleLane(id: string): void;
  /** recordings the current one can be set against; '' = compare the lanes of this recording */
  baselines: readonly CompareBaselineChoice[];
  baselineId: string;
  onSelectBaseline(id: string): void;
  onLoadFile(file: File): void;
  onlyDiffering: boolean;
  differingCount: number;
  turnCount: number;
  onSetOnlyDiffering(value: boolean): void;
  changedOnly: boolean;
  /** the message rows the "changed since the previous turn" filter keeps at this turn, of all its rows */
  changedCount: { changed: number; rows: number };
  onSetChangedOnly(value: boolean): void;
}

function BaselinePicker(props: CompareControlsProps) {
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) props.onLoadFile(file);
    event.target.value = '';
  };
  return (
    <div className="compare-controls__group">
      <label className="field field--inline">
        <span className="field__label">Compare</span>
        <select
          className="input"
          value={props.baselineId}
          onChange={(event) => props.onSelectBaseline(event.target.value)}
          data-testid="compare-baseline"
        >
          <option value="">the lanes of this recording</option>
          {props.baselines.map((b) => (
            <option key={b.id} value={b.id}>
              this recording against {b.label}
            </option>
          ))}
        </select>
      </label>
      <label className="button compare-controls__file">
        Load a recording…
        <input type="file" accept=".json,application/json" onChange={onFile} data-testid="compare-file" />
      </label>
    </div>
  );
}

/** Which lanes, against what, the two filters and the keys. */
export function CompareControls(props: CompareControlsProps) {
  return (
    <div className="compare-controls">
      <fieldset className="compare-controls__lanes">
        <legend className="field__label">Lanes</legend>
        {props.lanes.map((lane) => (
          <label key={lane.id} className="checkbox">
            <input type="checkbox" checked={lane.checked} onChange={() => props.onToggleLane(lane.id)} />
            <span className="legend-swatch" style={{ background: lane.color }} aria-hidden="true" />
            <span className="mono">{lane.label}</span>
          </label>
        ))}
      </fieldset>
      <BaselinePicker {...props} />
      <div className="compare-controls__group">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={props.onlyDiffering}
            onChange={(event) => props.onSetOnlyDiffering(event.target.checked)}
            data-testid="only-differing"
          />
          Only turns where lanes differ ({formatCount(props.differingCount)} of {formatCount(props.turnCount)})
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={props.changedOnly}
            onChange={(event) => props.onSetChangedOnly(event.target.checked)}
            data-testid="changed-only"
          />
          Only messages changed since the previous turn ({formatCount(props.changedCount.changed)} of{' '}
          {formatCount(props.changedCount.rows)} at this turn)
        </label>
      </div>
      <span className="muted keyboard-hint">
        <kbd>j</kbd>/<kbd>k</kbd> turn · <kbd>[</kbd>/<kbd>]</kbd> lane
      </span>
    </div>
  );
}
