/**
 * Issue 34: what an error, a warning and a finding turn are (src/view/turnProblems.ts), and the counts over the
 * lanes shown: a turn counts once however many lanes have it; findings without a turn count apart.
 */
import { describe, expect, it } from 'vitest';
import { problemCounts, problemSummary, recordingFindings, turnProblems } from '../../../src/view';
import { makeRecording } from '../../renderer/recordingFixture';

/** The renderer fixture (turn 2 of recent-window: prompt error + an error finding; turn 1: a warning finding and a
 * warning event) with a warning finding on legacy's turn 1, an error status on legacy's turn 0, and an error
 * finding that belongs to no turn. */
function recording() {
  const r = structuredClone(makeRecording());
  r.turns.legacy![0]!.status = 'aborted';
  r.findings.push(
    { code: 'over-budget', severity: 'warning', lane: 'legacy', turn: 1, message: 'assembled 12,000 of 11,935' },
    { code: 'engine-call-failed', severity: 'error', lane: 'legacy', turn: null, message: 'bootstrap() threw' },
    { code: 'estimate-drift', severity: 'info', lane: 'recent-window', turn: null, message: 'estimate drifted' },
  );
  return r;
}

describe('error, warning and finding turns', () => {
  it('an error turn did not complete or has an error finding; a warning turn has a warning finding or event', () => {
    const r = recording();
    const at = recordingFindings(r);
    const problems = (lane: string, turn: number) => turnProblems(r.turns[lane]![turn]!, at.at(lane, turn));
    expect(problems('legacy', 0)).toMatchObject({ errors: ['aborted'], warnings: [], hasFinding: false });
    expect(problems('legacy', 1)).toMatchObject({
      errors: [],
      warnings: ['over-budget: assembled 12,000 of 11,935'],
      hasFinding: true,
    });
    expect(problems('legacy', 2)).toMatchObject({ errors: [], warnings: [], hasFinding: false });
    expect(problems('recent-window', 1).warnings).toEqual([
      'estimate-drift: estimatedTokens 50 is far from 38',
      'context engine assemble returned no estimate',
    ]);
    expect(problems('recent-window', 2).errors).toEqual([
      'prompt error: Context overflow: prompt too large for the model (precheck).',
      'quarantined: engine "recent-window" was quarantined in assemble: boom',
    ]);
  });

  it('counts timeline turns once however many lanes have them, and findings outside turns apart', () => {
    const r = recording();
    const both = problemCounts(r, ['legacy', 'recent-window']);
    expect(both).toEqual({
      turns: 3,
      errorTurns: 2, // turn 0 (legacy aborted), turn 2 (recent-window)
      warningTurns: 1, // turn 1, on both lanes
      findingTurns: 2, // turns 1 and 2
      outsideTurns: { errors: 1, warnings: 0, notes: 1 },
    });
    expect(problemCounts(r, ['recent-window'])).toMatchObject({
      errorTurns: 1,
      warningTurns: 1,
      outsideTurns: { errors: 0, warnings: 0, notes: 1 },
    });
    expect(problemSummary(both)).toMatchObject({
      text: '2 error turns, 1 warning turn · 1 error outside turns',
      tone: 'bad',
    });
    expect(problemSummary(problemCounts(makeRecording(), ['legacy'])).text).toBe('no error or warning turns');
  });
});
