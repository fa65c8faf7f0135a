import { compactionCauseLine } from '../../../src/view';
import { formatCount } from '../formatQuantities';
import type { ReplayEvent, TurnRecord } from '../recordingTypes';
import { Tag } from './Tag';
import './TurnEvents.css';

function tokens(value: number | null): string {
  return value === null ? '?' : formatCount(value);
}

type EventOf<T extends ReplayEvent['type']> = Extract<ReplayEvent, { type: T }>;

function CompactionEvent({ event, record }: { event: EventOf<'compaction'>; record?: TurnRecord }) {
  const cause = compactionCauseLine(event, record);
  return (
    <>
      <div>
        <Tag text={`${event.trigger} compaction`} tone={event.compacted ? 'info' : 'warn'} /> by{' '}
        <span className="mono">{event.engineId}</span>:{' '}
        {event.compacted ? (
          <>
            <span className="mono">{tokens(event.tokensBefore)}</span> →{' '}
            <span className="mono">{tokens(event.tokensAfter)}</span> tokens
          </>
        ) : (
          <>not compacted{event.reason ? ` (${event.reason})` : ''}</>
        )}
        {event.firstKeptEntryId && (
          <>
            {' '}
            · first kept <span className="mono">{event.firstKeptEntryId}</span>
          </>
        )}
        {event.error && <div className="event__error">{event.error}</div>}
      </div>
      {cause && (
        <div className="event__cause" data-testid="compaction-cause">
          why: {cause}
        </div>
      )}
      {event.summary && (
        <details className="event__details">
          <summary>Summary ({formatCount(event.summary.length)} characters)</summary>
          <pre className="message-full">{event.summary}</pre>
        </details>
      )}
    </>
  );
}

function SubagentSpawnEvent({ event }: { event: EventOf<'subagentSpawn'> }) {
  return (
    <div>
      <Tag text="spawn" tone={event.error ? 'warn' : 'info'} /> subagent{' '}
      <span className="mono">{event.childSessionKey ?? event.toolCallId}</span> · {event.contextMode}
      {event.lightContext ? ' · light context' : ''} ·{' '}
      {event.prepared
        ? 'prepareSubagentSpawn called'
        : `not prepared${event.skippedReason ? ` (${event.skippedReason})` : ''}`}
      {event.childLane && (
        <>
          {' '}
          · lane <span className="mono">{event.childLane}</span>
        </>
      )}
      {event.error && <div className="event__error">{event.error}</div>}
    </div>
  );
}

function EventBody({ event, record }: { event: ReplayEvent; record?: TurnRecord }) {
  switch (event.type) {
    case 'compaction':
      return <CompactionEvent event={event} {...(record ? { record } : {})} />;
    case 'quarantine':
      return (
        <div>
          <Tag text="quarantine" tone="bad" /> engine <span className="mono">{event.engineId}</span>
          {event.owner && <span className="muted"> ({event.owner})</span>} failed in{' '}
          <span className="mono">{event.operation}</span>: <span className="event__reason">{event.reason}</span>. The
          lane continues on legacy.
        </div>
      );
    case 'subagentSpawn':
      return <SubagentSpawnEvent event={event} />;
    case 'subagentRollback':
      return (
        <div>
          <Tag text="rollback" tone={event.ok ? 'info' : 'warn'} /> subagent{' '}
          <span className="mono">{event.childSessionKey ?? '?'}</span>
          {event.error && <div className="event__error">{event.error}</div>}
        </div>
      );
    case 'subagentEnded':
      return (
        <div>
          <Tag text="subagent ended" tone={event.ok ? 'info' : 'warn'} />{' '}
          <span className="mono">{event.childSessionKey}</span> · {event.reason}
          {event.error && <div className="event__error">{event.error}</div>}
        </div>
      );
    case 'hostRequirement':
      return (
        <div>
          <Tag text="host unsupported" tone="bad" /> {event.message}
        </div>
      );
    case 'warning':
      return (
        <div>
          <Tag text="warning" tone="warn" /> {event.message}
        </div>
      );
  }
}

/** The events of one turn, in order, each with its details (a compaction's cause, its summary collapsed). */
export function TurnEvents({ events, record }: { events: readonly ReplayEvent[]; record?: TurnRecord }) {
  if (events.length === 0) return <p className="muted">No events in this turn.</p>;
  return (
    <ol className="events" data-testid="turn-events">
      {events.map((event) => (
        <li key={event.seq} className={`event event--${event.type}`}>
          <EventBody event={event} {...(record ? { record } : {})} />
        </li>
      ))}
    </ol>
  );
}
