/**
 * A broken engine never takes the replay down: an assemble() result whose messages the host cannot read is a
 * contract failure of that lane (quarantined with the JSON path of the problem); the other lanes are unchanged.
 */
import { join } from 'node:path';
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

describe('invalid results of every operation', () => {
  /** Long turns in a small window, so the engine compacts (overflow) from the third turn on. */
  const session = () => {
    const b = new SessionBuilder();
    for (let i = 0; i < 5; i++) b.turn(`${'q'.repeat(3000)} ${i}`, 'a'.repeat(3000));
    return b.loaded();
  };
  /**
   * A lane's turns without what differs between two runs anyway: timings, the run-wide event sequence, and the
   * content keys of compaction summaries (they carry the wall-clock time they were written at).
   */
  const strip = (turns: Awaited<ReturnType<typeof replaySession>>['turns'][string]) =>
    JSON.parse(
      JSON.stringify(turns, (key, value: unknown) => {
        if (key === 'startedAtMs' || key === 'durationMs' || key === 'seq') return 0;
        if (value && typeof value === 'object' && (value as { provenance?: unknown }).provenance === 'summary')
          return { ...value, key: 'summary' };
        return value;
      }),
    ) as unknown;
  const legacyLane = { engine: { kind: 'legacy' as const }, contextWindow: 8000 };

  async function replayWith(overrides: Parameters<typeof recordingEngine>[1]) {
    const engine = recordingEngine({ id: 'faulty' }, overrides);
    const both = await replaySession({
      session: session(),
      lanes: [legacyLane, { ...lane('faulty', engine.factory), contextWindow: 8000 }],
    });
    const alone = await replaySession({ session: session(), lanes: [legacyLane] });
    // the other lane is exactly what it is without the faulty one
    expect(strip(both.turns.legacy!)).toEqual(strip(alone.turns.legacy!));
    const id = both.lanes[1]!.id;
    const quarantines = both.turns[id]!.flatMap((t) => t.events.filter((e) => e.type === 'quarantine'));
    return { findings: both.findings.filter((f) => f.lane === id), quarantines, engine };
  }

  it.each([
    [
      'compact',
      {
        async compact() {
          return { ok: 'yes', compacted: 5 } as never;
        },
      },
      'compact() returned an invalid CompactResult: ok is the string "yes", expected a boolean',
    ],
    [
      'compact',
      {
        async compact() {
          return { ok: true, compacted: true, result: { tokensBefore: Number.NaN, summary: 7 } } as never;
        },
      },
      'compact() returned an invalid CompactResult: result.tokensBefore is number NaN, expected a finite number ≥ 0',
    ],
    [
      'assemble',
      {
        async assemble(p: { messages: unknown[] }) {
          return { messages: p.messages, estimatedTokens: 1, systemPromptAddition: { text: 'x' } } as never;
        },
      },
      'assemble() returned an invalid AssembleResult: systemPromptAddition is an object, expected a string',
    ],
    [
      'assemble',
      {
        async assemble(p: { messages: unknown[] }) {
          let deep: unknown = 'bottom';
          for (let i = 0; i < 10_000; i++) deep = { nested: deep };
          return { messages: [...p.messages, { role: 'user', content: 'x', timestamp: 1, deep }], estimatedTokens: 0 };
        },
      },
      'is nested deeper than 200 levels',
    ],
    [
      'assemble',
      {
        async assemble(p: { messages: unknown[] }) {
          const loop: Record<string, unknown> = { role: 'user', content: 'x', timestamp: 1 };
          loop.self = loop;
          return { messages: [...p.messages, loop], estimatedTokens: 0 };
        },
      },
      'is circular (an object contains itself)',
    ],
  ])('a result the host reads and cannot use quarantines the lane during %s', async (operation, overrides, reason) => {
    const { quarantines, findings } = await replayWith(overrides as never);
    expect(quarantines).toHaveLength(1);
    expect(quarantines[0]).toMatchObject({ engineId: 'faulty', operation, reason: expect.stringContaining(reason) });
    expect(findings.filter((f) => f.code === 'quarantined').map((f) => f.message)).toEqual([
      expect.stringContaining(reason),
    ]);
  });

  it.each([
    [
      'assemble',
      {
        async assemble(p: { messages: unknown[] }) {
          return { messages: p.messages, estimatedTokens: Number.NaN };
        },
      },
      'estimatedTokens is number NaN, expected a finite number ≥ 0',
    ],
    [
      'ingest',
      {
        async ingest() {
          return 42;
        },
      },
      'the result is number 42, expected an object',
    ],
    [
      'ingest',
      {
        async ingest() {
          return { ingested: 'yes' };
        },
      },
      'ingested is the string "yes", expected a boolean',
    ],
  ])(
    'a %s result field OpenClaw ignores is an invalid-result finding with its path, and the lane goes on',
    async (method, overrides, problem) => {
      const { quarantines, findings } = await replayWith(overrides as never);
      expect(quarantines).toEqual([]);
      const invalid = findings.filter((f) => f.code === 'invalid-result');
      expect(invalid.length).toBeGreaterThan(0);
      expect(invalid[0]!.message).toContain(`${method}() returned a result that breaks the contract: ${problem}`);
      // NaN is not judged as a drift ("NaN%")
      expect(findings.filter((f) => f.code === 'estimate-drift')).toEqual([]);
    },
  );
});

describe('an engine that blocks its host (faulty-engines sample, real engine host)', () => {
  it('the timeout quarantine says the host was killed; the legacy lane is unchanged', async () => {
    const plugin = join(import.meta.dirname, '../../../resources/plugins/faulty-engines');
    const session = () => new SessionBuilder().turn('first').turn('second').loaded();
    const legacyLane: ReplayLaneConfig = { engine: { kind: 'legacy' }, contextWindow: 32000 };
    const recording = await replaySession({
      session: session(),
      lanes: [
        legacyLane,
        {
          engine: { kind: 'plugin', plugin, engineId: 'faulty-sync-loop', callTimeoutMs: 1000 },
          contextWindow: 32000,
        },
      ],
      plugins: { allowExecute: true },
    });
    const lane = recording.lanes[1]!.id;
    const quarantine = recording.turns[lane]!.flatMap((t) => t.events).find((e) => e.type === 'quarantine');
    expect(quarantine).toMatchObject({
      engineId: 'faulty-sync-loop',
      operation: 'assemble',
      reason:
        'timeout after 1000 ms; the engine host stopped answering and was killed (killed after timeout in assemble)',
    });
    const finding = recording.findings.find((f) => f.lane === lane && f.code === 'quarantined');
    expect(finding?.message).toContain('the engine host stopped answering and was killed');
    const alone = await replaySession({ session: session(), lanes: [legacyLane] });
    expect(recording.turns.legacy!.map((t) => t.assembled)).toEqual(alone.turns.legacy!.map((t) => t.assembled));
  }, 60_000);
});
