import type { ConfigBackupInfo, ConfigReadResponse } from '../../../src/bridge/methods';
import { LazyDetails } from './LazyDetails';

export interface ConfigFilesProps {
  includes: ConfigReadResponse['includes'];
  backups: readonly ConfigBackupInfo[];
  busy: boolean;
  onRestore(backup: ConfigBackupInfo): void;
}

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** The $include files (read-only: ContextScope never writes them) and the backups of recent saves (restore one). */
export function ConfigFiles({ includes, backups, busy, onRestore }: ConfigFilesProps) {
  return (
    <>
      {includes.length > 0 && (
        <section className="card config-files" aria-label="Included files" data-testid="config-includes">
          <h2 className="card__title">$include files (read-only)</h2>
          <p className="muted config-files__lede">
            These files are merged into the config where they are included. ContextScope shows them but never writes
            them: a change to a setting they provide is refused, naming the file.
          </p>
          {includes.map((f) => (
            <LazyDetails
              key={`${f.from}:${f.at}:${f.include}`}
              summary={`${f.at}: ${f.include} → ${f.file}${f.error ? ` (${f.error})` : ''}`}
            >
              <pre className="config-files__text mono">{f.text ?? f.error}</pre>
            </LazyDetails>
          ))}
        </section>
      )}
      <section className="card config-files" aria-label="Recent saves" data-testid="config-backups">
        <h2 className="card__title">Recent saves (undo)</h2>
        {backups.length === 0 ? (
          <p className="muted config-files__lede">No saves yet. Every save keeps the version it replaces here.</p>
        ) : (
          <ul className="config-files__backups">
            {backups.map((b) => (
              <li key={b.file} data-testid="config-backup">
                <span>Before the save of {when(b.savedAt)}</span>
                <span className="muted mono">{b.bytes.toLocaleString()} bytes</span>
                <button type="button" className="button" disabled={busy} onClick={() => onRestore(b)}>
                  Restore this version
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
