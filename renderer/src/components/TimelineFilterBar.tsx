import { TIMELINE_EVENT_CHOICES, type TimelineFilter } from '../model/timelineFilter';
import { formatCount } from '../formatQuantities';
import './TimelineFilterBar.css';

export interface TimelineFilterBarProps {
  filter: TimelineFilter;
  roles: readonly string[];
  shown: number;
  total: number;
  onChange(patch: Partial<TimelineFilter>): void;
  onClear(): void;
}

/** Search the turns' messages (text, role) and keep only turns with an event of one kind. */
export function TimelineFilterBar({ filter, roles, shown, total, onChange, onClear }: TimelineFilterBarProps) {
  const filtering = filter.text !== '' || filter.role !== '' || filter.event !== '';
  return (
    <div className="timeline-filter" role="search" aria-label="Search the timeline">
      <input
        className="input timeline-filter__text"
        type="search"
        aria-label="Find text in the turns' messages"
        placeholder="Find in messages…"
        value={filter.text}
        onChange={(event) => onChange({ text: event.target.value })}
      />
      <select
        className="input"
        aria-label="Role"
        value={filter.role}
        onChange={(event) => onChange({ role: event.target.value })}
      >
        <option value="">any role</option>
        {roles.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
      <select
        className="input"
        aria-label="Event"
        value={filter.event}
        onChange={(event) => onChange({ event: event.target.value as TimelineFilter['event'] })}
      >
        {TIMELINE_EVENT_CHOICES.map((e) => (
          <option key={e.value} value={e.value} title={e.title}>
            {e.label}
          </option>
        ))}
      </select>
      {filtering && (
        <>
          <span className="muted timeline-filter__count" data-testid="timeline-filter-count">
            {formatCount(shown)} of {formatCount(total)} turns
          </span>
          <button type="button" className="button--link" onClick={onClear}>
            clear
          </button>
        </>
      )}
    </div>
  );
}
