import type { ReactNode } from 'react';
import { formatCount, formatMs } from '../formatQuantities';
import type { TurnDetail } from '../model/turnDetail';
import type { TurnRecord } from '../recordingTypes';
import { LazyDetails } from './LazyDetails';
import { MessageTable } from './MessageTable';
import { Tag } from './Tag';
import type { TimelineLane } from './TimelineTable';
import { TurnEvents } from './TurnEvents';

export interface TurnViewProps {
  detail: TurnDetail;
  turnCount: number;
  /** the turn's user prompt, one line */
  prompt: string;
  lanes: readonly TimelineLane[];
  onSelectLane(laneId: string): void;
  expanded: Readonly<Record<string, true>>;
  onToggle(id: string): void;
}

const STATUS_TONE: Record<TurnRecord['status'], 'ok' | 'bad'> = {
  ok: 'ok',
  prompt_error: 'bad',
  aborted: 'bad',
  host_unsupported: 'bad',
};

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Section({
  title,
  count,
  children,
  testId,
}: {
  title: string;
  count?: number;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className="turn-section" data-testid={testId}>
      <h3 className="turn-section__title">
        {title}
        {count !== undefined && <span className="turn-section__count mono">{count}</span>}
      </h3>
      {children}
    </section>
  );
}

function Precheck({ record }: { record: TurnRecord }) {
  const p = record.precheck;
  if (p.skipped) {
    return (
      <p>
        <Tag text="skipped" tone="muted" /> {p.skipReason ?? 'the precheck did not run'}
      </p>
    );
  }
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

function EngineCalls({ record }: { record: TurnRecord }) {
  if (record.calls.length === 0) return <p className="muted">No engine calls in this turn.</p>;
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Engine calls">
        <thead>
          <tr>
            <th scope="col">Method</th>
            <th scope="col" className="num">
              Attempt
            </th>
            <th scope="col" className="num">
              Started
            </th>
            <th scope="col" className="num">
              Duration
            </th>
            <th scope="col">Outcome</th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {record.calls.map((call, i) => (
            <tr key={i} data-testid="engine-call">
              <td className="mono">{call.method}</td>
              <td className="num mono">{call.attempt + 1}</td>
              <td className="num mono">+{formatMs(call.startedAtMs)}</td>
              <td className="num mono">{formatMs(call.durationMs)}</td>
              <td>
                <Tag text={call.outcome} tone={call.outcome === 'ok' ? 'ok' : 'bad'} />
                {call.fellBack && <Tag text="legacy fallback" tone="warn" />}
              </td>
              <td className="wrap">{call.error ?? call.note ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One lane's turn: budget, what was assembled (with provenance), what was left out, and why. */
export function TurnView({ detail, turnCount, prompt, lanes, onSelectLane, expanded, onToggle }: TurnViewProps) {
  const { record, lane } = detail;
  const leftOut = detail.summarized.length + detail.dropped.length;
  return (
    <article
      className="card turn-view"
      aria-label={`Turn ${record.turn + 1}, lane ${lane.label}`}
      data-testid="turn-view"
    >
      <header className="turn-view__header">
        <h2 className="turn-view__title">
          Turn {record.turn + 1} <span className="muted">of {turnCount}</span>
        </h2>
        <div className="tabs" role="tablist" aria-label="Lane">
          {lanes.map((l) => (
            <button
              key={l.id}
              type="button"
              role="tab"
              aria-selected={l.id === lane.id}
              className={`tab${l.id === lane.id ? ' tab--active' : ''}`}
              onClick={() => onSelectLane(l.id)}
            >
              <span className="legend-swatch" style={{ background: l.color }} aria-hidden="true" />
              <span className="mono">{l.label}</span>
            </button>
          ))}
        </div>
        <Tag
          text={record.status.replace('_', ' ')}
          tone={STATUS_TONE[record.status]}
          title={record.error}
          testId="turn-status"
        />
      </header>
      {prompt && (
        <p className="turn-view__prompt">
          <span className="muted">User:</span> {prompt}
        </p>
      )}
      {record.error && <p className="turn-view__error">{record.error}</p>}

      <dl className="facts">
        <Fact label="Engine">
          <span className="mono">{record.engine.engineId}</span>
          {record.engine.engineId !== record.engine.requestedId && (
            <span className="muted">
              {' '}
              (selected <span className="mono">{record.engine.requestedId}</span>)
            </span>
          )}
          {record.engine.quarantined && <Tag text="quarantined" tone="bad" />}
          <span className="muted"> · {record.engine.ownsCompaction ? 'owns compaction' : 'built-in compaction'}</span>
        </Fact>
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

      <Section title="Assembled context" count={detail.assembled.length} testId="assembled-section">
        {detail.assembled.length === 0 ? (
          <p className="muted">The engine assembled no messages (the first turn has no history).</p>
        ) : (
          <MessageTable
            listId="assembled"
            label="Assembled messages"
            rows={detail.assembled}
            showProvenance
            expanded={expanded}
            onToggle={onToggle}
          />
        )}
      </Section>

      <Section title="Left out of the context" count={leftOut} testId="left-out-section">
        {leftOut === 0 ? (
          <p className="muted">Nothing left out: every transcript message before this turn is in the context.</p>
        ) : (
          <>
            {detail.summarized.length > 0 && (
              <LazyDetails
                className="left-out"
                summary={
                  <>
                    Summarized <span className="mono">{detail.summarized.length}</span>
                  </>
                }
              >
                <MessageTable
                  listId="summarized"
                  label="Summarized messages"
                  rows={detail.summarized}
                  showProvenance={false}
                  expanded={expanded}
                  onToggle={onToggle}
                />
              </LazyDetails>
            )}
            {detail.dropped.length > 0 && (
              <LazyDetails
                className="left-out"
                summary={
                  <>
                    Dropped <span className="mono">{detail.dropped.length}</span>
                  </>
                }
              >
                <MessageTable
                  listId="dropped"
                  label="Dropped messages"
                  rows={detail.dropped}
                  showProvenance={false}
                  expanded={expanded}
                  onToggle={onToggle}
                />
              </LazyDetails>
            )}
          </>
        )}
      </Section>

      <Section title="System prompt addition">
        {record.systemPromptAddition ? (
          <pre className="message-full">{record.systemPromptAddition}</pre>
        ) : (
          <p className="muted">None.</p>
        )}
        {record.promptAuthority && (
          <p>
            Prompt authority: <span className="mono">{record.promptAuthority}</span>
          </p>
        )}
      </Section>

      <Section title="Precheck">
        <Precheck record={record} />
      </Section>

      <Section title="Engine calls" count={record.calls.length}>
        <EngineCalls record={record} />
      </Section>

      <Section title="Events" count={record.events.length}>
        <TurnEvents events={record.events} />
      </Section>

      {detail.findings.length > 0 && (
        <Section title="Findings" count={detail.findings.length} testId="turn-findings">
          <ul className="findings">
            {detail.findings.map((finding, i) => (
              <li key={i}>
                <Tag
                  text={finding.severity}
                  tone={finding.severity === 'error' ? 'bad' : finding.severity === 'warning' ? 'warn' : 'info'}
                />{' '}
                <span className="mono">{finding.code}</span> {finding.message}
              </li>
            ))}
          </ul>
        </Section>
      )}

      <Section title="Recorded output appended" count={detail.newMessages.length}>
        <LazyDetails className="left-out" summary="What this turn added to the transcript">
          <MessageTable
            listId="new"
            label="Appended messages"
            rows={detail.newMessages}
            showProvenance={false}
            expanded={expanded}
            onToggle={onToggle}
          />
        </LazyDetails>
      </Section>
    </article>
  );
}
