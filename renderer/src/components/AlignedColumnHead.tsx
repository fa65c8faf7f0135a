import type { AlignedColumn } from '../../../src/view';
import { formatCount } from '../formatQuantities';
import { Tag } from './Tag';
import './AlignedColumnHead.css';

export interface AlignedColumnHeadProps {
  column: AlignedColumn;
  color: string;
  turn: number;
  selected: boolean;
  onSelect(): void;
}

function deltaText(column: AlignedColumn, turn: number): string {
  const d = column.delta;
  if (!d.hasPrevious) return 'first turn of the lane';
  const prefix =
    d.firstDivergence === null ? 'prefix kept (cache-friendly)' : `prefix breaks at #${d.firstDivergence + 1}`;
  return `+${d.added} −${d.removed} ~${d.changed} since turn ${turn} · ${prefix}${d.systemPromptAdditionChanged ? ' · system prompt addition changed' : ''}`;
}

/** One lane's column head: label, total against its budget, change since its last turn, system prompt addition, quarantine. */
export function AlignedColumnHead({ column, color, turn, selected, onSelect }: AlignedColumnHeadProps) {
  const record = column.record;
  const lane = column.column;
  return (
    <div
      role="columnheader"
      className={`aligned-head${selected ? ' aligned-head--selected' : ''}`}
      data-testid="aligned-head"
      data-column={lane.id}
    >
      <button type="button" className="aligned-head__label" onClick={onSelect} aria-pressed={selected}>
        <span className="legend-swatch" style={{ background: color }} aria-hidden="true" />
        <span className="mono">{lane.side ? lane.lane.label : lane.label}</span>
        {lane.side && <Tag tone={lane.side === 'new' ? 'info' : 'muted'} text={lane.side} />}
      </button>
      {record ? (
        <>
          <div className="aligned-head__figures mono" data-testid="aligned-head-tokens">
            {formatCount(record.totals.tiktokenTokens)} / {formatCount(record.budget.tokenBudget)}
            <span className="muted"> tokens · {record.assembled.length} sent</span>
          </div>
          <div className="aligned-head__delta muted" title="change since this lane's previous turn">
            {deltaText(column, turn)}
          </div>
          {record.systemPromptAddition ? (
            <details className="aligned-head__spa">
              <summary>System prompt addition ({formatCount(record.systemPromptAddition.length)} chars)</summary>
              <pre>{record.systemPromptAddition}</pre>
            </details>
          ) : (
            <div className="aligned-head__spa muted">no system prompt addition</div>
          )}
        </>
      ) : (
        <div className="aligned-head__figures muted">no turn {turn + 1} in this lane</div>
      )}
      {column.quarantine && (
        <div className="aligned-head__quarantine" role="note" data-testid="quarantine-banner">
          <span aria-hidden="true">⚠ </span>
          <strong>Quarantined.</strong> {column.quarantine.text}
        </div>
      )}
    </div>
  );
}
