import { useEffect, useMemo, useRef, useState } from 'react';
import { filterCommands, type PaletteCommand } from '../model/paletteCommands';
import { Overlay } from './Overlay';
import './CommandPalette.css';

export interface CommandPaletteProps {
  commands: readonly PaletteCommand[];
  onClose(): void;
}

/** Type to filter views, lanes, turns and actions; ↑/↓ choose, Enter runs, Escape closes. */
export function CommandPalette({ commands, onClose }: CommandPaletteProps) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const shown = useMemo(() => filterCommands(commands, query), [commands, query]);
  const current = Math.min(active, Math.max(0, shown.length - 1));

  useEffect(() => {
    input.current?.focus();
  }, []);
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView?.({ block: 'nearest' });
  }, [current, shown]);

  const run = (command: PaletteCommand | undefined) => {
    if (!command) return;
    onClose();
    command.run();
  };

  return (
    <Overlay label="Command palette" onClose={onClose} placement="top" testId="command-palette">
      <input
        ref={input}
        className="palette__input"
        role="combobox"
        aria-expanded="true"
        aria-controls="palette-list"
        aria-activedescendant={shown[current] ? `palette-${current}` : undefined}
        aria-label="Command"
        placeholder="Go to a view, lane or turn, or run an action…"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            const step = event.key === 'ArrowDown' ? 1 : -1;
            setActive((current + step + shown.length) % Math.max(1, shown.length));
          } else if (event.key === 'Enter') {
            event.preventDefault();
            run(shown[current]);
          }
        }}
      />
      <ul ref={list} id="palette-list" className="palette__list" role="listbox" aria-label="Commands">
        {shown.map((command, i) => (
          <li
            key={command.id}
            id={`palette-${i}`}
            role="option"
            aria-selected={i === current}
            className={`palette__item${i === current ? ' palette__item--active' : ''}`}
            data-testid="palette-item"
            onMouseMove={() => i !== current && setActive(i)}
            onClick={() => run(command)}
          >
            <span className="palette__group">{command.group}</span>
            <span className="palette__label">
              {command.label}
              {command.detail && <span className="palette__detail">{command.detail}</span>}
            </span>
            {command.hint && <kbd className="palette__hint">{command.hint}</kbd>}
          </li>
        ))}
        {shown.length === 0 && <li className="palette__empty muted">Nothing matches “{query}”.</li>}
      </ul>
    </Overlay>
  );
}
