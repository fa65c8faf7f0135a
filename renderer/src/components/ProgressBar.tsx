import './ProgressBar.css';

export interface ProgressBarProps {
  done: number;
  /** 0 when not known yet */
  total: number;
  label: string;
  /** what is counted (default lane-turns) */
  unit?: string;
}

export function ProgressBar({ done, total, label, unit = 'lane-turns' }: ProgressBarProps) {
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  return (
    <div className="progress">
      <div
        className="progress__track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total > 0 ? total : undefined}
        aria-valuenow={total > 0 ? Math.min(done, total) : undefined}
      >
        <div className="progress__bar" style={{ width: `${percent}%` }} />
      </div>
      <span className="progress__text mono">
        {total > 0 ? `${Math.min(done, total)} / ${total} ${unit}` : 'starting…'}
      </span>
    </div>
  );
}
