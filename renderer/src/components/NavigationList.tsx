import './NavigationList.css';

export interface NavigationEntry {
  id: string;
  label: string;
  available: boolean;
}

export interface NavigationListProps {
  entries: readonly NavigationEntry[];
  activeId: string;
  onSelect(id: string): void;
}

export function NavigationList({ entries, activeId, onSelect }: NavigationListProps) {
  return (
    <nav className="nav" aria-label="Sections">
      <ul className="nav__list">
        {entries.map((entry) => (
          <li key={entry.id}>
            <button
              type="button"
              className={`nav__item${entry.id === activeId ? ' nav__item--active' : ''}`}
              aria-current={entry.id === activeId ? 'page' : undefined}
              disabled={!entry.available}
              onClick={() => onSelect(entry.id)}
            >
              <span>{entry.label}</span>
              {!entry.available && <span className="nav__soon">coming soon</span>}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
