/**
 * The standalone HTML report of a Recording: one file, inline CSS and inline SVG, no scripts, no external
 * resources, readable in light and dark mode (`prefers-color-scheme`). Every piece of text from the recording —
 * transcript content, engine output, error messages — is untrusted and escaped.
 */
import type { MessageRecord, Recording, TurnRecord } from '../../contract/recording';
import {
  compareLanes,
  compactionCauseLine,
  describeEvent,
  LANE_COLORS,
  laneColorIndex,
  laneTurnFigures,
  messageText,
  PROBLEM_DEFINITIONS,
  problemCounts,
  problemSummary,
  recordedSessionCounts,
  tokensOf,
} from '../../view';
import { compareRows } from './compareTurns';
import { escapeHtml, previewText } from './escapeHtml';
import { rootLaneIds } from './formatCompareTable';
import { ALIGNED_CSS, renderAlignedTurns } from './renderAlignedTurns';
import { renderBudgetChart, type ChartSeries } from './svgBudgetChart';

export interface HtmlReportOptions {
  /** report title (default: "ContextScope replay — <session id>") */
  title?: string;
  /**
   * Turns whose assembled messages are listed in full. "auto" (default) lists every turn while the recording
   * holds at most 40,000 assembled references, else only turns with events or findings plus each lane's last turn.
   */
  detailTurns?: 'all' | 'auto' | 'eventful';
  /** at most this many differing turns get their aligned table (default 60) */
  alignedTurns?: number;
}

const CSS = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#5b6570;--line:#d5dbe1;--panel:#f5f7f9;--warn:#9a6700;--err:#b42318;--ok:#1a7f37;
--s0:#0969da;--s1:#bf3989;--s2:#1a7f37;--s3:#bc4c00;--s4:#8250df;--s5:#0a7e8c}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9aa5b1;--line:#30363d;--panel:#161b22;--warn:#d29922;--err:#f85149;--ok:#3fb950;
--s0:#58a6ff;--s1:#f778ba;--s2:#56d364;--s3:#ffa657;--s4:#d2a8ff;--s5:#39c5cf}}
*{box-sizing:border-box}body{margin:0;padding:24px;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:14px;margin:18px 0 6px}
.muted{color:var(--muted)}table{border-collapse:collapse;width:100%;margin:6px 0}th,td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
th{background:var(--panel);font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.sev-error{color:var(--err);font-weight:600}.sev-warning{color:var(--warn);font-weight:600}.sev-info{color:var(--muted)}
.status-ok{color:var(--ok)}.status-bad{color:var(--err)}details{margin:2px 0}summary{cursor:pointer}
.prov-raw{color:var(--muted)}.prov-modified{color:var(--warn)}.prov-summary{color:var(--s4)}.prov-synthetic{color:var(--s1)}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
.chart{width:100%;height:auto;background:var(--panel);border:1px solid var(--line);border-radius:6px}
.chart .grid{stroke:var(--line);stroke-width:1}.chart .axis,.chart .legend{fill:var(--muted);font-size:11px}
.chart .line{fill:none;stroke-width:1.6}.chart .budget{fill:none;stroke-width:1;stroke-dasharray:5 4;opacity:.8}
.chart .recorded{stroke:var(--muted);stroke-dasharray:2 3}.chart .marker{stroke:none}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;vertical-align:baseline}
${LANE_COLORS.map((c, i) => `.chart .series-${i}{stroke:${c}}.chart path.series-${i}{fill:${c}}.swatch.series-${i}{background:${c}}`).join('')}
${ALIGNED_CSS}`;

function messagePreview(record: MessageRecord | undefined): string {
  return record ? messageText(record.message) : '';
}

function isBadStatus(status: TurnRecord['status']): boolean {
  return status !== 'ok';
}

function fmt(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : String(Math.round(n));
}

/** A lane's colour swatch: the app's colour for the lane (src/view laneColorIndex). */
function swatch(recording: Recording, laneId: string): string {
  return `<span class="swatch series-${laneColorIndex(recording.lanes, laneId) % LANE_COLORS.length}" aria-hidden="true"></span>`;
}

/** The chart's lines and markers from the shared per-turn figures (the app's budget chart reads the same). */
function chartSeries(recording: Recording, laneIds: string[]): ChartSeries[] {
  return laneIds.map((id) => {
    const label = recording.lanes.find((l) => l.id === id)?.label ?? id;
    const figures = (recording.turns[id] ?? []).map(laneTurnFigures);
    return {
      label,
      colorIndex: laneColorIndex(recording.lanes, id),
      values: figures.map((f) => tokensOf(f, 'tiktoken')),
      budget: figures.map((f) => f.tokenBudget),
      markers: figures.flatMap((f, turn) =>
        f.marker ? [{ turn, kind: f.marker, title: `${label} turn ${turn + 1}: ${f.events.join('; ')}` }] : [],
      ),
    };
  });
}

function renderTurnDetails(recording: Recording, turn: TurnRecord, withMessages: boolean): string {
  const out: string[] = [];
  const cls = isBadStatus(turn.status) ? 'status-bad' : 'status-ok';
  out.push(
    `<details><summary>turn ${turn.turn + 1} — <span class="${cls}">${escapeHtml(turn.status)}</span> · ${turn.assembled.length} messages · ` +
      `${turn.totals.tiktokenTokens} tokens (est ${turn.totals.estTokens}) / budget ${turn.budget.tokenBudget}` +
      `${turn.events.length ? ` · ${escapeHtml(turn.events.map(describeEvent).join('; '))}` : ''}</summary>`,
  );
  out.push(
    '<table><tr><th>engine</th><th>estimatedTokens</th><th>promptAuthority</th><th>precheck</th><th>systemPromptAddition</th></tr>',
  );
  out.push(
    `<tr><td>${escapeHtml(turn.engine.engineId)}${turn.engine.quarantined ? ' (quarantined → legacy)' : ''}</td>` +
      `<td class="num">${fmt(turn.estimatedTokens)}</td><td>${escapeHtml(turn.promptAuthority ?? '–')}</td>` +
      `<td>${turn.precheck.skipped ? `skipped: ${escapeHtml(turn.precheck.skipReason ?? '')}` : `${escapeHtml(turn.precheck.route)} (${turn.precheck.estimatedTokens} / ${turn.precheck.promptBudgetBeforeReserve})`}</td>` +
      `<td>${turn.systemPromptAddition ? previewText(turn.systemPromptAddition, 200) : '–'}</td></tr></table>`,
  );
  if (turn.error) out.push(`<p class="status-bad">${escapeHtml(turn.error)}</p>`);
  for (const event of turn.events) {
    if (event.type !== 'compaction') continue;
    const cause = compactionCauseLine(event, turn);
    if (cause) out.push(`<p class="muted">${escapeHtml(event.trigger)} compaction — why: ${escapeHtml(cause)}</p>`);
  }
  out.push('<table><tr><th>call</th><th>attempt</th><th class="num">ms</th><th>outcome</th></tr>');
  for (const call of turn.calls) {
    out.push(
      `<tr><td class="mono">${escapeHtml(call.method)}${call.note ? ` <span class="muted">${escapeHtml(call.note)}</span>` : ''}</td>` +
        `<td class="num">${call.attempt}</td><td class="num">${call.durationMs.toFixed(1)}</td>` +
        `<td class="${call.outcome === 'ok' ? 'status-ok' : 'status-bad'}">${escapeHtml(call.outcome)}${call.error ? `: ${escapeHtml(call.error)}` : ''}${call.fellBack ? ' (legacy fallback answered)' : ''}</td></tr>`,
    );
  }
  out.push('</table>');
  out.push(
    `<p class="muted">kept ${turn.omitted.keptCount} · summarized ${turn.omitted.summarizedCount} · dropped ${turn.omitted.droppedCount} of ${turn.historyCount} transcript messages</p>`,
  );
  if (withMessages) {
    out.push(
      '<table><tr><th class="num">#</th><th>provenance</th><th>role</th><th class="num">tiktoken</th><th class="num">est</th><th>content</th></tr>',
    );
    turn.assembled.forEach((ref, i) => {
      const record = recording.messages[ref.key];
      out.push(
        `<tr><td class="num">${i}</td><td class="prov-${escapeHtml(ref.provenance)}">${escapeHtml(ref.provenance)}</td>` +
          `<td>${escapeHtml(record?.role ?? '?')}</td><td class="num">${ref.tiktokenTokens}</td><td class="num">${ref.estTokens}</td>` +
          `<td>${previewText(messagePreview(record))}</td></tr>`,
      );
    });
    out.push('</table>');
  }
  out.push('</details>');
  return out.join('');
}

/**
 * Document head, title, the session line (turns and messages as src/view's sessionCounts defines them) and the
 * problem line of the root lanes (error and warning turns, as the app's Replay header counts them).
 */
function renderHeading(recording: Recording, title: string, rootLanes: readonly string[]): string {
  const out: string[] = [];
  const counts = recordedSessionCounts(recording.session);
  const problems = problemSummary(problemCounts(recording, rootLanes));
  out.push(
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(title)}</title><style>${CSS}</style></head><body>`,
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="muted">${escapeHtml(recording.session.path ?? '(in-memory session)')} · ${counts.turns} turns · ` +
      `${counts.messages} messages · recorded ${escapeHtml(recording.createdAt)} by ${escapeHtml(recording.generator.name)} ${escapeHtml(recording.generator.version)} · ` +
      `replay ${(recording.stats.wallMs / 1000).toFixed(2)} s</p>`,
    `<p class="${problems.tone === 'bad' ? 'status-bad' : problems.tone === 'warn' ? 'sev-warning' : 'status-ok'}" ` +
      `id="problems" title="${escapeHtml(problems.title)}">${escapeHtml(problems.text)}</p>`,
  );
  return out.join('\n');
}

/** One row per lane (and its setup error). */
function renderLaneTable(recording: Recording): string {
  const out: string[] = [];
  out.push(
    '<h2>Lanes</h2><table><tr><th>lane</th><th>spec</th><th>engine</th><th class="num">window</th><th class="num">reserve</th><th>host</th><th class="num">turns</th>' +
      `<th class="num" title="${escapeHtml(PROBLEM_DEFINITIONS.error)}">error turns</th><th class="num" title="${escapeHtml(PROBLEM_DEFINITIONS.warning)}">warning turns</th></tr>`,
  );
  for (const lane of recording.lanes) {
    const problems = problemCounts(recording, [lane.id]);
    out.push(
      `<tr><td>${swatch(recording, lane.id)}${escapeHtml(lane.label)}${lane.parentLane ? ` <span class="muted">(subagent of ${escapeHtml(lane.parentLane)})</span>` : ''}</td>` +
        `<td class="mono">${escapeHtml(lane.spec)}</td><td>${escapeHtml(lane.requestedEngineId)}</td>` +
        `<td class="num">${lane.contextWindow}</td><td class="num">${lane.reserveTokens}</td><td>${escapeHtml(lane.host.label)}</td>` +
        `<td class="num">${lane.turnCount}</td><td class="num">${problems.errorTurns}</td><td class="num">${problems.warningTurns}</td></tr>`,
    );
    if (lane.error) out.push(`<tr><td colspan="9" class="status-bad">${escapeHtml(lane.error)}</td></tr>`);
  }
  out.push('</table>');
  return out.join('\n');
}

/** Tokens per turn for the root lanes, then one chart per subagent lane. */
function renderCharts(recording: Recording, rootLanes: string[]): string {
  const out: string[] = [];
  const childLanes = recording.lanes.filter((l) => l.parentLane);
  out.push('<h2>Tokens per turn</h2>');
  out.push(
    renderBudgetChart({
      title: 'Assembled tokens (tiktoken) per turn; dashed: token budget; triangles: compactions; squares: quarantines',
      series: chartSeries(recording, rootLanes),
      recordedCompactionTurns: recording.session.recordedCompactions.map((c) => c.turn),
    }),
  );
  for (const child of childLanes) {
    out.push(`<h3>Subagent lane ${escapeHtml(child.label)}</h3>`);
    out.push(
      renderBudgetChart({ title: `Subagent ${child.label}`, series: chartSeries(recording, [child.id]), height: 200 }),
    );
  }
  return out.join('\n');
}

/** The findings table (first 500) and the lane-level events. */
function renderFindings(recording: Recording): string {
  const out: string[] = [];
  out.push(`<h2>Findings (${recording.findings.length})</h2>`);
  if (recording.findings.length === 0) out.push('<p class="muted">No findings.</p>');
  else {
    out.push('<table><tr><th>severity</th><th>code</th><th>lane</th><th class="num">turn</th><th>message</th></tr>');
    for (const f of recording.findings.slice(0, 500)) {
      out.push(
        `<tr><td class="sev-${escapeHtml(f.severity)}">${escapeHtml(f.severity)}</td><td class="mono">${escapeHtml(f.code)}</td>` +
          `<td>${escapeHtml(f.lane)}</td><td class="num">${f.turn === null || f.turn === undefined ? '–' : f.turn + 1}</td><td>${escapeHtml(f.message)}</td></tr>`,
      );
    }
    out.push('</table>');
    if (recording.findings.length > 500)
      out.push(`<p class="muted">… ${recording.findings.length - 500} more in the JSON export.</p>`);
  }
  if (recording.events.length > 0) {
    out.push('<h3>Events outside turns</h3><ul>');
    for (const e of recording.events) out.push(`<li>${escapeHtml(e.lane)}: ${escapeHtml(describeEvent(e))}</li>`);
    out.push('</ul>');
  }
  return out.join('\n');
}

/** The root lanes side by side, one row per turn; ≠ where they differ in what they assembled. */
function renderSideBySide(recording: Recording, rootLanes: string[]): string {
  const out: string[] = [];
  out.push('<h2>Side by side</h2><table class="side-by-side"><tr><th class="num">turn</th>');
  for (const id of rootLanes)
    out.push(
      `<th colspan="3">${swatch(recording, id)}${escapeHtml(recording.lanes.find((l) => l.id === id)?.label ?? id)}</th>`,
    );
  if (rootLanes.length > 1) out.push('<th>lanes differ</th>');
  out.push('</tr><tr><th></th>');
  for (const _ of rootLanes)
    out.push('<th class="num">tokens / budget</th><th class="num">kept·summ·drop</th><th>events</th>');
  if (rootLanes.length > 1) out.push('<th></th>');
  out.push('</tr>');
  for (const row of compareRows(compareLanes(recording, rootLanes))) {
    out.push(`<tr data-turn="${row.turn}"><td class="num">${row.turn + 1}</td>`);
    for (const id of rootLanes) {
      const c = row.lanes[id];
      if (!c) {
        out.push('<td></td><td></td><td></td>');
        continue;
      }
      out.push(
        `<td class="num ${c.status === 'ok' ? '' : 'status-bad'}">${c.tiktokenTokens} / ${c.tokenBudget}</td>` +
          `<td class="num">${c.kept}·${c.summarized}·${c.dropped}</td><td>${escapeHtml([c.status === 'ok' ? '' : c.status, ...c.events].filter(Boolean).join('; '))}</td>`,
      );
    }
    if (rootLanes.length > 1)
      out.push(
        `<td class="differs">${row.differs ? `<a href="#aligned-${row.turn}">≠</a> ${escapeHtml(row.difference)}` : ''}</td>`,
      );
    out.push('</tr>');
  }
  out.push('</table>');
  return out.join('\n');
}

/** Every lane's turns; message lists only where they matter when the report would be too large. */
function renderTurns(recording: Recording, options: HtmlReportOptions): string {
  const out: string[] = [];
  const totalRefs = Object.values(recording.turns).reduce(
    (s, ts) => s + ts.reduce((a, t) => a + t.assembled.length, 0),
    0,
  );
  const mode = options.detailTurns ?? 'auto';
  const listAll = mode === 'all' || (mode === 'auto' && totalRefs <= 40_000);
  const findingTurns = new Set(recording.findings.map((f) => `${f.lane}#${f.turn}`));
  out.push('<h2>Turns</h2>');
  for (const lane of recording.lanes) {
    const turns = recording.turns[lane.id] ?? [];
    out.push(`<h3>${swatch(recording, lane.id)}${escapeHtml(lane.label)}</h3>`);
    turns.forEach((turn, i) => {
      const withMessages =
        listAll || turn.events.length > 0 || findingTurns.has(`${lane.id}#${turn.turn}`) || i === turns.length - 1;
      out.push(renderTurnDetails(recording, turn, withMessages));
    });
  }
  if (!listAll) {
    out.push(
      '<p class="muted">Message lists are shown for turns with events or findings and for each lane\'s last turn; the JSON export has every turn.</p>',
    );
  }
  return out.join('\n');
}

export function renderHtmlReport(recording: Recording, options: HtmlReportOptions = {}): string {
  const title = options.title ?? `ContextScope replay — ${recording.session.sessionId}`;
  const rootLanes = rootLaneIds(recording);
  return [
    renderHeading(recording, title, rootLanes),
    renderLaneTable(recording),
    renderCharts(recording, rootLanes),
    renderFindings(recording),
    renderSideBySide(recording, rootLanes),
    rootLanes.length > 1 ? renderAlignedTurns(compareLanes(recording, rootLanes), options.alignedTurns) : '',
    renderTurns(recording, options),
    '</body></html>',
  ].join('\n');
}
