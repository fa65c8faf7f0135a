import { describe, expect, it } from 'vitest';
import {
  alignTurn,
  cellText,
  compareLanes,
  displayItems,
  rowLabel,
  turnDifference,
  type AlignedTurn,
} from '../../../src/view';
import { laneTurnState } from '../../../src/view/laneTurnState';
import { quarantineEvent, ViewRecording } from './viewRecording';

const KEYS = ['u1', 'a1', 'u2', 'a2', 't2', 'u3', 'a3'];

/** `[row id, status per lane]` for every row, in display order. */
function statuses(aligned: AlignedTurn): [string, ...string[]][] {
  return aligned.rows.map((row) => [row.id, ...row.cells.map((cell) => cellText(cell))]);
}

describe('message alignment across lanes', () => {
  it('keeps a message one row when another lane sends it elsewhere, and flags the move', () => {
    const rec = new ViewRecording(KEYS)
      .lane('legacy', [{ history: 4, assembled: ['u1', 'a1', 'u2', 'a2'] }])
      .lane('shuffle', [{ history: 4, assembled: ['u2', 'a2', 'u1', 'a1'] }])
      .build();
    const aligned = alignTurn(compareLanes(rec), 0);
    expect(statuses(aligned)).toEqual([
      ['u1', 'sent', 'sent'],
      ['a1', 'sent', 'sent'],
      ['u2', 'sent', 'sent'],
      ['a2', 'sent', 'sent'],
    ]);
    expect(aligned.rows.map((r) => r.cells[1]!.position)).toEqual([2, 3, 0, 1]);
    // the longest run kept in legacy's order is u1,a1 (or u2,a2): two messages moved, not four
    expect(aligned.rows.filter((r) => r.cells[1]!.moved)).toHaveLength(2);
    expect(aligned.difference.differs).toBe(true);
    expect(aligned.difference.summary).toBe('shuffle: 2 messages in a different order');
  });

  it('puts a summary before the span it replaces and points the summarized messages at it', () => {
    const rec = new ViewRecording(KEYS)
      .lane('legacy', [{ history: 5, assembled: ['u1', 'a1', 'u2', 'a2', 't2'] }])
      .lane('summarizer', [
        { history: 5, assembled: [{ summary: 's1', covers: [[0, 3]] }, 'a2', 't2'], summarized: [[0, 3]] },
      ])
      .build();
    const aligned = alignTurn(compareLanes(rec), 0);
    expect(statuses(aligned)).toEqual([
      ['summary:0-3', 'absent', 'summary'],
      ['u1', 'sent', 'summarized → 1'],
      ['a1', 'sent', 'summarized → 1'],
      ['u2', 'sent', 'summarized → 1'],
      ['a2', 'sent', 'sent'],
      ['t2', 'sent', 'sent'],
    ]);
    expect(rowLabel(aligned.rows[0]!)).toBe('summary of messages 1–3');
    expect(aligned.rows[0]!.onlyIn).toBe(1);
    expect(aligned.difference.summary).toBe(
      'summarizer left out 3 messages that legacy sent; summarized 3; sent 1 that legacy did not',
    );
  });

  it('takes the span of a summary that does not state it from the summarized messages around it', () => {
    const rec = new ViewRecording(KEYS)
      .lane('a', [{ history: 5, assembled: [{ summary: 's-a' }, 'u2', 'a2', 't2'], summarized: [[0, 2]] }])
      .lane('b', [
        {
          history: 5,
          assembled: [{ summary: 's-b', coversKeys: ['u1', 'a1'] }, 'u2', 'a2', 't2'],
          summarized: [[0, 2]],
        },
      ])
      .build();
    const aligned = alignTurn(compareLanes(rec), 0);
    // both summaries stand for messages 1–2: one row; their texts differ, so the lanes differ on it
    expect(aligned.rows[0]!.id).toBe('summary:0-2');
    expect(aligned.rows[0]!.cells.map((c) => c.key)).toEqual(['s-a', 's-b']);
    expect(aligned.rows[0]!.agree).toBe(false);
    expect(aligned.difference.summary).toBe('b: 1 message sent differently');
  });

  it('aligns a modified message with the transcript message it came from and compares the copies', () => {
    const rec = new ViewRecording(KEYS)
      .lane('legacy', [{ history: 5, assembled: ['u1', 'a1', 'u2', 'a2', 't2'] }])
      .lane('trim', [
        { history: 5, assembled: ['u1', 'a1', 'u2', 'a2', { modified: 't2', key: 'h:t2a', text: 'FAIL (cut)' }] },
      ])
      .lane('trim2', [
        { history: 5, assembled: ['u1', 'a1', 'u2', 'a2', { modified: 't2', key: 'h:t2b', text: 'FAIL (cut short)' }] },
      ])
      .build();
    const row = alignTurn(compareLanes(rec), 0).rows.find((r) => r.id === 't2')!;
    expect(row.cells.map((c) => [c.status, c.key, c.position])).toEqual([
      ['sent', 't2', 4],
      ['modified', 'h:t2a', 4],
      ['modified', 'h:t2b', 4],
    ]);
    expect(turnDifference(compareLanes(rec, ['legacy', 'trim']), 0).summary).toBe('trim: 1 message sent differently');
    const twoTrims = compareLanes(rec, ['trim', 'trim2']);
    expect(turnDifference(twoTrims, 0).summary).toBe('trim2: 1 message sent differently');
    const sameTrim = compareLanes(rec, ['trim', 'trim']);
    expect(turnDifference(sameTrim, 0).differs).toBe(false);
  });

  it('aligns synthetic messages by what produced them and tells their content apart', () => {
    const memory = (key: string, text: string) => ({ synthetic: key, text, customType: 'memory' });
    const rec = new ViewRecording(KEYS)
      .lane('a', [{ history: 2, assembled: [memory('h:m1', 'prefer cents'), 'u1', 'a1'] }])
      .lane('b', [{ history: 2, assembled: [memory('h:m2', 'prefer cents'), 'u1', 'a1'] }])
      .lane('c', [{ history: 2, assembled: [memory('h:m3', 'prefer euros'), 'u1', 'a1'] }])
      .lane('d', [{ history: 2, assembled: ['u1', 'a1'] }])
      .build();
    const ab = alignTurn(compareLanes(rec, ['a', 'b']), 0);
    expect(statuses(ab)[0]).toEqual(['synthetic:custom:memory', 'synthetic', 'synthetic']);
    expect(rowLabel(ab.rows[0]!)).toBe('synthetic custom:memory');
    expect(ab.difference.differs).toBe(false);
    expect(turnDifference(compareLanes(rec, ['a', 'c']), 0).summary).toBe('c: 1 message sent differently');
    const ad = alignTurn(compareLanes(rec, ['a', 'd']), 0);
    expect(ad.rows[0]!.onlyIn).toBe(0);
    expect(ad.difference.summary).toBe('d left out 1 message that a sent');
  });

  it('gives a repeated message its own row (#2), so every assembled message has exactly one', () => {
    const rec = new ViewRecording(KEYS)
      .lane('legacy', [{ history: 2, assembled: ['u1', 'a1'] }])
      .lane('echo', [{ history: 2, assembled: ['u1', 'a1', 'u1'] }])
      .build();
    const aligned = alignTurn(compareLanes(rec), 0);
    expect(statuses(aligned)).toEqual([
      ['u1', 'sent', 'sent'],
      ['a1', 'sent', 'sent'],
      ['u1#2', 'absent', 'sent'],
    ]);
    expect(rowLabel(aligned.rows[2]!)).toBe('user (copy 2)');
    expect(aligned.difference.summary).toBe('echo sent 1 that legacy did not');
  });

  it('marks the messages of a lane that has no such turn absent and says so', () => {
    const rec = new ViewRecording(KEYS)
      .lane('long', [
        { history: 0, assembled: [] },
        { history: 2, assembled: ['u1', 'a1'] },
      ])
      .lane('short', [{ history: 0, assembled: [] }])
      .build();
    const input = compareLanes(rec);
    expect(turnDifference(input, 0).differs).toBe(false);
    const aligned = alignTurn(input, 1);
    expect(statuses(aligned)).toEqual([
      ['u1', 'sent', 'absent'],
      ['a1', 'sent', 'absent'],
    ]);
    expect(aligned.columns[1]!.record).toBeNull();
    expect(aligned.difference.summary).toBe('short has no turn 2');
  });

  it('shows a quarantined lane that fell back to legacy with its banner, and no difference when it sends the same', () => {
    const fellBack = { requestedId: 'faulty', engineId: 'legacy', quarantined: true };
    const rec = new ViewRecording(KEYS)
      .lane('legacy', [
        { history: 0, assembled: [] },
        { history: 2, assembled: ['u1', 'a1'] },
        { history: 5, assembled: ['u1', 'a1', 'u2', 'a2', 't2'] },
      ])
      .lane('faulty', [
        { history: 0, assembled: [] },
        { history: 2, assembled: ['u1', 'a1'], engine: fellBack, events: [quarantineEvent('faulty', 1)] },
        { history: 5, assembled: ['u1', 'a1', 'u2', 'a2', 't2'], engine: fellBack },
      ])
      .build();
    const input = compareLanes(rec);
    expect(alignTurn(input, 0).columns[1]!.quarantine).toBeNull();
    const aligned = alignTurn(input, 2);
    expect(aligned.difference.differs).toBe(false);
    expect(aligned.columns[1]!.quarantine).toMatchObject({ engineId: 'faulty', operation: 'assemble', turn: 1 });
    expect(aligned.columns[1]!.quarantine!.text).toBe(
      'faulty was quarantined in assemble at turn 2: boom. The lane runs on legacy from then on.',
    );
    expect(aligned.columns[0]!.quarantine).toBeNull();
  });

  it('tells lanes apart by their system prompt addition alone', () => {
    const rec = new ViewRecording(KEYS)
      .lane('a', [{ history: 2, assembled: ['u1', 'a1'] }])
      .lane('b', [{ history: 2, assembled: ['u1', 'a1'], systemPromptAddition: '## Memory' }])
      .build();
    expect(turnDifference(compareLanes(rec), 0).summary).toBe('b: a different system prompt addition');
  });

  it('does not count token totals: two lanes sending the same messages with different counts agree', () => {
    const rec = new ViewRecording(KEYS)
      .lane('a', [{ history: 2, assembled: ['u1', 'a1'] }])
      .lane('b', [{ history: 2, assembled: ['u1', 'a1'] }])
      .build();
    rec.turns.b![0]!.totals.estTokens += 500;
    rec.turns.b![0]!.budget.tokenBudget = 100;
    expect(turnDifference(compareLanes(rec), 0).differs).toBe(false);
  });
});

describe('folding and the changed filter', () => {
  const rec = new ViewRecording(KEYS)
    .lane('legacy', [
      { history: 2, assembled: ['u1', 'a1'] },
      { history: 7, assembled: KEYS },
    ])
    .lane('window', [
      { history: 2, assembled: ['u1', 'a1'] },
      { history: 7, assembled: ['a2', 't2', 'u3', 'a3'] },
    ])
    .build();

  it('folds runs of rows every lane agrees on into one line', () => {
    const items = displayItems(alignTurn(compareLanes(rec), 1).rows);
    expect(items.map((i) => (i.type === 'fold' ? i.label : i.row.id))).toEqual([
      'u1',
      'a1',
      'u2',
      '4 messages identical in all lanes',
    ]);
    const open = displayItems(alignTurn(compareLanes(rec), 1).rows, { open: new Set([3]) });
    expect(open).toHaveLength(7);
  });

  it('keeps only the rows a lane changed since its previous turn', () => {
    const rows = alignTurn(compareLanes(rec), 1).rows;
    // window dropped u1 and a1 it sent before; u2..a3 are new to the history of both lanes
    expect(rows.filter((r) => r.changed).map((r) => r.id)).toEqual(['u1', 'a1', 'u2', 'a2', 't2', 'u3', 'a3']);
    expect(rows.filter((r) => r.cells[0]!.changed).map((r) => r.id)).toEqual(['u2', 'a2', 't2', 'u3', 'a3']);
    const items = displayItems(rows, { changedOnly: true, minRun: Infinity });
    expect(items.map((i) => (i.type === 'row' ? i.row.id : i.label))).toEqual(rows.map((r) => r.id));
  });
});

describe('what each row and cell says', () => {
  it('gives a transcript message no lane has no row (a gap between the history and a later message)', () => {
    // history 3: a2 (index 3) is neither in the history nor sent, t2 (index 4) is sent
    const rec = new ViewRecording(KEYS)
      .lane('a', [{ history: 3, assembled: ['u1', 'a1', 'u2', 't2'] }])
      .lane('b', [{ history: 3, assembled: ['u1', 'a1', 'u2', 't2'] }])
      .build();
    expect(alignTurn(compareLanes(rec), 0).rows.map((r) => r.id)).toEqual(['u1', 'a1', 'u2', 't2']);
  });

  it('sizes a lane’s turn to its history and what it sent, not the session, and the gap still has no row', () => {
    // lane b's turn covers u1 alone (index 0): its state ends there, and a2 (index 3) is in no lane's turn either way
    const rec = new ViewRecording(KEYS)
      .lane('a', [{ history: 3, assembled: ['u1', 'a1', 'u2', 't2'] }])
      .lane('b', [{ history: 1, assembled: ['u1'] }])
      .build();
    const input = compareLanes(rec);
    expect(laneTurnState(input.columns[0]!, 0, input.session).status.length).toBe(5);
    expect(laneTurnState(input.columns[1]!, 0, input.session).status.length).toBe(1);
    expect(statuses(alignTurn(input, 0))).toEqual([
      ['u1', 'sent', 'sent'],
      ['a1', 'sent', 'absent'],
      ['u2', 'sent', 'absent'],
      ['t2', 'sent', 'absent'],
    ]);
  });

  it('describes a row from the first lane that has it: kind, role, preview; a summary its span, others none', () => {
    const rec = new ViewRecording(KEYS)
      .lane('a', [
        {
          history: 4,
          assembled: [
            { summary: 's1', covers: [[0, 2]] },
            { synthetic: 'h:m', text: 'memo', customType: 'memory' },
            'u2',
            'a2',
          ],
          summarized: [[0, 2]],
        },
      ])
      .build();
    const rows = alignTurn(compareLanes(rec), 0).rows;
    // the memo follows no transcript message in the lane (a summary is none), so it stands first
    expect(rows.map((r) => [r.id, r.kind, r.role, r.preview, r.span])).toEqual([
      ['synthetic:custom:memory', 'synthetic', 'custom', 'memo', null],
      ['summary:0-2', 'summary', 'compactionSummary', 'summary s1', [[0, 2]]],
      ['u1', 'transcript', 'user', 'text of u1', null],
      ['a1', 'transcript', 'assistant', 'text of a1', null],
      ['u2', 'transcript', 'user', 'text of u2', null],
      ['a2', 'transcript', 'assistant', 'text of a2', null],
    ]);
  });

  it('says "unknown" with no preview for a message the Recording does not hold', () => {
    const rec = new ViewRecording(KEYS).lane('a', [{ history: 2, assembled: ['u1', 'a1'] }]).build();
    delete rec.messages.a1;
    const row = alignTurn(compareLanes(rec), 0).rows[1]!;
    expect([row.role, row.preview]).toEqual(['unknown', '']);
  });

  it('keys a left-out message by the transcript message, and an absent one by nothing', () => {
    const rec = new ViewRecording(KEYS)
      .lane('all', [{ history: 2, assembled: ['u1', 'a1'] }])
      .lane('dropper', [{ history: 2, assembled: ['a1'] }])
      .lane('none', [])
      .build();
    const u1 = alignTurn(compareLanes(rec), 0).rows[0]!;
    expect(u1.cells.map((c) => [c.status, c.key])).toEqual([
      ['sent', 'u1'],
      ['dropped', 'u1'],
      ['absent', null],
    ]);
  });

  it('names the one lane that has a row, never when both have it or there is one lane', () => {
    const rec = new ViewRecording(KEYS)
      .lane('a', [{ history: 2, assembled: ['u1', 'a1'] }])
      .lane('b', [{ history: 2, assembled: ['u1', 'a1', 'u1'] }])
      .build();
    const both = alignTurn(compareLanes(rec), 0).rows;
    expect(both.map((r) => r.onlyIn)).toEqual([null, null, 1]);
    const alone = alignTurn(compareLanes(rec, ['a']), 0).rows;
    expect(alone.map((r) => r.onlyIn)).toEqual([null, null]);
  });

  it('orders extras after the same message by lane, then by position in the lane', () => {
    const memo = (key: string, customType: string) => ({ synthetic: key, text: key, customType });
    const rec = new ViewRecording(KEYS)
      .lane('a', [{ history: 2, assembled: ['u1', memo('h:a1', 'first'), memo('h:a2', 'second')] }])
      .lane('b', [{ history: 2, assembled: ['u1', memo('h:b1', 'third'), 'a1'] }])
      .build();
    expect(alignTurn(compareLanes(rec), 0).rows.map((r) => r.id)).toEqual([
      'u1',
      'synthetic:custom:first',
      'synthetic:custom:second',
      'synthetic:custom:third',
      'a1',
    ]);
  });

  it('marks a message changed when the lane sends another copy of it than the turn before', () => {
    const rec = new ViewRecording(KEYS)
      .lane('trim', [
        { history: 2, assembled: ['u1', { modified: 'a1', key: 'h:a1x', text: 'cut' }] },
        { history: 2, assembled: ['u1', { modified: 'a1', key: 'h:a1y', text: 'cut shorter' }] },
      ])
      .build();
    const rows = alignTurn(compareLanes(rec), 1).rows;
    expect(rows.map((r) => [r.id, r.cells[0]!.status, r.changed])).toEqual([
      ['u1', 'sent', false],
      ['a1', 'modified', true],
    ]);
  });
});

describe('which summary a summarized message points at', () => {
  const summarizedInto = (aligned: AlignedTurn) =>
    aligned.rows.map((r) => [r.id, r.cells[0]!.status, r.cells[0]!.summarizedInto]);

  it('the summary whose span holds it, when a lane has several', () => {
    const rec = new ViewRecording(KEYS)
      .lane('a', [
        {
          history: 5,
          assembled: [{ summary: 's1', covers: [[0, 2]] }, { summary: 's2', covers: [[2, 4]] }, 't2'],
          summarized: [[0, 4]],
        },
      ])
      .build();
    expect(summarizedInto(alignTurn(compareLanes(rec), 0))).toEqual([
      ['summary:0-2', 'summary', null],
      ['u1', 'summarized', 0],
      ['a1', 'summarized', 0],
      ['summary:2-4', 'summary', null],
      ['u2', 'summarized', 3],
      ['a2', 'summarized', 3],
      ['t2', 'sent', null],
    ]);
  });

  it('the first summary of unknown span when no span holds it, never a synthetic message', () => {
    // s1 covers u1 only; s2 and s3 stand after t2, the last message of the history: their span is unknown
    const rec = new ViewRecording(KEYS)
      .lane('a', [
        {
          history: 5,
          assembled: [
            { summary: 's1', covers: [[0, 1]] },
            'a1',
            't2',
            { synthetic: 'h:m', text: 'memo', customType: 'memory' },
            { summary: 's2' },
            { summary: 's3' },
          ],
          summarized: [
            [0, 1],
            [2, 4],
          ],
        },
      ])
      .build();
    const rows = alignTurn(compareLanes(rec), 0).rows;
    const rowOf = (id: string) => rows.findIndex((r) => r.id === id);
    const into = Object.fromEntries(rows.map((r) => [r.id, r.cells[0]!.summarizedInto]));
    expect(into.u1).toBe(rowOf('summary:0-1'));
    expect(into.u2).toBe(rowOf('summary:?0'));
    expect(into.a2).toBe(rowOf('summary:?0'));
    // sent messages and the extras themselves point nowhere
    expect([into.a1, into.t2, into['synthetic:custom:memory'], into['summary:?0']]).toEqual([null, null, null, null]);
  });
});
