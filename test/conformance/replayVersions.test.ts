/**
 * V statements: the behaviours that differ between OpenClaw release lines, replayed as each profile says
 * (checked against the openclaw@2026.7.35 and openclaw@2026.9.6 dists; see src/replay/lane/versionProfiles.ts).
 */
import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../src/contract';
import type { Recording } from '../../src/contract/recording';
import { replaySession, type ReplayLaneConfig } from '../../src/replay';
import { recordingEngine, SessionBuilder } from '../unit/replay/sessionBuilder';
import { usageSession } from '../unit/replay/usageSessionFixture';

const legacy = (contextWindow: number): ReplayLaneConfig => ({ engine: { kind: 'legacy' }, contextWindow });

function compactionTurns(rec: Recording, trigger?: string): number[] {
  const turns = rec.turns[rec.lanes[0]!.id]!;
  return turns
    .filter((t) => t.events.some((e) => e.type === 'compaction' && e.compacted && (!trigger || e.trigger === trigger)))
    .map((t) => t.turn);
}

describe('V1 prompt budget and precheck per release', () => {
  it('V1.1 2026.9.6 leaves window − min(20000, window/4) for the prompt; 2026.7.35 keeps the uncapped 20000 floor', async () => {
    const session = new SessionBuilder().turn('hello').loaded();
    const newer = await replaySession({ session, lanes: [legacy(32_000)], openclawVersion: '2026.9.6' });
    const older = await replaySession({ session, lanes: [legacy(32_000)], openclawVersion: '2026.7.35' });
    expect(newer.turns.legacy![0]!.budget).toMatchObject({ reserveTokens: 8000, promptBudget: 24_000 });
    expect(older.turns.legacy![0]!.budget).toMatchObject({ reserveTokens: 20_000, promptBudget: 12_000 });
    const wide = await replaySession({ session, lanes: [legacy(200_000)], openclawVersion: '2026.9.6' });
    expect(wide.turns.legacy![0]!.budget).toMatchObject({ reserveTokens: 20_000, promptBudget: 180_000 });
  });

  it('V1.2 an over-budget precheck only logs on 2026.9.6 (the prompt is sent); on 2026.7.35 it compacts before the prompt', async () => {
    const b = new SessionBuilder();
    for (let i = 0; i < 6; i++)
      b.turn(`question ${i} ${'context '.repeat(1500)}`, `answer ${i} ${'detail '.repeat(1500)}`);
    const session = b.loaded();
    const newer = await replaySession({ session, lanes: [legacy(32_000)], openclawVersion: '2026.9.6' });
    const turns = newer.turns.legacy!;
    const logged = turns.filter((t) => t.precheck?.onlyLogged);
    expect(logged.length).toBeGreaterThan(0);
    for (const t of logged) {
      expect(t.status).toBe('ok');
      expect(t.events).toContainEqual(
        expect.objectContaining({
          type: 'warning',
          message: expect.stringMatching(
            /^\[context-pressure-diagnostic\] admitted provider attempt for openai\/gpt-5 route=/,
          ),
        }),
      );
      expect(t.events.some((e) => e.type === 'compaction' && e.trigger === 'overflow')).toBe(false);
    }
    const older = await replaySession({ session, lanes: [legacy(32_000)], openclawVersion: '2026.7.35' });
    expect(compactionTurns(older, 'overflow').length).toBeGreaterThan(0);
    expect(older.turns.legacy!.some((t) => t.precheck?.onlyLogged)).toBe(false);
  });
});

describe('V2 the threshold after the turn uses provider usage (behaviour §3.3)', () => {
  // 200k window: chars/4 of the context crosses 180,000 around turn 20, the provider's usage only at turn 51
  const session = usageSession({ turns: 55, baseTokens: 15_000, perTurnTokens: 3300, recordedCompactionsAfter: [50] });

  it('V2.1 on 2026.9.6 the legacy lane compacts where the recorded usage crosses window − reserve, and nowhere else', async () => {
    const rec = await replaySession({ session, lanes: [legacy(200_000)], openclawVersion: '2026.9.6' });
    expect(compactionTurns(rec)).toEqual([50]);
    const turns = rec.turns.legacy!;
    expect(turns.every((t) => t.status === 'ok')).toBe(true);
    const compaction = turns[50]!.events.find((e) => e.type === 'compaction')!;
    expect(compaction).toMatchObject({ trigger: 'auto', compacted: true });
  });

  it('V2.2 on 2026.7.35 the estimate-based precheck compacts first (before the prompt, on chars/2 tool results)', async () => {
    const rec = await replaySession({ session, lanes: [legacy(200_000)], openclawVersion: '2026.7.35' });
    const first = compactionTurns(rec)[0]!;
    expect(first).toBeLessThan(50);
    expect(rec.turns.legacy![first]!.events.find((e) => e.type === 'compaction')).toMatchObject({
      trigger: 'overflow',
    });
  });
});

describe('V3 empty compactions', () => {
  // an 8k window, and a prompt too large for it after one short exchange: the exchange is the kept tail, so there
  // is nothing before it to summarize
  const session = new SessionBuilder()
    .turn('hi', 'hello')
    .turn(`${'oversized prompt '.repeat(3000)}`, 'ok')
    .loaded();

  it('V3.1 2026.7.35 appends the compaction entry anyway (then refuses to compact right after it)', async () => {
    const rec = await replaySession({ session, lanes: [legacy(8192)], openclawVersion: '2026.7.35' });
    const events = rec.turns.legacy![1]!.events.filter((e) => e.type === 'compaction');
    expect(events.map((e) => (e.type === 'compaction' ? [e.compacted, e.reason ?? null] : null))).toEqual([
      [true, null],
      [false, 'nothing to compact'],
    ]);
  });

  it('V3.2 2026.9.6 returns nothing: no compaction entry', async () => {
    const rec = await replaySession({ session, lanes: [legacy(8192)], openclawVersion: '2026.9.6' });
    const events = rec.turns.legacy![1]!.events.filter((e) => e.type === 'compaction');
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.type === 'compaction' && !e.compacted && e.reason === 'nothing to compact')).toBe(
      true,
    );
  });
});

describe('V4 sanitize steps (both lines)', () => {
  it('V4.1 engines receive tool results without details, and assistant usage older than the latest compaction zeroed', async () => {
    const b = new SessionBuilder();
    b.user('look');
    b.assistant('reading', { toolCalls: [{ type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'a' } }] });
    const result = b.toolResult('c1', 'read', 'file text');
    (result as { message: Record<string, unknown> }).message.details = { bytes: 9 };
    const stale = b.assistant('done');
    (stale as { message: Record<string, unknown> }).message.usage = {
      input: 190_000,
      output: 100,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 190_100,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    };
    b.compaction('what happened so far', b.entries[0]!.id, 190_100);
    b.turn('next question');
    const engine = recordingEngine({ id: 'seer' }, { async afterTurn() {} });
    const rec = await replaySession({
      session: b.loaded(),
      honourRecordedCompactions: true,
      lanes: [
        { engine: { kind: 'in-process', engineId: 'seer', factory: engine.factory as never }, contextWindow: 200_000 },
      ],
      openclawVersion: '2026.7.35', // 2026.9.6 would run this plain engine's turns on legacy,
    });
    const seen = engine.callsOf('assemble').map((c) => (c.params as { messages: AgentMessage[] }).messages);
    const last = seen[seen.length - 1]!;
    const tool = last.find((m) => m.role === 'toolResult') as Record<string, unknown>;
    expect(tool).toBeDefined();
    expect('details' in tool).toBe(false);
    const assistants = last.filter((m) => m.role === 'assistant') as { usage?: { totalTokens: number } }[];
    expect(assistants.map((m) => m.usage?.totalTokens)).toEqual([undefined, 0]); // the tool call had none
    // the key of the sanitized copy is the transcript entry's: provenance stays raw
    expect(rec.turns[rec.lanes[0]!.id]![1]!.assembled.find((a) => a.key === result.id)?.provenance).toBe('raw');
  });

  it('V4.2 a legacy lane does not compact on stale usage from before a compaction', async () => {
    const b = new SessionBuilder();
    b.user('first');
    const stale = b.assistant('long answer');
    (stale as { message: Record<string, unknown> }).message.usage = {
      input: 190_000,
      output: 100,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 190_100,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    };
    b.compaction('summary of the first exchange', stale.id, 190_100);
    b.user('second');
    const rec = await replaySession({
      session: b.loaded(),
      honourRecordedCompactions: true,
      lanes: [legacy(200_000)],
      openclawVersion: '2026.9.6',
    });
    expect(compactionTurns(rec, 'auto')).toEqual([]);
  });
});

describe('V5 host-requirement mismatches', () => {
  const picky = (): ReplayLaneConfig => ({
    engine: {
      kind: 'in-process',
      engineId: 'picky',
      factory: recordingEngine({
        id: 'picky',
        hostRequirements: { 'agent-run': { requiredCapabilities: ['assemble-before-prompt'] } },
      }).factory as never,
    },
    contextWindow: 32_000,
    host: 'cli:claude',
  });

  it('V5.1 fail closed on 2026.7.35 (the run never starts)', async () => {
    const rec = await replaySession({
      session: new SessionBuilder().turn('hi').loaded(),
      lanes: [picky()],
      openclawVersion: '2026.7.35',
    });
    expect(rec.turns.picky![0]!.status).toBe('host_unsupported');
  });

  it('V5.2 degrade the logical turn to legacy on 2026.9.6', async () => {
    const rec = await replaySession({
      session: new SessionBuilder().turn('hi').loaded(),
      lanes: [picky()],
      sessionKey: 'agent:main:main',
      openclawVersion: '2026.9.6',
    });
    const turn = rec.turns.picky![0]!;
    expect(turn.status).toBe('ok');
    expect(turn.turnPath).toMatchObject({
      engine: 'legacy-fallback',
      degradedReason: 'host "cli:claude" is missing assemble-before-prompt',
    });
  });
});

describe('V6 which release a replay behaves as', () => {
  it('V6.1 the recording says the version, how it was chosen, and what its profile changes', async () => {
    const session = new SessionBuilder().turn('hi').loaded();
    const flagged = await replaySession({ session, lanes: [legacy(32_000)], openclawVersion: '2026.9.6' });
    expect(flagged.options.openclawVersionChoice).toEqual({ how: 'flag' });
    expect(flagged.options.openclawProfile?.line).toBe('2026.8+');
    expect(flagged.options.openclawProfile?.changes).toContain(
      'precheck only logs; threshold compaction after the turn',
    );
    const inferred = await replaySession({ session, lanes: [legacy(32_000)] });
    expect(inferred.options.openclawVersion).toBe('2026.7.35');
    expect(inferred.options.openclawVersionChoice?.how).toBe('inferred');
  });
});
