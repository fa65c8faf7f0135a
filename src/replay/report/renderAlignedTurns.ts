/**
 * The report's "Where the lanes differ" section: for each turn where the lanes assembled something different, the
 * one-line account and the aligned table (one row per message identity, a status per lane as icon + word, runs
 * every lane agrees on folded), from the shared view model — the rows the app's Compare view and
 * `contextscope compare --turn` show. Untrusted text is escaped.
 */
import {
  alignTurn,
  CELL_STATUS_INFO,
  cellText,
  displayItems,
  rowLabel,
  turnDifferences,
  type AlignedRow,
  type CellStatus,
  type CompareInput,
} from '../../view';
import { escapeHtml, previewText } from './escapeHtml';

export const ALIGNED_CSS = `
.aligned td.cell{white-space:nowrap}.aligned .st-sent{color:var(--ok)}.aligned .st-modified{color:var(--warn);font-weight:600}
.aligned .st-summary,.aligned .st-summarized{color:var(--s4)}.aligned .st-synthetic{color:var(--s1)}
.aligned .st-dropped{color:var(--err)}.aligned .st-absent{color:var(--muted)}.aligned tr.fold td{color:var(--muted);font-style:italic}
.side-by-side td.differs{color:var(--warn)}.legend-line{font-size:12px}
`;

const ORDER: CellStatus[] = ['sent', 'modified', 'summary', 'synthetic', 'summarized', 'dropped', 'absent'];

function legend(): string {
  return `<p class="muted legend-line">${ORDER.map((s) => `<span class="st-${s}">${CELL_STATUS_INFO[s].icon} ${CELL_STATUS_INFO[s].word}</span> = ${escapeHtml(CELL_STATUS_INFO[s].description)}`).join(' · ')}; tokens are tiktoken counts, in parentheses for messages left out.</p>`;
}

function cellHtml(row: AlignedRow, c: number): string {
  const cell = row.cells[c]!;
  const info = CELL_STATUS_INFO[cell.status];
  const position = cell.position !== null ? ` #${cell.position + 1}` : '';
  const tokens =
    cell.status === 'absent' ? '' : cell.position !== null ? ` ${cell.tiktokenTokens}` : ` (${cell.tiktokenTokens})`;
  return `<td class="cell st-${cell.status}">${info.icon} ${escapeHtml(cellText(cell))}${position}${tokens}${cell.moved ? ' · moved' : ''}</td>`;
}

function alignedTable(input: CompareInput, turn: number, maxItems: number): string {
  const aligned = alignTurn(input, turn);
  const out: string[] = [
    '<table class="aligned"><tr><th class="num">row</th><th>message</th>',
    ...input.columns.map((c) => `<th>${escapeHtml(c.label)}</th>`),
    '</tr>',
  ];
  const items = displayItems(aligned.rows);
  for (const item of items.slice(0, maxItems)) {
    if (item.type === 'fold') {
      out.push(
        `<tr class="fold"><td></td><td colspan="${input.columns.length + 1}">… ${escapeHtml(item.label)} (rows ${item.start + 1}–${item.end})</td></tr>`,
      );
      continue;
    }
    const row = item.row;
    out.push(
      `<tr><td class="num">${item.index + 1}</td><td><b>${escapeHtml(rowLabel(row))}</b> ${previewText(row.preview, 120)}</td>${row.cells.map((_, c) => cellHtml(row, c)).join('')}</tr>`,
    );
  }
  out.push('</table>');
  if (items.length > maxItems)
    out.push(`<p class="muted">… ${items.length - maxItems} more rows in the JSON export.</p>`);
  return out.join('');
}

/** The aligned tables of the first `maxTurns` differing turns (default 60), each under its one-line account. */
export function renderAlignedTurns(input: CompareInput, maxTurns = 60): string {
  const differing = turnDifferences(input).filter((d) => d.differs);
  const out: string[] = [
    `<h2>Where the lanes differ (${differing.length} turns)</h2>`,
    '<p class="muted">Decided on what each lane assembled — which messages, in which order, with which content, what was done with the rest, the system prompt addition — not on token totals or findings.</p>',
  ];
  if (differing.length === 0) {
    out.push('<p class="muted">The lanes assembled the same at every turn.</p>');
    return out.join('\n');
  }
  out.push(legend());
  for (const d of differing.slice(0, maxTurns)) {
    out.push(
      `<details id="aligned-${d.turn}" class="aligned-turn"><summary>turn ${d.turn + 1} — ${escapeHtml(d.summary)}</summary>${alignedTable(input, d.turn, 400)}</details>`,
    );
  }
  if (differing.length > maxTurns)
    out.push(
      `<p class="muted">… ${differing.length - maxTurns} more differing turns: <code>contextscope compare --turn &lt;n&gt;</code> lists any of them.</p>`,
    );
  return out.join('\n');
}
