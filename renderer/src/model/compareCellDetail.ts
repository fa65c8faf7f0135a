/**
 * What the Compare view's side panel shows for the selected cell: the message as that lane has it (or the transcript
 * message it left out), its status, and the text diffs worth reading — a modified message against the transcript's
 * version and against another lane's different copy. Pure.
 */
import {
  CELL_STATUS_INFO,
  messageText,
  rowLabel,
  type AlignedTurn,
  type CellStatus,
  type CellStatusInfo,
} from '../../../src/view';

export interface TextPair {
  title: string;
  before: string;
  after: string;
}

export interface CellDetail {
  /** 1-based, as the table numbers rows */
  rowNumber: number;
  label: string;
  laneLabel: string;
  status: CellStatus;
  statusInfo: CellStatusInfo;
  /** 1-based position in what the lane sent, or null */
  position: number | null;
  estTokens: number;
  tiktokenTokens: number;
  /** 1-based row of the summary that covers it */
  summarizedInto: number | null;
  /** the lane's copy, the transcript message it left out, or (absent) the first lane's copy; null when none */
  text: string | null;
  /** whose text `text` is when not this lane's own copy */
  textSource: string | null;
  diffs: TextPair[];
}

function textOf(aligned: AlignedTurn, rowIndex: number, column: number): string | null {
  const cell = aligned.rows[rowIndex]!.cells[column]!;
  if (cell.key === null) return null;
  const stored = aligned.columns[column]!.column.recording.messages[cell.key];
  return stored ? messageText(stored.message) : null;
}

function transcriptText(aligned: AlignedTurn, rowIndex: number): string | null {
  const row = aligned.rows[rowIndex]!;
  if (row.transcriptIndex === null) return null;
  const first = aligned.columns[0]!.column.recording;
  const key = first.session.messageKeys[row.transcriptIndex];
  const stored = key !== undefined ? first.messages[key] : undefined;
  return stored ? messageText(stored.message) : null;
}

function differentCopies(aligned: AlignedTurn, rowIndex: number, column: number, text: string): TextPair[] {
  const pairs: TextPair[] = [];
  aligned.rows[rowIndex]!.cells.forEach((cell, c) => {
    if (c === column || cell.position === null || pairs.length >= 2) return;
    const other = textOf(aligned, rowIndex, c);
    if (other !== null && other !== text) {
      pairs.push({ title: `Against ${aligned.columns[c]!.column.label}'s copy`, before: other, after: text });
    }
  });
  return pairs;
}

export function cellDetail(aligned: AlignedTurn, rowIndex: number, column: number): CellDetail | null {
  const row = aligned.rows[rowIndex];
  const cell = row?.cells[column];
  if (!row || !cell) return null;
  const own = textOf(aligned, rowIndex, column);
  const firstWithCopy = row.cells.findIndex((c) => c.key !== null);
  const text = own ?? (firstWithCopy >= 0 ? textOf(aligned, rowIndex, firstWithCopy) : null);
  const diffs: TextPair[] = [];
  const original = transcriptText(aligned, rowIndex);
  if (own !== null && cell.status === 'modified' && original !== null && original !== own) {
    diffs.push({ title: 'Against the transcript', before: original, after: own });
  }
  if (own !== null && cell.position !== null) diffs.push(...differentCopies(aligned, rowIndex, column, own));
  return {
    rowNumber: rowIndex + 1,
    label: rowLabel(row),
    laneLabel: aligned.columns[column]!.column.label,
    status: cell.status,
    statusInfo: CELL_STATUS_INFO[cell.status],
    position: cell.position === null ? null : cell.position + 1,
    estTokens: cell.estTokens,
    tiktokenTokens: cell.tiktokenTokens,
    summarizedInto: cell.summarizedInto === null ? null : cell.summarizedInto + 1,
    text,
    textSource: own === null && firstWithCopy >= 0 ? aligned.columns[firstWithCopy]!.column.label : null,
    diffs,
  };
}
