import { describe, expect, it } from 'vitest';
import type { ToolResultMessage } from '../../../src/contract';
import {
  countInRanges,
  findRecordedSpawns,
  indicesToRanges,
  maxToolResultChars,
  rangesToIndices,
  recordedTurnOutcome,
  reducibleToolResultChars,
  splitSessionTurns,
  truncateToolResult,
} from '../../../src/replay';
import { SessionBuilder } from './sessionBuilder';

describe('index ranges', () => {
  it('round-trip sorted indices', () => {
    expect(indicesToRanges([0, 1, 2, 5, 7, 8])).toEqual([
      [0, 3],
      [5, 6],
      [7, 9],
    ]);
    expect(
      rangesToIndices([
        [0, 3],
        [5, 6],
      ]),
    ).toEqual([0, 1, 2, 5]);
    expect(
      countInRanges([
        [0, 3],
        [5, 6],
      ]),
    ).toBe(4);
    expect(indicesToRanges([])).toEqual([]);
  });
});

describe('session turns', () => {
  it('split at user messages; compaction entries are kept apart with their turn', () => {
    const b = new SessionBuilder();
    b.assistant('preamble');
    const u1 = b.user('one');
    b.assistant('a1');
    const c = b.compaction('sum', u1.id, 100);
    b.user('two');
    b.assistant('failed', { stopReason: 'error', errorMessage: 'HTTP 500' });
    const split = splitSessionTurns(b.entries);
    expect(split.prelude.map((e) => e.id)).toEqual([b.entries[0].id]);
    expect(split.turns.map((t) => t.entries.length)).toEqual([3, 2]);
    expect(split.compactions).toEqual([{ entry: c, turn: 0 }]);
    expect(recordedTurnOutcome(split.turns[0])).toEqual({ outcome: 'ok' });
    expect(recordedTurnOutcome(split.turns[1])).toEqual({ outcome: 'prompt_error', error: 'HTTP 500' });
  });

  it('reads sessions_spawn calls: defaults, session mode, failures', () => {
    const b = new SessionBuilder()
      .spawnTurn(
        'go',
        { context: 'fork', cleanup: 'delete' },
        { status: 'accepted', childSessionKey: 'agent:main:subagent:1' },
        'c1',
      )
      .spawnTurn(
        'go',
        { thread: true, cleanup: 'delete', lightContext: true },
        { status: 'accepted', childSessionKey: 'agent:main:subagent:2' },
        'c2',
      )
      .spawnTurn('go', {}, { status: 'forbidden', error: 'too deep' }, 'c3');
    expect(findRecordedSpawns(b.entries)).toEqual([
      {
        toolCallId: 'c1',
        contextMode: 'fork',
        lightContext: false,
        mode: 'run',
        cleanup: 'delete',
        childSessionKey: 'agent:main:subagent:1',
        failed: false,
        hasResult: true,
      },
      {
        toolCallId: 'c2',
        contextMode: 'isolated',
        lightContext: true,
        mode: 'session',
        cleanup: 'keep',
        childSessionKey: 'agent:main:subagent:2',
        failed: false,
        hasResult: true,
      },
      {
        toolCallId: 'c3',
        contextMode: 'isolated',
        lightContext: false,
        mode: 'run',
        cleanup: 'keep',
        childSessionKey: null,
        failed: true,
        hasResult: true,
        error: 'too deep',
      },
    ]);
  });
});

describe('tool-result truncation', () => {
  const result = (chars: number): ToolResultMessage => ({
    role: 'toolResult',
    toolCallId: 'c',
    toolName: 'exec',
    content: [{ type: 'text', text: 'y'.repeat(chars) }],
    isError: false,
    timestamp: 1,
  });
  it('caps one result at 30% of the window in chars (4 per token), within [2000, 400000]', () => {
    expect(maxToolResultChars(10_000)).toBe(12_000);
    expect(maxToolResultChars(1_000)).toBe(2_000);
    expect(maxToolResultChars(1_000_000)).toBe(400_000);
    expect(reducibleToolResultChars([result(15_000), result(100)], 10_000)).toBe(3_000);
  });
  it('keeps the head and says how much was removed', () => {
    expect(truncateToolResult(result(100), 10_000)).toBeUndefined();
    const t = truncateToolResult(result(15_000), 10_000)!;
    expect(t.content[0]).toEqual({ type: 'text', text: 'y'.repeat(12_000) });
    expect(t.content[1]).toEqual({
      type: 'text',
      text: '\n\n[Tool result truncated: 3000 characters removed to fit the context window]',
    });
  });
});
