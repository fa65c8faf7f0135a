import { describe, expect, it } from 'vitest';
import { prepareCompaction } from '../../../src/engines/legacy';
import { assistantCall, assistantText, branch, toolResult, usage, user } from './helpers';

const t = (n: number) => 'x'.repeat(4 * n);
const SETTINGS = { enabled: true, reserveTokens: 1000, keepRecentTokens: 300 };

describe('prepareCompaction', () => {
  it('returns undefined for an empty path, after a reset, and after a hook compaction', () => {
    expect(prepareCompaction([], SETTINGS)).toBeUndefined();
    expect(prepareCompaction(branch([user('a'), { type: 'reset', reason: 'idle' }]), SETTINGS)).toBeUndefined();
    expect(
      prepareCompaction(
        branch([
          user('a'),
          { type: 'compaction', summary: 's', firstKeptEntryId: 'e1', tokensBefore: 1, fromHook: true },
        ]),
        SETTINGS,
      ),
    ).toBeUndefined();
  });

  it('summarizes from the previous compaction’s first kept entry and returns its summary', () => {
    const entries = branch([
      user(`old ${t(100)}`), // e1
      assistantText(`old answer ${t(100)}`), // e2
      {
        type: 'compaction',
        summary: 'PREV',
        firstKeptEntryId: 'e2',
        tokensBefore: 500,
        details: { readFiles: ['x.md'], modifiedFiles: ['y.ts'] },
      }, // e3
      user(`new ${t(100)}`), // e4
      assistantText(`new answer ${t(100)}`), // e5
      user(`latest ${t(100)}`), // e6
    ]);
    const prep = prepareCompaction(entries, { ...SETTINGS, keepRecentTokens: 50 })!;
    expect(prep.previousSummary).toBe('PREV');
    expect(prep.previousSummaryDetails).toEqual({ readFiles: ['x.md'], modifiedFiles: ['y.ts'] });
    expect(prep.firstKeptEntryId).toBe('e6');
    // e2 (kept by the previous compaction) is summarized again; e1 is already inside PREV
    expect(prep.messagesToSummarize.map((m) => (m.role === 'assistant' ? 'a' : 'u'))).toEqual(['a', 'u', 'a']);
    expect([...prep.fileOps.read]).toEqual(['x.md']);
    expect([...prep.fileOps.edited]).toEqual(['y.ts']);
  });

  it('after a reset, the reset’s kept prelude (tool-pair safe) is always summarized', () => {
    const entries = branch([
      user(`before ${t(10)}`), // e1
      assistantCall('c1', 'read', { path: 'p.ts' }), // e2
      toolResult('c1', 'read', 'r'), // e3
      toolResult('zz', 'read', 'orphan'), // e4: not kept by the reset
      { type: 'reset', reason: 'new', firstKeptEntryId: 'e1' }, // e5
      user(`after ${t(100)}`), // e6
      assistantText(`answer ${t(100)}`), // e7
      user(`latest ${t(30)}`), // e8 (32 tokens)
    ]);
    // keep = 5 + the prelude's own estimate (12 + 5 + 1 = 18) = 23, reached on e8
    const prep = prepareCompaction(entries, { ...SETTINGS, keepRecentTokens: 5 })!;
    expect(prep.effectiveKeepRecentTokens).toBe(23);
    expect(prep.firstKeptEntryId).toBe('e8');
    expect(prep.messagesToSummarize.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'user',
      'assistant',
    ]);
    // the reset is not a compaction: nothing is carried from it
    expect(prep.previousSummary).toBeUndefined();
  });

  it('scales keepRecentTokens into estimate units when provider usage anchors the context size', () => {
    const entries = branch([user(t(100)), assistantText(t(100), { usage: usage(2000) }), user(t(100))]);
    const prep = prepareCompaction(entries, SETTINGS)!;
    // estimated 300, usage 2000 → scale 2000/300; 300 / (2000/300) = 45
    expect(prep.effectiveKeepRecentTokens).toBeCloseTo(45, 9);
    expect(prep.tokensBefore).toBe(2100);
  });
});
