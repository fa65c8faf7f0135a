import type { ConfigPreviewInfo } from '../../../src/bridge/methods';
import { formatPath, formatValue } from '../model/configDraft';
import { ConfigDiff } from './ConfigDiff';
import './ConfigPendingChanges.css';

export interface ConfigPendingChangesProps {
  preview: ConfigPreviewInfo | null;
  previewError: string | null;
  /** settings changed in the draft (0: nothing pending) */
  count: number;
  saving: boolean;
  onSave(): void;
  onDiscard(): void;
}

/** What is about to be saved: path-level from → to, what else it does, the file's text diff; Save / Discard. */
export function ConfigPendingChanges({
  preview,
  previewError,
  count,
  saving,
  onSave,
  onDiscard,
}: ConfigPendingChangesProps) {
  if (count === 0) return null;
  const blocked = !preview || !preview.ok || preview.stale || !!preview.refused || !preview.changed;
  const why = !preview
    ? 'working out the change…'
    : preview.refused
      ? preview.refused
      : preview.stale
        ? 'the file changed on disk since it was read: reload it first'
        : !preview.ok
          ? 'the result does not validate (see below); nothing can be saved until it does'
          : '';
  return (
    <section className="card config-pending" aria-label="Pending changes" data-testid="config-pending">
      <header className="config-pending__header">
        <h2 className="card__title">Pending changes ({preview?.changes.length ?? count})</h2>
        <div className="config-pending__actions">
          <button type="button" className="button" onClick={onDiscard} disabled={saving}>
            Discard
          </button>
          <button
            type="button"
            className="button button--primary"
            onClick={onSave}
            disabled={blocked || saving}
            title="Ctrl+S"
          >
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </header>
      {previewError && <p className="config-pending__why">Could not preview: {previewError}</p>}
      {why && (
        <p className="config-pending__why" data-testid="config-pending-why">
          {why}
        </p>
      )}
      {preview && preview.changes.length > 0 && (
        <table className="table config-pending__table" data-testid="config-changes">
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
            </tr>
          </thead>
          <tbody>
            {preview.changes.map((change) => (
              <tr key={change.path.join('\u0000')} data-testid="config-change">
                <td className="mono">{formatPath(change.path)}</td>
                <td className="mono config-pending__from">{formatValue(change.from)}</td>
                <td className="mono config-pending__to">{formatValue(change.to)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {preview && preview.notes.length > 0 && (
        <ul className="config-pending__notes">
          {preview.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {preview?.diff && (
        <details className="config-pending__diff" open>
          <summary>Text diff of {preview.path}</summary>
          <ConfigDiff diff={preview.diff} label="Text diff of the file" />
        </details>
      )}
    </section>
  );
}
