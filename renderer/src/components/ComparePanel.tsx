import { formatCount } from '../formatQuantities';
import type { CellDetail } from '../model/compareCellDetail';
import { CellStatusBadge } from './CellStatusBadge';
import { TextDiff } from './TextDiff';
import './ComparePanel.css';

export interface ComparePanelProps {
  detail: CellDetail | null;
  onShowRow(rowNumber: number): void;
}

/** The selected cell: the message as that lane has it, its status and tokens, and text diffs where it was changed. */
export function ComparePanel({ detail, onShowRow }: ComparePanelProps) {
  if (!detail) {
    return (
      <aside className="compare-panel compare-panel--empty" aria-label="Selected message" data-testid="compare-panel">
        <p className="muted">Select a cell to read the message as that lane sent it (or left it out).</p>
      </aside>
    );
  }
  return (
    <aside className="compare-panel" aria-label="Selected message" data-testid="compare-panel">
      <h3 className="compare-panel__title">
        Row {detail.rowNumber} · {detail.label}
      </h3>
      <p className="compare-panel__lane">
        <span className="mono">{detail.laneLabel}</span>{' '}
        <CellStatusBadge
          status={detail.status}
          text={detail.summarizedInto !== null ? `summarized → ${detail.summarizedInto}` : undefined}
        />
      </p>
      <p className="compare-panel__facts muted">
        {detail.statusInfo.description}
        {detail.position !== null && <> · position {detail.position}</>}
        {detail.status !== 'absent' && (
          <>
            {' '}
            · {formatCount(detail.tiktokenTokens)} tiktoken / {formatCount(detail.estTokens)} estimated tokens
          </>
        )}
      </p>
      {detail.summarizedInto !== null && (
        <button type="button" className="button button--link" onClick={() => onShowRow(detail.summarizedInto!)}>
          Show the summary (row {detail.summarizedInto})
        </button>
      )}
      {detail.diffs.map((pair) => (
        <TextDiff key={pair.title} title={pair.title} before={pair.before} after={pair.after} />
      ))}
      {detail.text !== null ? (
        <div className="compare-panel__text">
          <div className="compare-panel__text-title">
            {detail.textSource ? `As ${detail.textSource} has it` : 'Text'}
          </div>
          <pre className="message-full" data-testid="compare-panel-text">
            {detail.text}
          </pre>
        </div>
      ) : (
        <p className="muted">No lane has the text of this message.</p>
      )}
    </aside>
  );
}
