import { CELL_STATUS_INFO, type CellStatus } from '../../../src/view';
import './CellStatusBadge.css';

export interface CellStatusBadgeProps {
  status: CellStatus;
  /** e.g. `summarized → 3` instead of the bare word */
  text?: string;
}

/** A status as colour + icon + word, so it reads without colour too. */
export function CellStatusBadge({ status, text }: CellStatusBadgeProps) {
  const info = CELL_STATUS_INFO[status];
  return (
    <span className={`cell-status cell-status--${status}`} title={info.description} data-testid="cell-status">
      <span className="cell-status__icon" aria-hidden="true">
        {info.icon}
      </span>
      <span className="cell-status__word">{text ?? info.word}</span>
    </span>
  );
}
