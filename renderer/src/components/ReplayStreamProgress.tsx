import { replayRateText } from '../../../src/view';
import type { Recording } from '../recordingTypes';
import type { ReplayJobView } from '../store/replayTypes';
import './Notice.css';
import './ReplayStreamProgress.css';

/** "12.5 turns/s · about 40 s left" for a run's pace (null until it is measured: src/view/replayRate.ts). */
export function paceText(run: Pick<ReplayJobView, 'done' | 'total' | 'pace'>): string | null {
  return run.pace ? replayRateText(run.pace.first, run.pace.last, run.total) : null;
}

export interface ReplayStreamProgressProps {
  /** the replay still running (its turns are shown as they arrive) */
  running?: Pick<ReplayJobView, 'done' | 'total' | 'pace'> & { onCancel(): void };
  partial?: Recording['partial'];
}

/** Above a streaming replay: how far it is and Cancel; for a cancelled replay's recording: that it is partial. */
export function ReplayStreamProgress({ running, partial }: ReplayStreamProgressProps) {
  if (running) {
    const rate = paceText(running);
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
