import { SESSION_COUNT_DEFINITIONS } from '../../../src/view';
import { formatBytes, formatCount } from '../formatQuantities';
import type { SessionRow } from '../model/sessionRows';
import { Tag } from './Tag';
import './SessionTable.css';

export interface SessionTableProps {
  rows: readonly SessionRow[];
  selectedFile: string | null;
  onSelect(file: string): void;
}

function formatDate(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A count, or a dash when the transcript could not be read. */
function countText(value: number | undefined): string {
  return value === undefined ? '—' : formatCount(value);
}

function SessionTableHead() {
  return (
    <thead>
      <tr>
        <th scope="col">Session</th>
        <th scope="col">Agent</th>
        <th scope="col" title="where OpenClaw keeps the transcript: a JSONL file, or its SQLite database (2026.8+)">
          Storage
        </th>
        <th scope="col" className="num" title={SESSION_COUNT_DEFINITIONS.turns}>
          Turns
        </th>
        <th scope="col" className="num" title={SESSION_COUNT_DEFINITIONS.messages}>
          Messages
        </th>
        <th scope="col" className="num" title={SESSION_COUNT_DEFINITIONS.entries}>
          Entries
        </th>
        <th scope="col" className="num">
          Size
        </th>
        <th scope="col">Modified</th>
      </tr>
    </thead>
  );
}

function SessionTableRow({
  row,
  selected,
  onSelect,
}: {
  row: SessionRow;
  selected: boolean;
  onSelect(file: string): void;
}) {
  return (
    <tr
      className={`table__row--clickable${selected ? ' table__row--selected' : ''}${row.session.problem ? ' session-row--problem' : ''}`}
      aria-selected={selected}
      data-testid="session-row"
      onClick={() => onSelect(row.session.file)}
    >
      <td>
        <div className="session-cell" style={{ paddingLeft: `${row.depth * 20}px` }}>
          <input
            type="radio"
            name="session"
            aria-label={`Choose ${row.title}`}
            checked={selected}
            onChange={() => onSelect(row.session.file)}
          />
          <div className="session-cell__text">
            <span className="session-cell__title mono">{row.title}</span>
            <span className="session-cell__meta">
              {row.session.key ? <span className="mono">{row.session.sessionId}</span> : null}
              {row.parentLabel && <span>{row.parentLabel}</span>}
              {row.childrenLabel && <span>{row.childrenLabel}</span>}
              {row.session.archived && <span>archived</span>}
            </span>
            {row.session.problem && (
              <span className="session-cell__problem" data-testid="session-problem">
                <Tag text="cannot replay" tone="bad" /> {row.session.problem}
              </span>
            )}
          </div>
        </div>
      </td>
      <td className="mono">{row.session.agentId || '—'}</td>
      <td data-testid="session-storage">
        <Tag
          text={row.session.storage === 'sqlite' ? 'SQLite' : 'JSONL'}
          tone={row.session.storage === 'sqlite' ? 'info' : 'muted'}
        />
      </td>
      <td className="num mono" data-testid="session-turns">
        {countText(row.session.turns)}
      </td>
      <td className="num mono" data-testid="session-messages">
        {countText(row.session.messages)}
      </td>
      <td className="num mono" data-testid="session-entries">
        {countText(row.session.entries)}
      </td>
      <td className="num mono nowrap">{formatBytes(row.session.size)}</td>
      <td className="mono nowrap">{formatDate(row.session.mtimeMs)}</td>
    </tr>
  );
}

/** Sessions of a state dir; subagent children indented under their parent. Click a row to choose it. */
export function SessionTable({ rows, selectedFile, onSelect }: SessionTableProps) {
  if (rows.length === 0) return <p className="muted">No sessions found in this folder.</p>;
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Sessions">
        <SessionTableHead />
        <tbody>
          {rows.map((row) => (
            <SessionTableRow
              key={row.session.file}
              row={row}
              selected={row.session.file === selectedFile}
              onSelect={onSelect}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
