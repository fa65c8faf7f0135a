import { describe, expect, it } from 'vitest';
import { findCutPoint } from '../../../src/engines/legacy';
import { assistantCall, assistantText, branch, toolResult, user } from './helpers';

// Each message below is sized so its compaction estimate is easy: 'x'.repeat(4n) → n tokens.
const t = (n: number) => 'x'.repeat(4 * n);

describe('findCutPoint', () => {
  it('keeps roughly keepRecentTokens, cutting at the nearest valid entry at or after the budget position', () => {
    const entries = branch([user(t(10)), assistantText(t(10)), user(t(10)), assistantText(t(10))]);
    // walking back: e4 (10) → e3 (20 ≥ 15) stops at e3, a user turn start
    expect(findCutPoint(entries, 0, entries.length, 15)).toEqual({
      firstKeptEntryIndex: 2,
      turnStartIndex: -1,
      isSplitTurn: false,
    });
  });

  it('never cuts on a toolResult: the cut moves forward to the next valid entry', () => {
    const entries = branch([
      user(t(10)), // e1
      assistantCall('c1', 'read', { path: 'a' }), // e2
      toolResult('c1', 'read', t(50)), // e3: the budget is reached here
      assistantText(t(5)), // e4
    ]);
    const cut = findCutPoint(entries, 0, entries.length, 20);
    expect(entries[cut.firstKeptEntryIndex]!.type).toBe('message');
    expect(cut.firstKeptEntryIndex).toBe(3);
    // e4 is an assistant message in the turn started by e1: the turn is split
    expect(cut).toEqual({ firstKeptEntryIndex: 3, turnStartIndex: 0, isSplitTurn: true });
  });

  it('uses the latest valid cut when trailing tool results exhaust the budget on their own', () => {
    const entries = branch([
      user(t(1)),
      assistantCall('c1', 'bash', { command: 'ls' }),
      toolResult('c1', 'bash', t(500)),
    ]);
    expect(findCutPoint(entries, 0, entries.length, 100)).toEqual({
      firstKeptEntryIndex: 1,
      turnStartIndex: 0,
      isSplitTurn: true,
    });
  });

  it('keeps everything from the first valid cut when the budget is never reached', () => {
    const entries = branch([toolResult('x', 'read', t(1)), user(t(1)), assistantText(t(1))]);
    expect(findCutPoint(entries, 0, entries.length, 1000)).toEqual({
      firstKeptEntryIndex: 1,
      turnStartIndex: -1,
      isSplitTurn: false,
    });
  });

  it('walks back over adjacent metadata entries but not past a message', () => {
    const entries = branch([
      user(t(10)), // e1
      assistantText(t(10)), // e2
      { type: 'model_change', provider: 'openai', modelId: 'gpt-4o' }, // e3
      { type: 'thinking_level_change', thinkingLevel: 'high' }, // e4
      user(t(10)), // e5
      assistantText(t(10)), // e6
    ]);
    const cut = findCutPoint(entries, 0, entries.length, 15);
    expect(cut.firstKeptEntryIndex).toBe(2);
    // faithful to OpenClaw: the cut entry is now metadata, not a turn start, so the turn of e1 counts as split
    expect(cut).toEqual({ firstKeptEntryIndex: 2, turnStartIndex: 0, isSplitTurn: true });
  });

  it('stops the metadata walk-back at a compaction boundary', () => {
    const entries = branch([
      user(t(10)),
      { type: 'compaction', summary: 's', firstKeptEntryId: 'e1', tokensBefore: 1 },
      { type: 'label', targetId: 'e1', label: 'x' },
      user(t(10)),
    ]);
    expect(findCutPoint(entries, 0, entries.length, 5).firstKeptEntryIndex).toBe(2);
  });

  it('stops adding messages once the kept estimate reaches the budget exactly (a budget on a message boundary)', () => {
    const entries = branch([user(t(10)), assistantText(t(10)), user(t(10)), assistantText(t(10))]);
    // walking back: e4 (10) → e3 (20 = 20): the budget is met at e3, so e2 is not kept
    expect(findCutPoint(entries, 0, entries.length, 20).firstKeptEntryIndex).toBe(2);
  });

  it('stops the metadata walk-back at a reset', () => {
    const entries = branch([
      user(t(10)),
      { type: 'reset', reason: 'new' },
      { type: 'label', targetId: 'e1', label: 'x' },
      user(t(10)),
    ]);
    expect(findCutPoint(entries, 0, entries.length, 5).firstKeptEntryIndex).toBe(2);
  });

  it('stops the metadata walk-back at an entry that carries a message without being a message entry', () => {
    const entries = branch([
      user(t(10)), // e1
      assistantText(t(10)), // e2
      { type: 'custom_message', customType: 'note', content: 'n', display: true }, // e3: a custom message
      { type: 'label', targetId: 'e1', label: 'x' }, // e4
      user(t(10)), // e5: the budget is reached here
      assistantText(t(10)), // e6
    ]);
    expect(findCutPoint(entries, 0, entries.length, 15).firstKeptEntryIndex).toBe(3);
  });

  it('stops the metadata walk-back at a message entry even when it is excluded from context', () => {
    const excluded = { ...assistantText(t(10)), excludeFromContext: true } as ReturnType<typeof assistantText>;
    const entries = branch([
      user(t(10)), // e1
      excluded, // e2: a message entry that contributes no message
      { type: 'label', targetId: 'e1', label: 'x' }, // e3
      user(t(10)), // e4: the budget is reached here
      assistantText(t(10)), // e5
    ]);
    expect(findCutPoint(entries, 0, entries.length, 15).firstKeptEntryIndex).toBe(2);
  });

  it('does not call a cut split when its range holds no turn start before it', () => {
    const entries = branch([user(t(10)), assistantText(t(10)), assistantText(t(10))]);
    // the range starts at e2: the cut lands on the assistant e3 and the turn of e1 lies before the range
    expect(findCutPoint(entries, 1, entries.length, 5)).toEqual({
      firstKeptEntryIndex: 2,
      turnStartIndex: -1,
      isSplitTurn: false,
    });
  });

  it('returns the range start when the range has no valid cut', () => {
    const entries = branch([toolResult('a', 'read', t(1)), toolResult('b', 'read', t(1))]);
    expect(findCutPoint(entries, 0, 2, 1)).toEqual({ firstKeptEntryIndex: 0, turnStartIndex: -1, isSplitTurn: false });
  });
});
