import { describe, expect, it } from 'vitest';
import { alignTurn, compareLanes, laneTurnFigures, tokensOf, turnFiguresTable, turnMarker } from '../../../src/view';
import { quarantineEvent, ViewRecording } from './viewRecording';

const KEYS = ['u1', 'a1', 'u2', 'a2', 'u3', 'a3'];

describe('change since the previous turn and prefix stability', () => {
  const rec = new ViewRecording(KEYS)
    .lane('legacy', [
      { history: 2, assembled: ['u1', 'a1'] },
      { history: 4, assembled: ['u1', 'a1', 'u2', 'a2'] },
      { history: 6, assembled: ['u1', 'a1', 'u2', 'a2', 'u3', 'a3'], systemPromptAddition: 'now with memory' },
    ])
    .lane('window', [
      { history: 2, assembled: ['u1', 'a1'] },
      { history: 4, assembled: ['u2', 'a2'] },
      { history: 6, assembled: ['u2', { modified: 'a2', key: 'h:a2', text: 'shorter' }, 'u3', 'a3'] },
    ])
    .build();
  const input = compareLanes(rec);

  it('a lane that only appends keeps its whole prefix (no divergence)', () => {
    const delta = alignTurn(input, 1).columns[0]!.delta;
    expect(delta).toEqual({
      hasPrevious: true,
      added: 2,
      removed: 0,
      changed: 0,
      commonPrefix: 2,
      firstDivergence: null,
      systemPromptAdditionChanged: false,
    });
  });

  it('a lane that drops its oldest messages breaks the prefix at position 0', () => {
    const delta = alignTurn(input, 1).columns[1]!.delta;
    expect([delta.added, delta.removed, delta.changed, delta.commonPrefix, delta.firstDivergence]).toEqual([
      2, 2, 0, 0, 0,
    ]);
  });

  it('a message rewritten in place is changed, not removed and added; the prefix breaks where it stands', () => {
    const delta = alignTurn(input, 2).columns[1]!.delta;
    expect([delta.added, delta.removed, delta.changed, delta.commonPrefix, delta.firstDivergence]).toEqual([
      2, 0, 1, 1, 1,
    ]);
  });

  it('notices a new system prompt addition', () => {
    expect(alignTurn(input, 2).columns[0]!.delta.systemPromptAdditionChanged).toBe(true);
  });

  it('the first turn has nothing to compare with', () => {
    const delta = alignTurn(input, 0).columns[0]!.delta;
    expect([delta.hasPrevious, delta.added, delta.firstDivergence]).toEqual([false, 2, null]);
  });
});

describe('per-turn figures', () => {
  const rec = new ViewRecording(KEYS)
    .lane('legacy', [
      { history: 2, assembled: ['u1', 'a1'] },
      { history: 4, assembled: ['u1', 'a1', 'u2', 'a2'] },
    ])
    .lane('window', [
      { history: 2, assembled: ['u1', 'a1'] },
      {
        history: 4,
        assembled: [{ summary: 's', covers: [[0, 2]] }, 'u2', 'a2'],
        summarized: [[0, 2]],
        events: [quarantineEvent('window', 1)],
      },
    ])
    .build();

  it('counts tokens, budget, kept/summarized/dropped and provenance from the turn record', () => {
    const record = rec.turns.window![1]!;
    const figures = laneTurnFigures(record);
    expect(figures).toMatchObject({
      tokenBudget: 11_900,
      assembledCount: 3,
      kept: 2,
      summarized: 2,
      dropped: 0,
      provenance: { raw: 2, modified: 0, summary: 1, synthetic: 0 },
      route: 'fits',
      marker: 'quarantine',
      events: ['quarantine assemble'],
    });
    expect(tokensOf(figures, 'estimate')).toBe(record.totals.estTokens);
    expect(tokensOf(figures, 'tiktoken')).toBe(record.totals.tiktokenTokens);
    expect(turnMarker(rec.turns.legacy![0]!)).toBeNull();
  });

  it('flags a turn as differing on what was assembled', () => {
    const rows = turnFiguresTable(compareLanes(rec));
    expect(rows.map((r) => [r.differs, r.difference])).toEqual([
      [false, ''],
      [true, 'window left out 2 messages that legacy sent; summarized 2; sent 1 that legacy did not'],
    ]);
  });
});
