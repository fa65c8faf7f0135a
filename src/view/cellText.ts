/**
 * How an aligned cell reads, the same everywhere: a word, an icon (so the status reads without colour) and the
 * legend's sentence; and how a row names its message (role, or the span a summary stands for).
 */
import type { AlignedCell, AlignedRow } from './alignTurn';
import type { CellStatus } from './laneTurnState';

export interface CellStatusInfo {
  word: string;
  icon: string;
  /** the legend's explanation */
  description: string;
}

export const CELL_STATUS_INFO: Record<CellStatus, CellStatusInfo> = {
  sent: { word: 'sent', icon: '●', description: 'sent as the transcript has it' },
  modified: { word: 'modified', icon: '✎', description: 'sent with content the engine changed' },
  summary: { word: 'summary', icon: 'Σ', description: 'a summary the lane sent' },
  synthetic: { word: 'synthetic', icon: '✚', description: 'a message the engine added' },
  summarized: { word: 'summarized', icon: '↳', description: 'left out, covered by the summary in row → N' },
  dropped: { word: 'dropped', icon: '✕', description: 'left out' },
  absent: { word: 'absent', icon: '–', description: 'not in this lane at this turn' },
};

/** `sent`, `summarized → 3` (the 1-based row of the covering summary), … */
export function cellText(cell: AlignedCell): string {
  const word = CELL_STATUS_INFO[cell.status].word;
  return cell.summarizedInto !== null ? `${word} → ${cell.summarizedInto + 1}` : word;
}

function spanText(span: readonly (readonly [number, number])[]): string {
  return span.map(([a, b]) => (b - a === 1 ? `${a + 1}` : `${a + 1}–${b}`)).join(', ');
}

/** What the row is: the message's role, `summary of messages 1–42`, `synthetic custom:memory`, `user (2nd copy)`. */
export function rowLabel(row: AlignedRow): string {
  if (row.kind === 'summary') {
    return row.span && row.span.length > 0 ? `summary of messages ${spanText(row.span)}` : 'summary (span not stated)';
  }
  if (row.kind === 'synthetic') return `synthetic ${row.id.slice('synthetic:'.length).replace(/#\d+$/, '')}`;
  const copy = /#(\d+)$/.exec(row.id);
  if (row.kind === 'message' && copy) return `${row.role} (copy ${copy[1]})`;
  return row.role;
}
