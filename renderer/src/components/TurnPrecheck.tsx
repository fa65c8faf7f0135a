import { formatCount } from '../formatQuantities';
import type { TurnRecord } from '../recordingTypes';
import { Fact } from './Fact';
import { Tag } from './Tag';
import { TurnProviderChecks } from './TurnProviderChecks';

/**
 * The turn's precheck: its route and the figures it decided on, or why it did not run; then whether the provider
 * overflowed and which source decided.
 */
export function TurnPrecheck({ record }: { record: TurnRecord }) {
  const p = record.precheck;
  if (p.skipped) {
    return (
      <>
        <p>
          <Tag text="skipped" tone="muted" /> {p.skipReason ?? 'the precheck did not run'}
        </p>
        <TurnProviderChecks record={record} />
      </>
    );
  }
  return (
    <>
      <PrecheckFacts record={record} />
      <TurnProviderChecks record={record} />
    </>
  );
}

function PrecheckFacts({ record }: { record: TurnRecord }) {
  const p = record.precheck;
  return (
    <dl className="facts facts--compact">
      <Fact label="Route">
        <Tag text={p.route} tone={p.route === 'fits' ? 'ok' : 'warn'} />
        {p.shouldCompact && <span className="muted"> · compaction required</span>}
      </Fact>
      <Fact label="Estimated">
        <span className="mono">{formatCount(p.estimatedTokens)}</span>{' '}
        <span className="muted">({p.pressureSource})</span>
      </Fact>
      <Fact label="Budget before reserve">
        <span className="mono">{formatCount(p.promptBudgetBeforeReserve)}</span>
      </Fact>
      <Fact label="Effective reserve">
        <span className="mono">{formatCount(p.effectiveReserveTokens)}</span>
      </Fact>
      <Fact label="Overflow">
        <span className="mono">{formatCount(p.overflowTokens)}</span>
      </Fact>
      <Fact label="Reducible tool output">
        <span className="mono">{formatCount(p.reducibleToolResultChars)}</span> chars
      </Fact>
    </dl>
  );
}
