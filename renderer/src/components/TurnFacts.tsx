import { formatCount } from '../formatQuantities';
import type { TurnRecord } from '../recordingTypes';
import { Fact } from './Fact';
import { Tag } from './Tag';

function EngineFact({ engine }: { engine: TurnRecord['engine'] }) {
  return (
    <Fact label="Engine">
      <span className="mono">{engine.engineId}</span>
      {engine.engineId !== engine.requestedId && (
        <span className="muted">
          {' '}
          (selected <span className="mono">{engine.requestedId}</span>)
        </span>
      )}
      {engine.quarantined && <Tag text="quarantined" tone="bad" />}
      <span className="muted"> · {engine.ownsCompaction ? 'owns compaction' : 'built-in compaction'}</span>
    </Fact>
  );
}

const FINALIZE_TEXT: Record<NonNullable<TurnRecord['turnPath']>['finalize'], string> = {
  afterTurn: 'afterTurn',
  ingestBatch: 'ingestBatch',
  ingest: 'ingest per message',
  commitTurn: 'commitTurn',
  none: 'no finalize call',
};

/** Which path the host took this turn: the configured engine or the legacy fallback, and how it finalized. */
function TurnPathFact({ path }: { path: NonNullable<TurnRecord['turnPath']> }) {
  return (
    <Fact label="Turn path">
      <span data-testid="turn-path">
        {path.engine === 'legacy-fallback' ? (
          <Tag text="ran on legacy" tone="warn" title={path.degradedReason} testId="turn-degraded" />
        ) : (
          <span className="muted">configured engine</span>
        )}
        <span className="muted"> · {FINALIZE_TEXT[path.finalize]}</span>
        {path.commit && (
          <Tag text={path.commit} tone={path.commit === 'committed' || path.commit === 'duplicate' ? 'ok' : 'bad'} />
        )}
        {path.degradedReason && <span className="muted"> · {path.degradedReason}</span>}
      </span>
    </Fact>
  );
}

/** The turn at a glance: engine, turn path, budget inputs, what was assembled, history and attempts. */
export function TurnFacts({ record }: { record: TurnRecord }) {
  return (
    <dl className="facts">
      <EngineFact engine={record.engine} />
      {record.turnPath && <TurnPathFact path={record.turnPath} />}
      <Fact label="Context window">
        <span className="mono">{formatCount(record.budget.contextWindow)}</span>
      </Fact>
      <Fact label="Reserve">
        <span className="mono">{formatCount(record.budget.reserveTokens)}</span>
      </Fact>
      <Fact label="Prompt budget">
        <span className="mono">{formatCount(record.budget.promptBudget)}</span>
      </Fact>
      <Fact label="Token budget passed">
        <span className="mono" data-testid="turn-token-budget">
          {formatCount(record.budget.tokenBudget)}
        </span>
        <span className="muted"> (prompt {formatCount(record.budget.renderedPromptTokens)})</span>
      </Fact>
      <Fact label="Assembled">
        <span className="mono" data-testid="turn-assembled-tokens">
          {formatCount(record.totals.estTokens)}
        </span>{' '}
        est · <span className="mono">{formatCount(record.totals.tiktokenTokens)}</span> tiktoken ·{' '}
        <span className="mono">{record.assembled.length}</span> msgs
      </Fact>
      <Fact label="Engine estimate">
        <span className="mono">{record.estimatedTokens === null ? '—' : formatCount(record.estimatedTokens)}</span>
      </Fact>
      <Fact label="History">
        <span className="mono">{record.historyCount}</span> before the turn ·{' '}
        <span className="mono">{record.inputCount}</span> passed
        {record.pipelineRemoved > 0 && <> · {record.pipelineRemoved} removed by the pipeline</>}
      </Fact>
      <Fact label="Attempts">
        <span className="mono">{record.attempts}</span>
        {!record.assemblySucceeded && <Tag text="assemble failed" tone="bad" />}
      </Fact>
    </dl>
  );
}
