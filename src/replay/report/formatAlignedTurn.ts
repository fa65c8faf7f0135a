/**
 * `contextscope compare --turn <n>` as text and as JSON (pure): one line per aligned message with a status word per
 * lane, folded runs, each lane's totals, turn delta and quarantine, and a legend. Rows and words come from the
 * shared view model (src/view), so they read as the app's Compare view does.
 */
import {
  alignTurn,
  CELL_STATUS_INFO,
  cellText,
  displayItems,
  rowLabel,
  type AlignedColumn,
  type AlignedRow,
  type AlignedTurn,
  type CellStatus,
  type CompareInput,
} from '../../view';

function pad(text: string, width: number, right = false): string {
  if (text.length >= width) return text;
  return right ? text.padStart(width) : text.padEnd(width);
}

function cut(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function deltaText(column: AlignedColumn, turn: number): string {
  const d = column.delta;
  if (!d.hasPrevious) return 'no previous turn';
  const prefix =
    d.firstDivergence === null
      ? 'prefix kept'
      : `prefix breaks at message ${d.firstDivergence + 1}${d.systemPromptAdditionChanged ? ' (and the system prompt addition changed)' : ''}`;
  return `+${d.added} −${d.removed} ~${d.changed} since turn ${turn}, ${prefix}`;
}

function laneLines(aligned: AlignedTurn): string[] {
  const width = Math.max(...aligned.columns.map((c) => c.column.label.length));
  const lines: string[] = [];
  for (const column of aligned.columns) {
    const r = column.record;
    const head = `  ${pad(column.column.label, width)}  `;
    if (!r) {
      lines.push(`${head}no turn ${aligned.turn + 1}`);
      continue;
    }
    lines.push(
      `${head}${r.totals.tiktokenTokens}/${r.budget.tokenBudget} tokens, ${r.assembled.length} messages sent` +
        `${r.engine.engineId !== column.column.lane.requestedEngineId ? ` (served by ${r.engine.engineId})` : ''}` +
        `; ${deltaText(column, aligned.turn)}`,
    );
    if (r.systemPromptAddition)
      lines.push(
        `${' '.repeat(head.length)}system prompt addition: ${cut(r.systemPromptAddition.replace(/\s+/g, ' '), 90)}`,
      );
    if (column.quarantine) lines.push(`  ! ${column.column.label}: ${column.quarantine.text}`);
  }
  return lines;
}

function cellColumn(row: AlignedRow, c: number): string {
  const cell = row.cells[c]!;
  const info = CELL_STATUS_INFO[cell.status];
  const position = cell.position !== null ? `#${cell.position + 1}` : '';
  const tokens =
    cell.status === 'absent' ? '' : cell.position !== null ? String(cell.tiktokenTokens) : `(${cell.tiktokenTokens})`;
  const flags = `${cell.moved ? ' moved' : ''}`;
  return `${info.icon} ${pad(cellText(cell), 14)} ${pad(position, 5)} ${pad(tokens, 6, true)}${flags}`;
}

export interface AlignedTurnTextOptions {
  /** list every row instead of folding runs every lane agrees on */
  unfold?: boolean;
  /** only rows some lane changed since its previous turn */
  changedOnly?: boolean;
  /** width of the message column */
  messageWidth?: number;
}

/** The legend line(s): each status word with its icon and meaning. */
export function statusLegend(): string {
  const order: CellStatus[] = ['sent', 'modified', 'summary', 'synthetic', 'summarized', 'dropped', 'absent'];
  return `Legend: ${order.map((s) => `${CELL_STATUS_INFO[s].icon} ${CELL_STATUS_INFO[s].word} = ${CELL_STATUS_INFO[s].description}`).join(' · ')}. #N = position in what the lane sent; tokens are tiktoken counts, in parentheses for messages left out.`;
}

export function formatAlignedTurn(input: CompareInput, turn: number, options: AlignedTurnTextOptions = {}): string {
  const aligned = alignTurn(input, turn);
  const messageWidth = options.messageWidth ?? 56;
  const total = Math.max(...input.columns.map((c) => c.recording.turns[c.lane.id]?.length ?? 0));
  const out: string[] = [];
  const diff = aligned.difference;
  out.push(
    `Turn ${turn + 1} of ${total} · ${diff.differs ? `lanes differ: ${diff.summary}` : 'the lanes assembled the same'}`,
  );
  out.push(...laneLines(aligned), '');
  const cellWidth = 32;
  const header = [
    pad('row', 5, true),
    pad('message', messageWidth),
    ...input.columns.map((c) => pad(cut(c.label, cellWidth), cellWidth)),
  ];
  out.push(header.join(' │ ').trimEnd());
  for (const item of displayItems(aligned.rows, {
    minRun: options.unfold ? Infinity : 3,
    changedOnly: options.changedOnly,
  })) {
    if (item.type === 'fold') {
      out.push(`${pad('', 5)} │ … ${item.label} (rows ${item.start + 1}–${item.end})`);
      continue;
    }
    const row = item.row;
    const message = cut(`${pad(rowLabel(row), 12)} ${row.preview}`, messageWidth);
    out.push(
      [
        pad(String(item.index + 1), 5, true),
        pad(message, messageWidth),
        ...row.cells.map((_, c) => pad(cellColumn(row, c), cellWidth)),
      ]
        .join(' │ ')
        .trimEnd(),
    );
  }
  if (aligned.rows.length === 0) out.push('      (no messages before this turn)');
  out.push('', statusLegend());
  return `${out.join('\n')}\n`;
}

/** The same turn as data: rows with a cell per column id, each lane's totals, delta and quarantine. */
export function alignedTurnJson(input: CompareInput, turn: number) {
  const aligned = alignTurn(input, turn);
  return {
    turn: turn + 1,
    turnIndex: turn,
    differs: aligned.difference.differs,
    difference: aligned.difference.summary,
    pairs: aligned.difference.pairs.map((p) => ({
      ...p,
      base: input.columns[p.base]!.id,
      other: input.columns[p.other]!.id,
    })),
    lanes: aligned.columns.map((c) => ({
      id: c.column.id,
      label: c.column.label,
      side: c.column.side,
      hasTurn: c.record !== null,
      engineId: c.record?.engine.engineId ?? null,
      tokens: c.record ? { estimate: c.record.totals.estTokens, tiktoken: c.record.totals.tiktokenTokens } : null,
      tokenBudget: c.record?.budget.tokenBudget ?? null,
      systemPromptAddition: c.record?.systemPromptAddition ?? null,
      delta: c.delta,
      quarantine: c.quarantine,
    })),
    rows: aligned.rows.map((row, i) => ({
      row: i + 1,
      id: row.id,
      kind: row.kind,
      label: rowLabel(row),
      role: row.role,
      preview: row.preview,
      agree: row.agree,
      changed: row.changed,
      onlyIn: row.onlyIn === null ? null : input.columns[row.onlyIn]!.id,
      cells: Object.fromEntries(
        row.cells.map((cell, c) => [
          input.columns[c]!.id,
          { ...cell, summarizedInto: cell.summarizedInto === null ? null : cell.summarizedInto + 1 },
        ]),
      ),
    })),
    legend: CELL_STATUS_INFO,
  };
}
