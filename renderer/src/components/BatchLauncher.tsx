import { Notice } from './Notice';

export interface BatchLauncherProps {
  /** sessions a batch would replay (top-level, not archived) */
  sessionCount: number;
  busy: boolean;
  disabled: boolean;
  problem: string | null;
  onStart(): void;
}

/** The button that replays every listed session with the form's lanes and settings. */
export function BatchLauncher({ sessionCount, busy, disabled, problem, onStart }: BatchLauncherProps) {
  return (
    <section className="card" aria-label="Replay all sessions">
      <h2 className="card__title">All sessions</h2>
      <p className="muted">
        The lanes and settings above, over every session of this folder ({sessionCount}) on a worker pool: a row per
        session with tokens saved against legacy.
      </p>
      <div className="run-status__actions">
        <button type="button" className="button" disabled={disabled || busy || sessionCount === 0} onClick={onStart}>
          {busy ? 'Replaying all sessions…' : 'Replay all sessions…'}
        </button>
      </div>
      {problem && <Notice tone="error">{problem}</Notice>}
    </section>
  );
}
