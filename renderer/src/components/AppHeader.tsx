import type { AppInfo } from '../../../src/bridge';
import type { ConnectionState } from '../bridge/InspectorClient';
import type { ThemeChoice } from '../theme';
import { StatusIndicator } from './StatusIndicator';
import { ThemeToggle } from './ThemeToggle';
import './AppHeader.css';

export interface AppHeaderProps {
  info: AppInfo | null;
  connection: ConnectionState;
  connectionProblem: string | null;
  theme: ThemeChoice;
  onChooseTheme(choice: ThemeChoice): void;
  /** opens the keyboard shortcut sheet */
  onShowShortcuts?(): void;
}

export function AppHeader(props: AppHeaderProps) {
  const { info, connection, connectionProblem, theme, onChooseTheme, onShowShortcuts } = props;
  return (
    <header className="app-header">
      <div className="app-header__brand">
        <span className="app-header__logo" aria-hidden="true">
          ◎
        </span>
        <span className="app-header__name">ContextScope</span>
        {info && (
          <span className="badge" data-testid="app-version">
            v{info.version}
          </span>
        )}
      </div>
      <div className="app-header__runtime" aria-label="Runtime status">
        {info && (
          <>
            <span className="app-header__item" data-testid="app-shell">
              {info.shell === 'electron' ? 'Electron' : 'Browser mode'}
            </span>
            <span className="app-header__item" data-testid="runtime-host">
              {info.runtimeHost === 'electron-main' ? 'Electron main' : 'Node'} runtime
            </span>
            <span className="app-header__item" data-testid="node-version">
              Node {info.nodeVersion}
            </span>
          </>
        )}
        <StatusIndicator state={connection} detail={connectionProblem} />
        <ThemeToggle choice={theme} onChoose={onChooseTheme} />
        {onShowShortcuts && (
          <button
            type="button"
            className="app-header__help"
            onClick={onShowShortcuts}
            title="Keyboard shortcuts (?) · command palette (Ctrl/Cmd+K)"
          >
            Shortcuts <kbd>?</kbd>
          </button>
        )}
      </div>
    </header>
  );
}
