import { useState } from 'react';
import './StateDirForm.css';

export interface StateDirFormProps {
  /** the folder listed now ('' before the first load) */
  stateDir: string;
  loading: boolean;
  disabled: boolean;
  /** `undefined`: the bundled demo sessions */
  onLoad(stateDir: string | undefined): void;
}

/** Which folder of sessions to list: an OpenClaw state dir, a folder of transcripts, or the bundled demo. */
export function StateDirForm({ stateDir, loading, disabled, onLoad }: StateDirFormProps) {
  const [input, setInput] = useState('');
  return (
    <form
      className="state-dir"
      aria-label="Session folder"
      onSubmit={(event) => {
        event.preventDefault();
        onLoad(input.trim() || undefined);
      }}
    >
      <label className="field field--wide">
        <span className="field__label">
          OpenClaw state dir or folder of transcripts (empty: the bundled demo sessions)
        </span>
        <input
          className="input mono"
          value={input}
          placeholder={stateDir || 'bundled demo sessions'}
          onChange={(event) => setInput(event.target.value)}
        />
      </label>
      <button type="submit" className="button" disabled={disabled || loading}>
        {loading ? 'Loading…' : 'Load'}
      </button>
    </form>
  );
}
