import { useState } from 'react';
import './StateDirForm.css';

export type SessionSourceChoice = 'state' | 'demo';

export interface StateDirFormProps {
  /** the state dir the app reads ('' while unknown) and where it came from, in words */
  stateDir: string;
  stateDirOrigin: string;
  /** which list is shown: the state dir's sessions or the bundled demos */
  source: SessionSourceChoice;
  hasDemos: boolean;
  loading: boolean;
  disabled: boolean;
  /** a folder typed by the user (it becomes the state dir every view reads); null: back to the default */
  onChoose(stateDir: string | null): void;
  onShowSource(source: SessionSourceChoice): void;
}

/**
 * Which sessions to list: the app's state dir ($OPENCLAW_STATE_DIR, ~/.openclaw, or a folder chosen here and
 * remembered) or the bundled demo sessions, an entry of their own.
 */
export function StateDirForm(props: StateDirFormProps) {
  const { stateDir, stateDirOrigin, source, hasDemos, loading, disabled, onChoose, onShowSource } = props;
  const [input, setInput] = useState('');
  return (
    <div className="state-dir">
      <div className="state-dir__sources" role="tablist" aria-label="Session source">
        <button
          type="button"
          role="tab"
          aria-selected={source === 'state'}
          className={`state-dir__source${source === 'state' ? ' state-dir__source--active' : ''}`}
          disabled={disabled}
          onClick={() => onShowSource('state')}
        >
          Your sessions <span className="mono muted state-dir__path">{stateDir || '…'}</span>
          {stateDirOrigin && <span className="muted"> ({stateDirOrigin})</span>}
        </button>
        {hasDemos && (
          <button
            type="button"
            role="tab"
            aria-selected={source === 'demo'}
            className={`state-dir__source${source === 'demo' ? ' state-dir__source--active' : ''}`}
            disabled={disabled}
            onClick={() => onShowSource('demo')}
          >
            Bundled demos
          </button>
        )}
      </div>
      <form
        className="state-dir__form"
        aria-label="Session folder"
        onSubmit={(event) => {
          event.preventDefault();
          onChoose(input.trim() || null);
        }}
      >
        <label className="field field--wide">
          <span className="field__label">
            OpenClaw state dir or folder of transcripts (Sessions, Plugins, Doctor and Config read it; empty: back to
            the default)
          </span>
          <input
            className="input mono"
            value={input}
            placeholder={stateDir || '~/.openclaw'}
            onChange={(event) => setInput(event.target.value)}
          />
        </label>
        <button type="submit" className="button" disabled={disabled || loading}>
          {loading ? 'Loading…' : 'Load'}
        </button>
      </form>
    </div>
  );
}
