/**
 * 2026.9.6 records `context.compiled` through its diagnostic projection, which visits at most 64 objects and arrays
 * per payload and writes "[Truncated]" in place of each one after that (@openclaw/ai `projectDiagnosticValue`). A
 * long turn's record therefore ends in messages whose content and usage, then whole messages, are that string
 * (tool-results-64k-long turns 5–6 on 2026.9.6). The comparison takes it as "an object was here", nothing more.
 */
import { describe, expect, it } from 'vitest';
import { compareRecordedContext } from '../../../src/replay/trajectory/compareContext';

const user = { role: 'user', content: 'Read part4.txt', timestamp: 1 };
const toolCall = {
  role: 'assistant',
  content: [{ type: 'toolCall', id: 'call60', name: 'read', arguments: { path: 'part4.txt' } }],
  usage: { input: 21621, output: 29, totalTokens: 21650 },
  stopReason: 'toolUse',
};
const toolResult = { role: 'toolResult', toolCallId: 'call60', content: [{ type: 'text', text: 'part 4 record' }] };

describe('a 2026.9.6 trajectory cut by its 64-node diagnostic budget', () => {
  it('matches when the objects and arrays past the budget were recorded as "[Truncated]"', () => {
    const recorded = [user, { ...toolCall, content: ['[Truncated]'], usage: '[Truncated]' }, '[Truncated]'];
    const result = compareRecordedContext(recorded, [user, toolCall, toolResult]);
    expect(result).toMatchObject({ exact: true, truncated: true, recordedCount: 3, replayedCount: 3 });
  });

  it('still reports a primitive the budget does not touch, and a message the replay does not have', () => {
    const otherStop = [user, { ...toolCall, content: ['[Truncated]'], usage: '[Truncated]', stopReason: 'stop' }];
    expect(compareRecordedContext(otherStop, [user, toolCall]).difference).toMatchObject({
      index: 1,
      field: 'stopReason',
    });
    expect(compareRecordedContext([user, '[Truncated]'], [user]).exact).toBe(false);
    // a string that reads "[Truncated]" where the replay has another string is a difference, not a budget mark
    expect(compareRecordedContext([{ ...user, content: '[Truncated]' }], [user]).exact).toBe(false);
  });
});
