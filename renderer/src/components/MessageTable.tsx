import { useState } from 'react';
import { formatCount } from '../formatQuantities';
import type { MessageRow } from '../model/turnDetail';
import { ProvenanceBadge } from './ProvenanceBadge';
import './MessageTable.css';

export interface MessageTableProps {
  /** names the list in expansion ids (`<listId>:<index>`) and in the accessible name */
  listId: string;
  label: string;
  rows: readonly MessageRow[];
  showProvenance: boolean;
  expanded: Readonly<Record<string, true>>;
  onToggle(id: string): void;
  /** rows shown before "Show all" (long contexts stay quick to render) */
  pageSize?: number;
  /** "Copy as JSON" on an opened message */
  onCopy?(row: MessageRow): void;
}

interface MessageTableRowProps {
  row: MessageRow;
  listId: string;
  showProvenance: boolean;
  open: boolean;
  onToggle(id: string): void;
  onCopy?(row: MessageRow): void;
}

function MessageTableRow({ row, listId, showProvenance, open, onToggle, onCopy }: MessageTableRowProps) {
  const id = `${listId}:${row.index}`;
  return (
    <tr data-testid="message-row" data-key={row.key}>
      <td className="num mono muted">{row.index + 1}</td>
      <td>
        <span className={`role role--${row.role}`}>{row.role}</span>
      </td>
      {showProvenance && <td>{row.provenance && <ProvenanceBadge provenance={row.provenance} />}</td>}
      <td className="num mono">{formatCount(row.estTokens)}</td>
      <td className="num mono">{formatCount(row.tiktokenTokens)}</td>
      <td className="messages__content">
        <button type="button" className="preview" aria-expanded={open} onClick={() => onToggle(id)}>
          <span className="preview__text">{row.preview || <span className="muted">(empty)</span>}</span>
        </button>
        {(row.sourceKey || row.coversCount !== undefined) && (
          <span className="messages__note">
            {row.sourceKey && (
              <>
                from <span className="mono">{row.sourceKey}</span>
              </>
            )}
            {row.coversCount !== undefined && <>covers {row.coversCount} messages</>}
          </span>
        )}
        {open && (
          <pre className="message-full" data-testid="message-full">
            {row.text}
          </pre>
        )}
        {open && onCopy && (
          <button type="button" className="button--link" onClick={() => onCopy(row)}>
            Copy as JSON
          </button>
        )}
      </td>
    </tr>
  );
}

/** Messages in order: role, provenance, both token counts, a one-line preview that expands on click. */
export function MessageTable({
  listId,
  label,
  rows,
  showProvenance,
  expanded,
  onToggle,
  pageSize = 150,
  onCopy,
}: MessageTableProps) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? rows : rows.slice(0, pageSize);
  return (
    <div className="table-wrap">
      <table className="table messages" aria-label={label} data-testid={`messages-${listId}`}>
        <thead>
          <tr>
            <th scope="col" className="num">
              #
            </th>
            <th scope="col">Role</th>
            {showProvenance && <th scope="col">Provenance</th>}
            <th scope="col" className="num" title="OpenClaw's estimate (chars/4 per role)">
              Estimate
            </th>
            <th scope="col" className="num" title="tiktoken count of the LLM-visible text">
              tiktoken
            </th>
            <th scope="col" className="messages__content-head">
              Content
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <MessageTableRow
              key={`${listId}:${row.index}`}
              row={row}
              listId={listId}
              showProvenance={showProvenance}
              open={expanded[`${listId}:${row.index}`] === true}
              onToggle={onToggle}
              {...(onCopy ? { onCopy } : {})}
            />
          ))}
        </tbody>
      </table>
      {rows.length > shown.length && (
        <button type="button" className="button button--link" onClick={() => setShowAll(true)}>
          Show all {rows.length} messages
        </button>
      )}
    </div>
  );
}
