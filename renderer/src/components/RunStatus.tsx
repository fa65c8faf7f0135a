import type { ReplayJobView } from '../store/replayStore';
import { Notice } from './Notice';
import { ProgressBar } from './ProgressBar';
import { paceText } from './ReplayStreamProgress';
import { formatCount } from '../formatQuantities';
import './RunStatus.css';

export interface RunStatusProps {
  run: ReplayJobView;
  onCancel(): void;
  onOpen(): void;
}

/** The running (or last) replay: progress per lane, cancel, and what went wrong. */
export function RunStatus({ run, onCancel, onOpen }: RunStatusProps) {
  const active = run.status === 'starting' || run.status === 'running';
  return (
    <section className="card run-status" aria-label="Replay progress" data-testid="run-status" data-status={run.status}>
      <h2 className="card__title">
        {active
          ? 'Replaying'
          : run.status === 'done'
            ? 'Replay finished'
            : run.status === 'cancelled'
              ? 'Replay cancelled'
              : 'Replay failed'}
        <span className="run-status__session mono">{run.sessionTitle}</span>
      </h2>
      <ProgressBar done={run.done} total={run.total} label={`Replay of ${run.sessionTitle}`} />
      {active && paceText(run) && (
        <p className="mono" data-testid="run-rate">
          {paceText(run)}
        </p>
      )}
      {Object.keys(run.lanes).length > 0 && (
        <ul className="run-status__lanes">
          {Object.entries(run.lanes).map(([lane, progress]) => (
            <li key={lane} className="mono">
              {lane}: turn {formatCount(progress.turn)} of {formatCount(progress.total)}
            </li>
          ))}
        </ul>
      )}
      {run.error && <Notice tone="error">{run.error}</Notice>}
      <div className="run-status__actions">
        {active && (
          <button type="button" className="button" onClick={onCancel} disabled={run.replayId === null}>
            Cancel
          </button>
        )}
        {run.status === 'done' && (
          <button type="button" className="button button--primary" onClick={onOpen}>
            Open replay
          </button>
        )}
      </div>
    </section>
  );
}
