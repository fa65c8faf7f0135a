import { formatCount } from '../formatQuantities';
import './TimelineNoMatch.css';

export interface TimelineNoMatchProps {
  /** what the filters ask of a turn, one phrase each (timelineFilterConditions) */
  conditions: readonly string[];
  /** turns in the recording */
  total: number;
  onClear(): void;
}

/** In place of the timeline when its filters keep out every turn: which filters, and a way to clear them. */
export function TimelineNoMatch({ conditions, total, onClear }: TimelineNoMatchProps) {
  return (
    <div className="timeline-no-match" role="status" data-testid="timeline-no-match">
      <p>
        No turn of {formatCount(total)} has {conditions.join(' and ')}.
      </p>
      <button type="button" className="button" onClick={onClear}>
        Clear the filters
      </button>
    </div>
  );
}
