import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../src/contract';
import {
  createIncrementalHistoryPipeline,
  HEARTBEAT_TRANSCRIPT_PROMPT,
  runHistoryPipeline,
  type HistoryPipelineOptions,
} from '../../../src/engines/legacy';
import { assistantCall, assistantText, toolResult, user } from './helpers';

/** Message kinds that exercise every stage: heartbeat spans and acks, tool-call groups, orphans, duplicates. */
const messageArb: fc.Arbitrary<() => AgentMessage> = fc.oneof(
  fc.constantFrom('hello', 'next', HEARTBEAT_TRANSCRIPT_PROMPT).map((t) => () => user(t)),
  fc.constantFrom('ok', 'HEARTBEAT_OK', 'the build failed').map((t) => () => assistantText(t)),
  fc.record({ id: fc.constantFrom('c1', 'c2', 'c3', 'c4'), name: fc.constantFrom('read', 'heartbeat_respond') }).map(
    ({ id, name }) =>
      () =>
        assistantCall(id, name, {}),
  ),
  fc.constantFrom('c1', 'c2', 'c3', 'c4', 'c9').map((id) => () => toolResult(id, 'read', 'out')),
  fc.constant(() => assistantText('partial', { stopReason: 'aborted' })),
  fc.constant(
    (): AgentMessage =>
      ({ role: 'custom', customType: 'note', content: 'n', display: true, timestamp: 5 }) as AgentMessage,
  ),
);

/** One step of a lane transcript: appends (the common case), a compaction, a rewrite, or the same input again. */
const stepArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('append' as const), add: fc.array(messageArb, { maxLength: 6 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('compact' as const),
      keep: fc.nat(),
      add: fc.array(messageArb, { maxLength: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewrite' as const), at: fc.nat(), with: messageArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('same' as const) }) },
);

type Step = typeof stepArb extends fc.Arbitrary<infer S> ? S : never;

function apply(previous: AgentMessage[], step: Step): AgentMessage[] {
  switch (step.kind) {
    case 'append':
      return [...previous, ...step.add.map((make) => make())];
    case 'compact': {
      const summary: AgentMessage = {
        role: 'compactionSummary',
        summary: 's',
        tokensBefore: 1,
        timestamp: 9,
      } as AgentMessage;
      const keep = previous.length === 0 ? 0 : step.keep % (previous.length + 1);
      return [summary, ...previous.slice(previous.length - keep), ...step.add.map((make) => make())];
    }
    case 'rewrite': {
      if (previous.length === 0) return [];
      const next = previous.slice();
      next[step.at % next.length] = step.with();
      return next;
    }
    case 'same':
      return previous;
  }
}

function checkSequence(options: HistoryPipelineOptions): void {
  fc.assert(
    fc.property(fc.array(stepArb, { minLength: 1, maxLength: 25 }), (steps) => {
      const incremental = createIncrementalHistoryPipeline(options);
      let messages: AgentMessage[] = [];
      for (const step of steps) {
        messages = apply(messages, step);
        expect(incremental(messages)).toEqual(runHistoryPipeline(messages, options));
      }
    }),
    { numRuns: 1000 },
  );
}

describe('createIncrementalHistoryPipeline', () => {
  it('equals runHistoryPipeline on every call of random append/compaction/rewrite sequences (default options)', () => {
    checkSequence({});
  });

  it('equals runHistoryPipeline with heartbeat filtering off, and with the repair off', () => {
    checkSequence({ heartbeat: false });
    checkSequence({ repairToolResultPairing: false });
  });

  it('equals runHistoryPipeline with options it does not run incrementally (turn validation, history limit)', () => {
    checkSequence({ turnValidation: 'anthropic', historyLimit: 2 });
  });

  it('keeps an open tool-call group open across calls: a result appended later is paired, not orphaned', () => {
    const incremental = createIncrementalHistoryPipeline();
    const first = [user('q'), assistantCall('c1', 'read', {})];
    const firstOut = incremental(first);
    expect(firstOut.inserted).toEqual([{ afterIndex: 1, toolCallId: 'c1' }]);
    const second = [
      ...first,
      user('interjection'),
      toolResult('c1', 'read', 'done'),
      assistantText('ok'),
      user('next'),
    ];
    const out = incremental(second);
    expect(out.messages).toEqual([second[0], second[1], second[3], second[2], second[4], second[5]]);
    expect(out.inserted).toEqual([]);
    expect(out.removed).toEqual([]);
  });

  it('reports a result answering a call from before the checkpoint as a duplicate, as the full pipeline does', () => {
    const incremental = createIncrementalHistoryPipeline();
    const first = [
      user('q'),
      assistantCall('c1', 'read', {}),
      toolResult('c1', 'read', 'a'),
      assistantText('done'),
      user('again'),
    ];
    incremental(first);
    const second = [...first, toolResult('c1', 'read', 'b')];
    const out = incremental(second);
    expect(out.removed).toEqual([{ index: 5, reason: 'duplicate-tool-result' }]);
    expect(out).toEqual(runHistoryPipeline(second));
  });

  it('does not look at messages before the checkpoint again when the input only grew', () => {
    let reads = 0;
    const counted = (text: string): AgentMessage => {
      const message = user(text);
      return new Proxy(message, {
        get(target, property, receiver) {
          reads++;
          return Reflect.get(target, property, receiver);
        },
      });
    };
    const incremental = createIncrementalHistoryPipeline();
    const first = [
      counted('a'),
      assistantCall('c1', 'read', {}),
      toolResult('c1', 'read', 'x'),
      assistantText('b'),
      user('c'),
      assistantText('d'),
    ];
    incremental(first);
    reads = 0;
    const second = [...first, user('e'), assistantText('f')];
    const out = incremental(second);
    expect(reads).toBe(0);
    expect(out).toEqual(runHistoryPipeline(second));
    // a changed prefix (a compaction) runs everything again
    const third = [counted('summary'), ...second.slice(3)];
    reads = 0;
    expect(incremental(third)).toEqual(runHistoryPipeline(third));
    expect(reads).toBeGreaterThan(0);
  });

  it('does not resume at an assistant message: replacing it by a tool result reopens the group before it', () => {
    const incremental = createIncrementalHistoryPipeline({ heartbeat: false });
    const base = [assistantText('a'), user('q'), assistantCall('c2', 'read', {})];
    incremental(base);
    incremental([...base, assistantCall('c3', 'read', {})]);
    const rewritten = [...base, toolResult('c2', 'read', 'out')];
    const out = incremental(rewritten);
    expect(out.inserted).toEqual([]);
    expect(out.messages).toEqual(rewritten);
    expect(out).toEqual(runHistoryPipeline(rewritten, { heartbeat: false }));
  });

  it('returns fresh arrays: mutating a result does not change the next one', () => {
    const incremental = createIncrementalHistoryPipeline();
    const messages = [user('a'), assistantText('b'), user('c'), assistantText('d')];
    const first = incremental(messages);
    first.messages.length = 0;
    first.removed.push({ index: 0, reason: 'history-limit' });
    expect(incremental([...messages, user('e')])).toEqual(runHistoryPipeline([...messages, user('e')]));
  });
});
