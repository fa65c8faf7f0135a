/** A session the panel offers: its file and what the person reads. */
export interface ListedSessionRow {
  file: string;
  label: string;
}

export interface ConfigTryPanelProps {
  sessions: readonly ListedSessionRow[];
  selectedFile: string | null;
  status: 'idle' | 'preparing' | 'started' | 'failed';
  notes: readonly string[];
  error: string | null;
  /** why it cannot run now (nothing changed, the result does not validate), or null */
  blocked: string | null;
  onSelect(file: string): void;
  onTry(): void;
}

/** Try before save: replay a session with the saved and the edited config as two lanes, then compare them. */
export function ConfigTryPanel(props: ConfigTryPanelProps) {
  return (
    <section className="card config-try" aria-label="Try before save" data-testid="config-try">
      <h2 className="card__title">Try before save</h2>
      <p className="muted config-try__lede">
        Replays a recorded session twice — with the saved config and with your edited one — and opens Compare on the two
        lanes, so you see what the model would receive. Nothing is written: the edited plugin config goes to a temporary
        file.
      </p>
      <div className="config-try__row">
        <label className="field config-try__session">
          <span>Session</span>
          <select className="input" value={props.selectedFile ?? ''} onChange={(e) => props.onSelect(e.target.value)}>
            {props.sessions.length === 0 && <option value="">no sessions found</option>}
            {props.sessions.map((s) => (
              <option key={s.file} value={s.file}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button--primary"
          disabled={!!props.blocked || !props.selectedFile || props.status === 'preparing'}
          title={props.blocked ?? undefined}
          onClick={props.onTry}
        >
          {props.status === 'preparing' ? 'Preparing…' : 'Try it as a lane'}
        </button>
      </div>
      {props.blocked && <p className="muted config-try__note">{props.blocked}</p>}
      {props.error && (
        <p className="config-try__error" role="alert">
          {props.error}
        </p>
      )}
      {props.notes.length > 0 && (
        <ul className="config-try__notes">
          {props.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
