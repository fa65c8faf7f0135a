import type { SessionListView } from '../model/sessionRows';
import './SessionFilters.css';

export interface SessionFiltersProps {
  view: SessionListView;
  agents: readonly string[];
  shown: number;
  total: number;
  onChange(patch: Partial<SessionListView>): void;
}

const SORTS: { value: SessionListView['sort']; label: string }[] = [
  { value: 'updated', label: 'last update' },
  { value: 'size', label: 'size' },
  { value: 'agent', label: 'agent' },
  { value: 'turns', label: 'turns' },
];

/** Sort (last update, size, agent, turns) and filter (agent, text) of the Sessions table. */
export function SessionFilters({ view, agents, shown, total, onChange }: SessionFiltersProps) {
  return (
    <div className="session-filters" role="search" aria-label="Filter sessions">
      <label className="session-filters__field">
        <span className="field__label">Search</span>
        <input
          className="input mono"
          type="search"
          placeholder="session key, id or agent"
          value={view.query}
          onChange={(event) => onChange({ query: event.target.value })}
        />
      </label>
      <label className="session-filters__field">
        <span className="field__label">Agent</span>
        <select className="input" value={view.agent} onChange={(event) => onChange({ agent: event.target.value })}>
          <option value="">every agent</option>
          {agents.map((agent) => (
            <option key={agent} value={agent}>
              {agent}
            </option>
          ))}
        </select>
      </label>
      <label className="session-filters__field">
        <span className="field__label">Sort by</span>
        <select
          className="input"
          value={view.sort}
          onChange={(event) => onChange({ sort: event.target.value as SessionListView['sort'] })}
        >
          {SORTS.map((sort) => (
            <option key={sort.value} value={sort.value}>
              {sort.label}
            </option>
          ))}
        </select>
      </label>
      <span className="muted session-filters__count" data-testid="session-count">
        {shown === total ? `${total} sessions` : `${shown} of ${total} sessions`}
      </span>
    </div>
  );
}
