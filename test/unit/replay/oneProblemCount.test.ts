/**
 * Issue 34: one problem count. The HTML report and the CLI (`contextscope replay`'s summary, `contextscope compare`)
 * count error and warning turns as the app's Replay header and its filters do (src/view turnProblems), not findings
 * by severity: a turn with two error findings on two lanes is one error turn, and a finding without a turn is
 * counted apart.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportRecordingJson, formatLaneSummary, renderHtmlReport } from '../../../src/replay';
import { problemCounts, problemSummary } from '../../../src/view';
import { makeRecording } from '../../renderer/recordingFixture';
import { runCli } from './runCli';
import { tempDir } from './sessionBuilder';

/** The renderer fixture with findings that tell the two counts apart (see turnProblems.test). */
function recording() {
  const r = structuredClone(makeRecording());
  r.turns.legacy![0]!.status = 'aborted';
  r.findings.push(
    { code: 'over-budget', severity: 'warning', lane: 'legacy', turn: 1, message: 'assembled 12,000 of 11,935' },
    { code: 'engine-call-failed', severity: 'error', lane: 'legacy', turn: null, message: 'bootstrap() threw' },
    // a second error at a turn that already is an error turn: one error turn still
    {
      code: 'orphaned-tool-call',
      severity: 'error',
      lane: 'recent-window',
      turn: 2,
      message: '1 tool call unanswered',
    },
  );
  return r;
}

describe('error and warning turns outside the app', () => {
  const r = recording();
  const header = problemSummary(problemCounts(r, ['legacy', 'recent-window'])).text;

  it('the fixture tells them apart from findings by severity', () => {
    expect(header).toBe('2 error turns, 1 warning turn · 1 error outside turns');
    const bySeverity = (s: string) => r.findings.filter((f) => f.severity === s).length;
    expect([bySeverity('error'), bySeverity('warning')]).not.toEqual([2, 1]);
    // and per lane: recent-window has one error turn but more error findings
    expect(problemCounts(r, ['recent-window']).errorTurns).toBe(1);
    expect(r.findings.filter((f) => f.lane === 'recent-window' && f.severity === 'error').length).toBeGreaterThan(1);
  });

  it('the HTML report says what the Replay header says, and each lane its error and warning turns', () => {
    const html = renderHtmlReport(r);
    expect(html).toMatch(new RegExp(`<p class="status-bad" id="problems" title="Error turn: [^"]+">${header}</p>`));
    for (const lane of r.lanes) {
      const counts = problemCounts(r, [lane.id]);
      expect(html).toMatch(
        new RegExp(
          `${lane.label}</td>.*?<td class="num">${lane.turnCount}</td><td class="num">${counts.errorTurns}</td><td class="num">${counts.warningTurns}</td></tr>`,
        ),
      );
    }
  });

  it('`replay` prints the same line, and per lane the counts of that lane', () => {
    const lines = formatLaneSummary(r).trimEnd().split('\n');
    expect(lines[0]).toBe(`Problems: ${header}`);
    for (const [i, lane] of r.lanes.entries())
      expect(lines[i + 1]).toMatch(
        new RegExp(`^${lane.label} .*, ${problemSummary(problemCounts(r, [lane.id])).text.replace(/[()]/g, '\\$&')}$`),
      );
  });

  it('`compare` prints the same line before the findings', async () => {
    const file = join(tempDir(), 'fixture.json');
    writeFileSync(file, exportRecordingJson(r));
    const result = await runCli(['compare', file]);
    expect(result.err).toBe('');
    expect(result.out).toContain(`\nProblems: ${header}\n\nFindings (`);
  });
});
