import type { ConfigIssueInfo } from '../../../src/bridge/methods';
import './ConfigRawEditor.css';

export interface ConfigRawEditorProps {
  path: string;
  text: string;
  /** the live validation of `text` (from config.preview) */
  issues: readonly ConfigIssueInfo[];
  checking: boolean;
  onChange(text: string): void;
  onClose?: () => void;
}

/** openclaw.json as text (JSON5), validated as you type; for what the forms cannot show. */
export function ConfigRawEditor({ path, text, issues, checking, onChange, onClose }: ConfigRawEditorProps) {
  const syntax = issues.find((i) => i.code === 'syntax');
  const errors = issues.filter((i) => i.severity === 'error');
  const lines = text.split('\n').length;
  return (
    <section className="card config-raw" aria-label="Edit openclaw.json as text" data-testid="config-raw">
      <header className="config-raw__header">
        <h2 className="card__title">{path} as text</h2>
        {onClose && (
          <button type="button" className="button" onClick={onClose}>
            Back to the forms
          </button>
        )}
      </header>
      <textarea
        className="input mono config-raw__text"
        aria-label="openclaw.json text"
        spellCheck={false}
        value={text}
        rows={Math.min(Math.max(lines + 1, 12), 40)}
        onChange={(e) => onChange(e.target.value)}
      />
      <p
        className={`config-raw__status${errors.length ? ' config-raw__status--bad' : ''}`}
        role="status"
        data-testid="config-raw-status"
      >
        {checking
          ? 'checking…'
          : syntax
            ? `Not valid JSON5 at line ${syntax.line}, column ${syntax.column}: ${syntax.message.replace(/^not valid JSON5 at line \d+, column \d+: /, '')}`
            : errors.length
              ? `${errors.length} validation error${errors.length === 1 ? '' : 's'} (listed below)`
              : 'Valid JSON5; OpenClaw would accept it.'}
      </p>
    </section>
  );
}
