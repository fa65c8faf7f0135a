import './ReplayEmptyState.css';

export interface ReplayEmptyStateProps {
  canReplayDemo: boolean;
  onReplayDemo(): void;
  onChooseSession(): void;
}

/** The Replay view before any replay: what it will show and the two ways to get there. */
export function ReplayEmptyState({ canReplayDemo, onReplayDemo, onChooseSession }: ReplayEmptyStateProps) {
  return (
    <div className="view replay-view">
      <h1 className="view__title">Replay</h1>
      <div className="empty-state">
        <p>
          No replay yet. Replay a session through one or more engines to see, turn by turn, what each one assembled.
        </p>
        <div className="empty-state__actions">
          <button type="button" className="button button--primary" disabled={!canReplayDemo} onClick={onReplayDemo}>
            Replay the demo session
          </button>
          <button type="button" className="button" onClick={onChooseSession}>
            Choose a session
          </button>
        </div>
      </div>
    </div>
  );
}
