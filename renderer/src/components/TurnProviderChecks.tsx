import { providerCheckFigures } from '../../../src/view';
import { formatCount } from '../formatQuantities';
import type { TurnRecord } from '../recordingTypes';
import { Tag } from './Tag';
import './TurnProviderChecks.css';

/**
 * Whether the provider overflowed on each attempt that reached it, and which source decided: the provider's
 * recorded usage or error, tiktoken scaled by the session's measured ratio (shown), tiktoken alone, or never
 * (a provider that truncates silently). The figures are src/view's (providerChecks.ts).
 */
export function TurnProviderChecks({ record }: { record: TurnRecord }) {
  const checks = providerCheckFigures(record);
  if (checks.length === 0) return null;
  return (
    <ul className="provider-checks" aria-label="Provider overflow" data-testid="provider-checks">
      {checks.map((c) => (
        <li key={c.attempt} data-testid="provider-check" data-source={c.source} title={c.summary}>
          <span className="muted">Provider{checks.length > 1 ? ` (attempt ${c.attempt + 1})` : ''}:</span>{' '}
          <Tag text={c.verdict} tone={c.overflowed ? 'warn' : 'ok'} />{' '}
          <Tag text={c.sourceLabel} tone="info" testId="provider-check-source" />{' '}
          {c.providerTokens !== null && (
            <>
              <span className="mono">{formatCount(c.providerTokens)}</span>
              <span className="muted"> provider tokens of {formatCount(c.contextWindow)}</span>
            </>
          )}
          {c.ratioText !== null && (
            <span data-testid="provider-check-ratio">
              {' '}
              <span className="muted">= tiktoken</span> <span className="mono">{formatCount(c.tiktokenTokens)}</span>{' '}
              <span className="mono">{c.ratioText}</span>
              <span className="muted">
                {' '}
                (ratio measured on {formatCount(c.measuredTurns ?? 0)} recorded turns of {c.model})
              </span>
            </span>
          )}
          {c.source !== 'scaled' && c.source !== 'tiktoken' && (
            <span className="muted">
              {' '}
              · tiktoken {formatCount(c.tiktokenTokens)} · {c.model}
            </span>
          )}
          {c.recordedError !== null && <span className="muted"> · “{c.recordedError}”</span>}
        </li>
      ))}
    </ul>
  );
}
