/**
 * Server-side SVG line chart: assembled tokens per turn per lane against each lane's token budget, with
 * compaction (triangle) and quarantine (square) markers. Pure string output; colours come from the report's CSS
 * classes (`series-<n>`, n = the lane's colour index: src/view laneColorIndex, the app's lane colours).
 */
import { LANE_COLORS, laneStroke } from '../../view';
import { escapeHtml } from './escapeHtml';

export interface ChartSeries {
  label: string;
  /** the lane's colour (src/view laneColorIndex); default: the series' position */
  colorIndex?: number;
  /** tokens per turn (index = turn) */
  values: readonly number[];
  /** the token budget per turn (dashed) */
  budget: readonly number[];
  /** turns with a compaction (triangle) or a quarantine (square), with a tooltip */
  markers: readonly { turn: number; title: string; kind?: 'compaction' | 'quarantine' }[];
}

export interface BudgetChartInput {
  title: string;
  series: readonly ChartSeries[];
  /** turns where the recorded session compacted (vertical dotted lines) */
  recordedCompactionTurns?: readonly number[];
  width?: number;
  height?: number;
}

const PAD = { left: 64, right: 16, top: 28, bottom: 36 };

function niceStep(range: number, ticks: number): number {
  const raw = range / Math.max(1, ticks);
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  const norm = raw / magnitude;
  const nice = norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10;
  return nice * magnitude;
}

function fmt(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(Math.round(n));
}

/** The i-th of `count` lines dashed apart, as in the app (laneStroke): lanes with the same figures show both colours. */
function dashAttributes(i: number, count: number): string {
  const stroke = laneStroke(i, count);
  return stroke.dasharray ? ` stroke-dasharray="${stroke.dasharray}" stroke-dashoffset="${stroke.dashoffset}"` : '';
}

export function renderBudgetChart(input: BudgetChartInput): string {
  const width = input.width ?? 960;
  const height = input.height ?? 320;
  const turns = Math.max(1, ...input.series.map((s) => s.values.length));
  let maxY = 1;
  for (const s of input.series) {
    for (const v of s.values) maxY = Math.max(maxY, v);
    for (const v of s.budget) maxY = Math.max(maxY, v);
  }
  const yStep = niceStep(maxY, 5);
  const yTop = Math.ceil((maxY * 1.05) / yStep) * yStep;
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const x = (turn: number) => PAD.left + (turns <= 1 ? plotW / 2 : (turn / (turns - 1)) * plotW);
  const y = (v: number) => PAD.top + plotH - (v / yTop) * plotH;
  const r = (n: number) => n.toFixed(1);

  const parts: string[] = [];
  parts.push(
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(input.title)}">`,
    `<title>${escapeHtml(input.title)}</title>`,
  );
  for (let v = 0; v <= yTop + 1e-9; v += yStep) {
    parts.push(
      `<line class="grid" x1="${PAD.left}" x2="${width - PAD.right}" y1="${r(y(v))}" y2="${r(y(v))}"/>`,
      `<text class="axis" x="${PAD.left - 6}" y="${r(y(v) + 4)}" text-anchor="end">${fmt(v)}</text>`,
    );
  }
  const xStep = Math.max(1, niceStep(turns - 1 || 1, 10));
  for (let t = 0; t < turns; t += xStep) {
    parts.push(
      `<text class="axis" x="${r(x(t))}" y="${height - PAD.bottom + 16}" text-anchor="middle">${t + 1}</text>`,
    );
  }
  parts.push(
    `<text class="axis" x="${PAD.left + plotW / 2}" y="${height - 4}" text-anchor="middle">turn</text>`,
    `<text class="axis" x="12" y="${PAD.top - 10}">tokens</text>`,
  );
  for (const turn of input.recordedCompactionTurns ?? []) {
    parts.push(
      `<line class="recorded" x1="${r(x(turn))}" x2="${r(x(turn))}" y1="${PAD.top}" y2="${PAD.top + plotH}"><title>recorded compaction at turn ${turn + 1}</title></line>`,
    );
  }
  const seriesClass = (s: ChartSeries, i: number) => `series-${(s.colorIndex ?? i) % LANE_COLORS.length}`;
  const dashes = (i: number) => dashAttributes(i, input.series.length);
  input.series.forEach((s, i) => {
    const cls = seriesClass(s, i);
    if (s.budget.length > 0) {
      const pts = s.budget.map((v, t) => `${r(x(t))},${r(y(v))}`).join(' ');
      parts.push(
        `<polyline class="${cls} budget" points="${pts}"><title>${escapeHtml(s.label)} token budget</title></polyline>`,
      );
    }
    if (s.values.length > 0) {
      const pts = s.values.map((v, t) => `${r(x(t))},${r(y(v))}`).join(' ');
      parts.push(
        `<polyline class="${cls} line" points="${pts}"${dashes(i)}><title>${escapeHtml(s.label)} assembled tokens</title></polyline>`,
      );
    }
    for (const m of s.markers) {
      const mx = x(m.turn);
      const my = y(s.values[m.turn] ?? 0);
      const d =
        m.kind === 'quarantine'
          ? `M${r(mx - 4)},${r(my - 4)} h8 v8 h-8 Z`
          : `M${r(mx)},${r(my - 7)} L${r(mx - 5)},${r(my + 2)} L${r(mx + 5)},${r(my + 2)} Z`;
      parts.push(
        `<path class="${cls} marker${m.kind === 'quarantine' ? ' quarantine' : ''}" d="${d}"><title>${escapeHtml(m.title)}</title></path>`,
      );
    }
  });
  // legend
  input.series.forEach((s, i) => {
    const lx = PAD.left + 8 + i * 180;
    parts.push(
      `<line class="${seriesClass(s, i)} line" x1="${lx}" x2="${lx + 18}" y1="${PAD.top - 12}" y2="${PAD.top - 12}"${dashes(i)}/>`,
      `<text class="legend" x="${lx + 22}" y="${PAD.top - 8}">${escapeHtml(s.label)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}
