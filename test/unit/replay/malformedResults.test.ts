/**
 * A broken engine never takes the replay down: an assemble() result whose messages the host cannot read is a
 * contract failure of that lane (quarantined with the JSON path of the problem); the other lanes are unchanged.
 */
import { describe, expect, it } from 'vitest';
import { describeAssembleResultProblem } from '../../../src/contract';
import { replaySession, type ReplayLaneConfig } from '../../../src/replay';
import { recordingEngine, SessionBuilder } from './sessionBuilder';

const lane = (engineId: string, factory: () => unknown): ReplayLaneConfig => ({
  engine: { kind: 'in-process', engineId, factory: factory as never },
  contextWindow: 32000,
});

describe('describeAssembleResultProblem', () => {
  it.each([
    [{ messages: [null] }, 'messages[0] is null (expected a message object with a role)'],
    [
      { messages: [{ role: 'user', content: 'x' }, 42] },
      'messages[1] is number 42 (expected a message object with a role)',
    ],
    [{ messages: ['str'] }, 'messages[0] is the string "str" (expected a message object with a role)'],
    [{ messages: [{ role: 'martian' }] }, 'messages[0].role is the string "martian" (expected one of user, assistant'],
    [
      { messages: [{ role: 'user', content: [{ type: 'text', text: 12345 }] }] },
      'messages[0].content[0].text is number 12345',
    ],
    [
      { messages: [{ role: 'assistant', content: 'plain' }] },
      'messages[0].content is a string (expected an array of blocks)',
    ],
  ])('names the path of what is wrong: %j', (result, expected) => {
    expect(describeAssembleResultProblem(result)).toContain(expected);
  });

  it('accepts well-formed messages', () => {
    expect(
      describeAssembleResultProblem({
        messages: [
          { role: 'user', content: 'hi', timestamp: 1 },
          { role: 'assistant', content: [{ type: 'text', text: 'yo' }], timestamp: 2 },
          { role: 'toolResult', toolCallId: 'c', toolName: 't', content: [], isError: false, timestamp: 3 },
        ],
        estimatedTokens: 3,
      }),
    ).toBeUndefined();
  });
});

describe('a malformed assemble() result', () => {
  it('quarantines that lane with the JSON path, and leaves the legacy lane as it is without the faulty lane', async () => {
    const session = () => new SessionBuilder().turn('first').turn('second').turn('third').loaded();
    const broken = recordingEngine(
      { id: 'broken' },
      {
        async assemble() {
          // what a broken plugin sends across the boundary: not messages at all
          return { messages: [null, 42, 'str', { role: 'martian' }, { role: 'user' }], estimatedTokens: 1 } as never;
        },
      },
    );
    const both = await replaySession({
      session: session(),
      lanes: [{ engine: { kind: 'legacy' }, contextWindow: 32000 }, lane('broken', broken.factory)],
    });
    const alone = await replaySession({
      session: session(),
      lanes: [{ engine: { kind: 'legacy' }, contextWindow: 32000 }],
    });

    const strip = (turns: (typeof alone.turns)[string]) =>
      turns.map((t) => ({ ...t, calls: t.calls.map((c) => ({ ...c, startedAtMs: 0, durationMs: 0 })) }));
    expect(strip(both.turns.legacy!)).toEqual(strip(alone.turns.legacy!));

    const faulty = both.turns[both.lanes[1]!.id]!;
    const quarantine = faulty[0]!.events.find((e) => e.type === 'quarantine');
    expect(quarantine).toMatchObject({
      engineId: 'broken',
      operation: 'assemble',
      reason: expect.stringContaining(
        'assemble() returned an invalid AssembleResult: messages[0] is null (expected a message object with a role)',
      ),
    });
    expect(faulty[0]!.assemblySucceeded).toBe(false);
    // the turn that quarantined it started on it; the later turns run on legacy
    expect(faulty.map((t) => t.engine.engineId)).toEqual(['broken', 'legacy', 'legacy']);
    expect(broken.callsOf('assemble')).toHaveLength(1); // quarantined after the first turn: never called again
    expect(both.findings.filter((f) => f.code === 'quarantined' && f.lane === both.lanes[1]!.id)).toHaveLength(1);
  });
});
