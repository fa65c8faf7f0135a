/**
 * The CLI table (`contextscope compare`), the HTML report and the app's timeline and budget chart show the same
 * per-turn figures for the same recording — tokens against the budget, kept·summarized·dropped, where the lanes
 * differ, chart markers — and those figures are the recording's own. A real replay of the bundled demo at an 8k
 * window through legacy and the bundled recent-window plugin.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBudgetSeries } from '../../../renderer/src/model/budgetSeries';
import { buildTimelineRows } from '../../../renderer/src/model/timelineRows';
import { formatCompareTable, renderHtmlReport, replaySession, type Recording } from '../../../src/replay';
import { compareLanes, turnDifferences } from '../../../src/view';

const DEMO = resolve(
  import.meta.dirname,
  '../../../resources/sessions/agents/main/sessions/db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl',
);

/** [turn, differs, [tokens, budget, kept, summarized, dropped] per lane] */
type Figures = [number, boolean, number[][]];

function fromCli(table: string, lanes: number): Figures[] {
  const out: Figures[] = [];
  for (const line of table.split('\n')) {
    const m = /^\s*(\d+) (≠| ) │(.*)$/.exec(line);
    if (!m) continue;
    const cells = m[3]!.split('│').slice(0, lanes);
    const figures = cells.map((cell) => {
      const [, tokens, budget, kept, summarized, dropped] = /(\d+)\/(\d+)\s+(\d+)·(\d+)·(\d+)/.exec(cell)!;
      return [tokens, budget, kept, summarized, dropped].map(Number);
    });
    out.push([Number(m[1]) - 1, m[2] === '≠', figures]);
  }
  return out;
}

function fromHtml(html: string, lanes: number): Figures[] {
  const table = /<table class="side-by-side">([\s\S]*?)<\/table>/.exec(html)![1]!;
  return [...table.matchAll(/<tr data-turn="(\d+)">([\s\S]*?)<\/tr>/g)].map(([, turn, row]) => {
    const cells = [...row!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!);
    const figures = Array.from({ length: lanes }, (_, i) => {
      const [tokens, budget] = cells[1 + i * 3]!.split(' / ').map(Number);
      const counts = cells[2 + i * 3]!.split('·').map(Number);
      return [tokens!, budget!, ...counts];
    });
    return [Number(turn), cells[1 + lanes * 3]!.includes('≠'), figures];
  });
}

function fromApp(recording: Recording): Figures[] {
  return buildTimelineRows(recording, recording.lanes, 'tiktoken').map((row) => [
    row.turn,
    row.differs,
    row.cells.map((c) => [c!.tokens, c!.budget, c!.kept, c!.summarized, c!.dropped]),
  ]);
}

function fromRecording(recording: Recording): Figures[] {
  const differs = turnDifferences(compareLanes(recording)).map((d) => d.differs);
  return recording.turns.legacy!.map((_, turn) => [
    turn,
    differs[turn]!,
    recording.lanes.map((lane) => {
      const t = recording.turns[lane.id]![turn]!;
      const o = t.omitted;
      return [t.totals.tiktokenTokens, t.budget.tokenBudget, o.keptCount, o.summarizedCount, o.droppedCount];
    }),
  ]);
}

describe('CLI table, HTML report and app on one recording', () => {
  let recording: Recording;

  beforeAll(async () => {
    recording = await replaySession({
      session: DEMO,
      transcriptFiles: 'none',
      lanes: [
        { engine: { kind: 'legacy' }, contextWindow: 8000 },
        { engine: { kind: 'plugin', plugin: 'recent-window' }, contextWindow: 8000 },
      ],
      plugins: { allowExecute: true },
    });
    expect(recording.lanes.map((l) => [l.id, l.error])).toEqual([
      ['legacy', undefined],
      ['recent-window', undefined],
    ]);
  }, 60_000);

  it('show the same tokens, budgets, kept·summarized·dropped and differing turns, which are the recording’s', () => {
    const expected = fromRecording(recording);
    // the lanes really do differ on some turns and agree on others, so the flag is tested both ways
    expect(new Set(expected.map((f) => f[1]))).toEqual(new Set([true, false]));
    expect(fromCli(formatCompareTable(recording), 2)).toEqual(expected);
    expect(fromHtml(renderHtmlReport(recording), 2)).toEqual(expected);
    expect(fromApp(recording)).toEqual(expected);
  });

  it('mark the same turns on the report’s chart and the app’s budget chart', () => {
    const series = buildBudgetSeries(recording, recording.lanes, 'tiktoken');
    const html = renderHtmlReport(recording);
    const chart = /<svg class="chart"[\s\S]*?<\/svg>/.exec(html)![0];
    const markers = [
      ...chart.matchAll(/<path class="series-(\d) marker( quarantine)?"[^>]*><title>[^<]* turn (\d+):/g),
    ];
    const fromReport = markers.map(([, lane, q, turn]) => [
      Number(lane),
      Number(turn) - 1,
      q ? 'quarantine' : 'compaction',
    ]);
    const fromAppChart = series.points.flatMap((p) =>
      series.lanes.flatMap((lane, i) => (p[lane.markKey] ? [[i, p.turn, p[lane.markKey]]] : [])),
    );
    expect(fromReport.length).toBeGreaterThan(0);
    expect(fromReport.sort()).toEqual(fromAppChart.sort());
  });
});
