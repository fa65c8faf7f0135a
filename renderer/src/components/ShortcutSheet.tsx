import { keyLabel, type ShortcutScope, type Shortcut } from '../shortcuts';
import { Overlay } from './Overlay';
import './ShortcutSheet.css';

export interface ShortcutSheetProps {
  groups: readonly { scope: ShortcutScope; shortcuts: readonly Shortcut[] }[];
  onClose(): void;
}

/** Every keyboard shortcut of the app (the table in shortcuts.ts), grouped by where it works. */
export function ShortcutSheet({ groups, onClose }: ShortcutSheetProps) {
  return (
    <Overlay label="Keyboard shortcuts" onClose={onClose} testId="shortcut-sheet">
      <header className="shortcut-sheet__header">
        <h2 className="shortcut-sheet__title">Keyboard shortcuts</h2>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </header>
      <div className="shortcut-sheet__body">
        {groups.map((group) => (
          <section key={group.scope} className="shortcut-sheet__group" aria-label={group.scope}>
            <h3 className="shortcut-sheet__scope">{group.scope}</h3>
            <dl className="shortcut-sheet__list">
              {group.shortcuts.map((shortcut) => (
                <div key={shortcut.id} className="shortcut-sheet__row" data-testid="shortcut-row">
                  <dt className="shortcut-sheet__keys">
                    {shortcut.keys.map((key, i) => (
                      <span key={key}>
                        {i > 0 && <span className="muted"> or </span>}
                        <kbd>{keyLabel(key)}</kbd>
                      </span>
                    ))}
                  </dt>
                  <dd className="shortcut-sheet__what">{shortcut.description}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Overlay>
  );
}
