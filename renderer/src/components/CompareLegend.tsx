import { CELL_STATUS_INFO, type CellStatus } from '../../../src/view';
import { CellStatusBadge } from './CellStatusBadge';
import './CompareLegend.css';

const ORDER: CellStatus[] = ['sent', 'modified', 'summary', 'synthetic', 'summarized', 'dropped', 'absent'];

/** What the statuses and marks of the aligned table mean. */
export function CompareLegend() {
  return (
    <p className="compare-legend" data-testid="compare-legend">
      {ORDER.map((status) => (
        <span key={status} className="compare-legend__item">
          <CellStatusBadge status={status} /> {CELL_STATUS_INFO[status].description}
        </span>
      ))}
      <span className="compare-legend__item">
        <span className="compare-legend__mark">#N</span> position in what the lane sent; tokens are tiktoken counts, in
        parentheses when left out
      </span>
      <span className="compare-legend__item">
        <span className="compare-legend__mark">↕</span> sent out of the other lane’s order
      </span>
      <span className="compare-legend__item">
        <span className="compare-legend__bar" aria-hidden="true" /> changed since the lane’s previous turn
      </span>
    </p>
  );
}
