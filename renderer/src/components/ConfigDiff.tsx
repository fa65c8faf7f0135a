import './ConfigPendingChanges.css';

export interface ConfigDiffProps {
  /** a unified diff */
  diff: string;
  label: string;
}

/** A unified diff with added and removed lines marked (the file headers left out). */
export function ConfigDiff({ diff, label }: ConfigDiffProps) {
  const lines = diff.split('\n').filter((line, i) => !(i < 4 && /^(Index:|====|---|\+\+\+)/.test(line)));
  return (
    <pre className="config-diff" aria-label={label} data-testid="config-diff">
      {lines.map((line, i) => {
        const kind = line.startsWith('@@')
          ? 'hunk'
          : line.startsWith('+')
            ? 'add'
            : line.startsWith('-')
              ? 'del'
              : 'ctx';
        return (
          <span key={i} className={`config-diff__line config-diff__line--${kind}`}>
            {line || ' '}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}
