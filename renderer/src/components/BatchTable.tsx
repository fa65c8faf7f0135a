import type { BatchGetResponse, BatchLaneFiguresRecord, BatchRowRecord } from '../../../src/bridge';
import { formatCount, formatDuration } from '../formatQuantities';
import { Notice } from './Notice';
import { ProgressBar } from './ProgressBar';
import { Tag } from './Tag';
import './BatchTable.css';

export interface BatchTableProps {
  batch: BatchGetResponse;
  /** the row being opened (its button waits) */
  opening: number | null;
  onOpen(index: number): void;
  onCancel(): void;
}

/** "12,345 (37.8%)", "baseline" for the legacy lane itself, "—" without a baseline. */
export function savedText(lane: BatchLaneFiguresRecord): string {
  if (lane.baseline) return 'baseline';
  if (lane.savedTokens === null) return '—';
  const pct = lane.savedFraction === null ? '' : ` (${(lane.savedFraction * 100).toFixed(1)}%)`;
  return `${formatCount(lane.savedTokens)}${pct}`;
}

function findingsText(lane: BatchLaneFiguresRecord): string {
  return `${lane.findings.error} err · ${lane.findings.warning} warn`;
}

/** The lanes a row shows: the ones asked for (a baseline the batch added only measures them). */
function shown(lanes: readonly BatchLaneFiguresRecord[]): BatchLaneFiguresRecord[] {
  return lanes.filter((l) => !l.added);
}

const STATUS_TONE = { queued: 'muted', running: 'info', done: 'ok', failed: 'bad' } as const;

function LaneCells({ lane }: { lane: BatchLaneFiguresRecord }) {
  return (
    <>
      <td className="mono">{lane.label}</td>
      <td className="num mono">{formatCount(lane.compactions)}</td>
      <td className="num mono">{formatCount(lane.tokens)}</td>
      <td className="num mono" data-testid="batch-saved">
        {savedText(lane)}
      </td>
      <td className="mono nowrap">{findingsText(lane)}</td>
    </>
  );
}

function BatchRowLines({
  row,
  opening,
  onOpen,
}: {
  row: BatchRowRecord;
  opening: number | null;
  onOpen(i: number): void;
}) {
  const lanes = row.status === 'done' ? shown(row.lanes) : [];
  const name = row.key ?? row.sessionId;
  const first = (
    <>
      <td className="mono batch-table__session">{name}</td>
      <td>
        <Tag text={row.status} tone={STATUS_TONE[row.status]} />
      </td>
      <td className="num mono">{row.turns === undefined ? '—' : formatCount(row.turns)}</td>
    </>
  );
  const open = (
    <td rowSpan={Math.max(1, lanes.length)}>
      {row.status === 'done' && (
        <button
          type="button"
          className="button"
          aria-label={`Open the recording of ${name}`}
          disabled={opening !== null}
          onClick={() => onOpen(row.index)}
        >
          {opening === row.index ? 'Opening…' : 'Open'}
        </button>
      )}
    </td>
  );
  if (lanes.length === 0) {
    return (
      <tr data-testid="batch-row" data-status={row.status}>
        {first}
        <td colSpan={5} className={row.error ? 'batch-table__error' : 'muted'}>
          {row.error ?? (row.status === 'running' ? 'replaying…' : 'waiting for a worker')}
        </td>
        {open}
      </tr>
    );
  }
  return (
    <>
      {lanes.map((lane, i) => (
        <tr key={lane.laneId} data-testid={i === 0 ? 'batch-row' : 'batch-row-lane'} data-status={row.status}>
          {i === 0 ? first : <td colSpan={3} />}
          <LaneCells lane={lane} />
          {i === 0 && open}
        </tr>
      ))}
    </>
  );
}

function TotalLines({ batch }: { batch: BatchGetResponse }) {
  const { totals } = batch;
  return (
    <>
      {shown(totals.lanes).map((lane, i) => (
        <tr key={lane.laneId} className="batch-table__total" data-testid="batch-total">
          {i === 0 ? (
            <>
              <th scope="row">Total</th>
              <td className="mono nowrap">
                {totals.done} done · {totals.failed} failed
              </td>
              <td className="num mono">{formatCount(totals.turns)}</td>
            </>
          ) : (
            <td colSpan={3} />
          )}
          <LaneCells lane={lane} />
          <td />
        </tr>
      ))}
    </>
  );
}

/** One replay configuration over every session: a row per session as it finishes, the total, open any row. */
export function BatchTable({ batch, opening, onOpen, onCancel }: BatchTableProps) {
  const finished = batch.totals.done + batch.totals.failed;
  const running = batch.status === 'running';
  const rate = batch.elapsedMs > 0 ? (finished / batch.elapsedMs) * 1000 : 0;
  return (
    <section
      className="card batch-table"
      aria-label="All sessions replayed"
      data-testid="batch"
      data-status={batch.status}
    >
      <h2 className="card__title">
        {running
          ? 'Replaying all sessions'
          : batch.status === 'cancelled'
            ? 'Batch cancelled'
            : 'All sessions replayed'}
        <span className="muted mono">
          {' '}
          {batch.workers} worker{batch.workers === 1 ? '' : 's'} · {formatDuration(batch.elapsedMs)}
          {finished > 0 ? ` · ${rate.toFixed(2)} sessions/s` : ''}
        </span>
      </h2>
      <ProgressBar done={finished} total={batch.rows.length} label="Sessions replayed" unit="sessions" />
      {batch.rows.length === 0 && <Notice tone="info">No sessions to replay in {batch.stateDir}.</Notice>}
      <div className="table-wrap">
        <table className="table" aria-label="Sessions replayed">
          <thead>
            <tr>
              <th scope="col">Session</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Turns
              </th>
              <th scope="col">Lane</th>
              <th scope="col" className="num">
                Compactions
              </th>
              <th scope="col" className="num" title="assembled tokens (tiktoken) summed over the session's turns">
                Tokens
              </th>
              <th scope="col" className="num" title="legacy's assembled tokens on the same session minus this lane's">
                Saved vs legacy
              </th>
              <th scope="col">Findings</th>
              <th scope="col" aria-label="Open" />
            </tr>
          </thead>
          <tbody>
            {batch.rows.map((row) => (
              <BatchRowLines key={row.index} row={row} opening={opening} onOpen={onOpen} />
            ))}
            <TotalLines batch={batch} />
          </tbody>
        </table>
      </div>
      {(batch.skipped.subagents > 0 || batch.skipped.archived > 0) && (
        <p className="muted">
          Left out: {batch.skipped.subagents} subagent session(s) (replayed with their parent), {batch.skipped.archived}{' '}
          reset archive(s).
        </p>
      )}
      {running && (
        <div className="run-status__actions">
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      )}
    </section>
  );
}
