/**
 * E3 statements: the turn-commit contract as OpenClaw 2026.8+ drives it (checked against openclaw@2026.9.6's
 * context-engine-logical-turn.ts and context-engine-turn-attempt.ts), and the same engines replayed as 2026.7.x.
 */
import { describe, expect, it } from 'vitest';
import type { AgentMessage, CommitTurnParams, ContextEngineInfo } from '../../src/contract';
import { replaySession, type ReplayLaneConfig } from '../../src/replay';
import { recordingEngine, SessionBuilder } from '../unit/replay/sessionBuilder';

const lane = (engineId: string, factory: () => unknown): ReplayLaneConfig => ({
  engine: { kind: 'in-process', engineId, factory: factory as never },
  contextWindow: 32000,
});

const DURABLE: Partial<ContextEngineInfo> = {
  transcriptSemantics: {
    currentTurnFence: 'before-current-turn-entry-v1',
    turnAdvancementIdempotency: 'atomic-idempotent-v1',
  },
};

function committingEngine(id: string, info: Partial<ContextEngineInfo> = DURABLE, status = 'committed') {
  return recordingEngine(
    { id, ...info },
    {
      async commitTurn() {
        return { status } as { status: 'committed' | 'duplicate' }; // an invalid status on purpose in E3.6
      },
      async afterTurn() {},
      async maintain() {
        return { changed: false, bytesFreed: 0, rewrittenEntries: 0 };
      },
    },
  );
}

const twoTurns = () => new SessionBuilder().turn('first question').turn('second question');

describe('E3 the turn-commit contract (replayed as OpenClaw 2026.9.6)', () => {
  it('E3.1 an engine that declares both transcriptSemantics and implements commitTurn gets commitTurn, not afterTurn/ingest, then maintain("turn")', async () => {
    const b = twoTurns();
    const engine = committingEngine('durable');
    const rec = await replaySession({
      session: b.loaded(),
      lanes: [lane('durable', engine.factory)],
      sessionKey: 'agent:main:main',
      openclawVersion: '2026.9.6',
    });
    const perTurn = engine.methods().filter((m) => m !== 'bootstrap' && !(m === 'maintain'));
    expect(perTurn).toEqual(['assemble', 'commitTurn', 'assemble', 'commitTurn']);
    expect(engine.callsOf('afterTurn')).toEqual([]);
    expect(engine.callsOf('ingest')).toEqual([]);
    const maintains = engine.callsOf('maintain').map((c) => (c.params as { reason: string }).reason);
    expect(maintains.filter((r) => r === 'turn')).toHaveLength(2);

    const turns = rec.turns[rec.lanes[0]!.id]!;
    expect(turns.map((t) => t.turnPath)).toEqual([
      expect.objectContaining({ engine: 'configured', finalize: 'commitTurn', commit: 'committed' }),
      expect.objectContaining({ engine: 'configured', finalize: 'commitTurn', commit: 'committed' }),
    ]);
    expect(turns.map((t) => t.engine.engineId)).toEqual(['durable', 'durable']);
  });

  it('E3.2 commitTurn gets the turn as OpenClaw sends it: advancementKey = admission.logicalTurnId, anchors on the user entry and the last entry, the turn messages, sessionTarget and sqlite transcriptStorage', async () => {
    const b = twoTurns();
    const engine = committingEngine('durable');
    const rec = await replaySession({
      session: b.loaded(),
      lanes: [lane('durable', engine.factory)],
      sessionKey: 'agent:ops:main',
      openclawVersion: '2026.9.6',
    });
    const commits = engine.callsOf('commitTurn').map((c) => c.params as CommitTurnParams);
    const second = commits[1]!;
    const admission = second.admission as Record<string, unknown>;
    const terminal = second.terminal as Record<string, unknown>;
    expect(second.advancementKey).toBe(admission.logicalTurnId);
    expect(new Set(commits.map((c) => c.advancementKey)).size).toBe(2);
    expect(second.messages.map((m: AgentMessage) => m.role)).toEqual(['user', 'assistant']);
    expect(second.messages).toEqual([b.entries[2], b.entries[3]].map((e) => (e as { message: AgentMessage }).message));
    // entries 0..3 follow the header: the second turn's user entry is seq 3, its assistant reply seq 4
    expect(admission).toMatchObject({
      agentId: 'ops',
      sessionKey: 'agent:ops:main',
      rawSeq: 3,
      activeMessagePosition: 2,
    });
    expect(terminal).toMatchObject({ rawSeq: 4, activeMessagePosition: 3, effectiveParentId: admission.entryId });
    expect(admission.sessionId).toBe(rec.lanes[0]!.sessionId);
    expect(second.sessionTarget).toEqual({
      agentId: 'ops',
      sessionId: admission.sessionId,
      sessionKey: 'agent:ops:main',
      storePath: admission.storePath,
    });
    expect(second.runtimeContext?.transcriptStorage).toEqual({ kind: 'sqlite' });
    const assembleContext = engine.callsOf('assemble')[0]!.params as { runtimeSettings?: unknown };
    expect(assembleContext.runtimeSettings).toBeDefined();
    const turn = rec.turns[rec.lanes[0]!.id]![1]!;
    expect(turn.turnPath?.advancementKey).toBe(second.advancementKey);
  });

  it.each([
    [{}, 'current-turn transcript fencing is not declared'],
    [
      { transcriptSemantics: { currentTurnFence: 'before-current-turn-entry-v1' as const } },
      'atomic idempotent turn advancement is not declared',
    ],
  ])(
    'E3.3 an engine without the contract (%o) has each logical turn run on legacy, without a quarantine: %s',
    async (info, reason) => {
      const b = twoTurns();
      const plain = recordingEngine({ id: 'plain', ...info }, { async afterTurn() {} });
      const rec = await replaySession({
        session: b.loaded(),
        lanes: [lane('plain', plain.factory)],
        sessionKey: 'agent:main:main',
        openclawVersion: '2026.9.6',
      });
      expect(plain.methods()).toEqual([]);
      const turns = rec.turns[rec.lanes[0]!.id]!;
      expect(turns.map((t) => t.engine.engineId)).toEqual(['legacy', 'legacy']);
      expect(turns.map((t) => t.turnPath)).toEqual([
        { engine: 'legacy-fallback', degradedReason: reason, finalize: 'none' },
        { engine: 'legacy-fallback', degradedReason: reason, finalize: 'none' },
      ]);
      const warnings = turns.flatMap((t) => t.events.filter((e) => e.type === 'warning').map((e) => e.message));
      expect(warnings).toEqual([
        `[context-engine] Context engine "plain" degraded to "legacy" for this logical turn: ${reason}. The "legacy" engine will handle only this turn; configuration is unchanged, and "plain" will be retried next turn.`,
        expect.stringContaining('degraded to "legacy" for this logical turn'),
      ]);
      expect([...rec.events, ...turns.flatMap((t) => t.events)].some((e) => e.type === 'quarantine')).toBe(false);
      const degraded = rec.findings.filter((f) => f.code === 'turn-degraded-to-legacy');
      expect(degraded).toEqual([expect.objectContaining({ lane: rec.lanes[0]!.id, turn: null, severity: 'warning' })]);
      expect(degraded[0]!.message).toContain('2 of 2 turns ran on "legacy" instead of "plain"');
    },
  );

  it('E3.4 replayed as 2026.7.x (inferred from the JSONL v3 header), the same plain engine runs itself and finalizes with afterTurn', async () => {
    const b = twoTurns();
    const plain = recordingEngine({ id: 'plain' }, { async afterTurn() {} });
    const rec = await replaySession({ session: b.loaded(), lanes: [lane('plain', plain.factory)] });
    expect(plain.methods()).toEqual(['assemble', 'afterTurn', 'assemble', 'afterTurn']);
    expect(rec.options.openclawVersion).toBe('2026.7.35');
    expect(rec.options.openclawVersionChoice).toEqual({
      how: 'inferred',
      from: 'the session header (version 3: the JSONL era, the newest 2026.7 release)',
    });
    expect(rec.turns[rec.lanes[0]!.id]!.map((t) => t.turnPath)).toEqual([
      { engine: 'configured', finalize: 'afterTurn' },
      { engine: 'configured', finalize: 'afterTurn' },
    ]);
    expect(rec.findings.filter((f) => f.code === 'turn-degraded-to-legacy')).toEqual([]);
  });

  it('E3.5 a turn that is not accepted (the recorded model call failed) discards its intent: no commitTurn, no maintain("turn")', async () => {
    const b = new SessionBuilder().turn('ok');
    b.user('fails');
    b.assistant('', { stopReason: 'error', errorMessage: '529 overloaded' });
    const engine = committingEngine('durable');
    const rec = await replaySession({
      session: b.loaded(),
      lanes: [lane('durable', engine.factory)],
      sessionKey: 'agent:main:main',
      openclawVersion: '2026.9.6',
    });
    expect(engine.callsOf('commitTurn')).toHaveLength(1);
    const paths = rec.turns[rec.lanes[0]!.id]!.map((t) => t.turnPath?.commit);
    expect(paths).toEqual(['committed', 'discarded']);
  });

  it('E3.6 commitTurn answering "duplicate" counts as advanced; an invalid status stays queued with OpenClaw\'s warning and a finding', async () => {
    const duplicate = committingEngine('dup', DURABLE, 'duplicate');
    const invalid = committingEngine('bad', DURABLE, 'maybe');
    const rec = await replaySession({
      session: twoTurns().loaded(),
      lanes: [lane('dup', duplicate.factory), lane('bad', invalid.factory)],
      sessionKey: 'agent:main:main',
      openclawVersion: '2026.9.6',
    });
    const [dupLane, badLane] = rec.lanes.map((l) => rec.turns[l.id]!);
    expect(dupLane!.map((t) => t.turnPath?.commit)).toEqual(['duplicate', 'duplicate']);
    // the queued advancement is retried before the second turn (9.6 `drainPendingContextEngineTurnsBeforeRun`); it
    // fails again, so that turn runs on legacy
    expect(badLane!.map((t) => t.turnPath?.commit)).toEqual(['failed', undefined]);
    expect(badLane![1]!.turnPath).toMatchObject({
      engine: 'legacy-fallback',
      degradedReason: 'pending durable turn advancement could not be completed before the next turn',
    });
    expect(invalid.callsOf('commitTurn').map((c) => (c.params as { advancementKey: string }).advancementKey)).toEqual(
      Array(2).fill((invalid.callsOf('commitTurn')[0]!.params as { advancementKey: string }).advancementKey),
    );
    expect(badLane![0]!.events.map((e) => (e.type === 'warning' ? e.message : ''))).toContainEqual(
      expect.stringMatching(
        /^\[context-engine\] durable turn advancement remains queued: .+: invalid commitTurn result status: maybe$/,
      ),
    );
    expect(invalid.callsOf('maintain').filter((c) => (c.params as { reason: string }).reason === 'turn')).toEqual([]);
    expect(rec.findings.filter((f) => f.code === 'turn-commit-skipped').map((f) => [f.lane, f.turn])).toEqual([
      [rec.lanes[1]!.id, 0],
    ]);
  });

  it('E3.7 acceptedHostParams is honoured on commitTurn: host keys the engine did not declare are left out', async () => {
    const engine = committingEngine('narrow', { ...DURABLE, acceptedHostParams: ['sessionKey'] });
    await replaySession({
      session: twoTurns().loaded(),
      lanes: [lane('narrow', engine.factory)],
      sessionKey: 'agent:main:main',
      openclawVersion: '2026.9.6',
    });
    const commit = engine.callsOf('commitTurn')[0]!.params as Record<string, unknown>;
    expect(commit.sessionKey).toBe('agent:main:main');
    expect(commit).not.toHaveProperty('sessionTarget');
    expect(commit).not.toHaveProperty('runtimeContext');
    expect(commit).toHaveProperty('admission');
  });

  it('rejects a version it does not model, saying what it accepts', async () => {
    await expect(
      replaySession({
        session: twoTurns().loaded(),
        lanes: [lane('x', committingEngine('x').factory)],
        openclawVersion: 'latest',
      }),
    ).rejects.toThrow(/Unknown OpenClaw version "latest": give a release such as 2026\.7\.1/);
  });
});
