import { formatMs } from '../formatQuantities';
import type { TurnRecord } from '../recordingTypes';
import { Tag } from './Tag';

/** Each engine call of the turn: method, attempt, start and duration, outcome and what it said. */
export function EngineCallsTable({ record }: { record: TurnRecord }) {
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
