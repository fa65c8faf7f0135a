import type { Recording } from '../recordingTypes';
import './Notice.css';
import './ReplayStreamProgress.css';

/** "12.5 turns/s · about 40 s left" from lane-turns done of total after elapsedMs (null before the first turn). */
export function replayRateText(done: number, total: number, elapsedMs: number | undefined): string | null {
  if (!elapsedMs || done === 0) return null;
  const perSecond = done / (elapsedMs / 1000);
  const leftSeconds = Math.max(0, (total - done) / perSecond);
  const left = leftSeconds < 90 ? `${Math.ceil(leftSeconds)} s` : `${Math.ceil(leftSeconds / 60)} min`;
  return `${perSecond.toFixed(perSecond < 10 ? 1 : 0)} turns/s · about ${left} left`;
}

export interface ReplayStreamProgressProps {
  /** the replay still running (its turns are shown as they arrive) */
  running?: { done: number; total: number; elapsedMs?: number; onCancel(): void };
  partial?: Recording['partial'];
}

/** Above a streaming replay: how far it is and Cancel; for a cancelled replay's recording: that it is partial. */
export function ReplayStreamProgress({ running, partial }: ReplayStreamProgressProps) {
  if (running) {
    const rate = replayRateText(running.done, running.total, running.elapsedMs);
    return (
      <div
        className="notice notice--info replay-stream"
        role="status"
        data-testid="replay-streaming"
        title="Finished turns can be opened now."
      >
        {/* first, so it stays put while the text beside it changes */}
        <button type="button" className="button" onClick={running.onCancel}>
          Cancel
        </button>{' '}
        <span>
          Replaying: {running.done.toLocaleString()} of {running.total.toLocaleString()} lane-turns
          {rate ? ` · ${rate}` : ''}
        </span>
      </div>
    );
  }
  if (!partial) return null;
  return (
    <div className="notice notice--info" role="note" data-testid="replay-partial">
      Partial recording: the replay was cancelled after {partial.done.toLocaleString()} of{' '}
      {partial.total.toLocaleString()} lane-turns.
    </div>
  );
}
