/**
 * A compact() that throws or has no effect, replayed as OpenClaw handles it (read in the dists of 2026.7.35 and
 * 2026.9.6): the quarantine proxy quarantines a throwing compact and rethrows; the caller logs it (/compact:
 * `context-engine compaction failed`, overflow recovery: `contextEngine.compact() threw during overflow recovery
 * for …`), counts the compaction as failed and goes on, and the engine's later calls go to legacy. /compact
 * resolves the slot's engine, not the logical turn's, so on 2026.9.6 it reaches an engine whose turns run on legacy.
 */
import { describe, expect, it } from 'vitest';
import type { AgentMessage, AssembleResult, CompactResult } from '../../../src/contract';
import type { Recording } from '../../../src/contract/recording';
import { replaySession, type ReplayLaneConfig } from '../../../src/replay';
import { recordingEngine, SessionBuilder } from './sessionBuilder';

const lane = (engineId: string, factory: () => unknown, contextWindow = 64000): ReplayLaneConfig => ({
  engine: { kind: 'in-process', engineId, factory: factory as never },
  contextWindow,
});
const user = (text: string): AgentMessage => ({ role: 'user', content: text, timestamp: 1 });
const session = () => new SessionBuilder().turn('a').turn('b').turn('c').turn('d').loaded();

/** An engine whose compact() rejects; its first assemble with history overflows the provider when `overflow`. */
function throwingCompactor(overflow: boolean) {
  let first = true;
  return recordingEngine(
    { id: 'breaks' },
    {
      async assemble(params): Promise<AssembleResult> {
        if (overflow && params.messages.length > 0 && first) {
          first = false;
          // cheap for OpenClaw's estimator, expensive for the tokenizer: passes the precheck, overflows the provider
          return { messages: [...params.messages, user('ꙮ'.repeat(24000))], estimatedTokens: 0 };
        }
        return { messages: params.messages, estimatedTokens: 0 };
      },
      async compact(): Promise<CompactResult> {
        throw new Error('summarizer returned HTTP 500');
      },
    },
  );
}

const eventsOf = (rec: Recording, laneId: string, turn: number) => rec.turns[laneId]![turn]!.events;
const warnings = (rec: Recording, laneId: string, turn: number) =>
  eventsOf(rec, laneId, turn).flatMap((e) => (e.type === 'warning' ? [e.message] : []));

describe('a compact() that throws', () => {
  it('in overflow recovery (2026.7.35): quarantined with operation compact, logged, the prompt not sent, legacy after', async () => {
    const engine = throwingCompactor(true);
    const rec = await replaySession({
      session: session(),
      lanes: [lane('breaks', engine.factory)],
      openclawVersion: '2026.7.35',
    });
    const t1 = eventsOf(rec, 'breaks', 1);
    expect(t1.filter((e) => e.type === 'quarantine')).toEqual([
      expect.objectContaining({ engineId: 'breaks', operation: 'compact', reason: 'summarizer returned HTTP 500' }),
    ]);
    expect(t1.filter((e) => e.type === 'compaction')).toEqual([
      expect.objectContaining({
        trigger: 'overflow',
        engineId: 'breaks',
        ok: false,
        error: 'summarizer returned HTTP 500',
      }),
    ]);
    expect(warnings(rec, 'breaks', 1)).toContainEqual(
      expect.stringMatching(
        /^contextEngine\.compact\(\) threw during overflow recovery for .+\/.+: Error: summarizer returned HTTP 500$/,
      ),
    );
    expect(rec.turns.breaks![1]!.status).toBe('prompt_error');
    const quarantined = rec.findings.filter((f) => f.code === 'quarantined' && f.turn === 1);
    expect(quarantined.map((f) => f.message)).toEqual([expect.stringContaining('failed during compact')]);
    // later turns run on legacy: the engine itself is not called again
    expect(engine.callsOf('compact')).toHaveLength(1);
    expect(engine.callsOf('assemble')).toHaveLength(2);
    expect(rec.turns.breaks![2]!.engine).toMatchObject({ engineId: 'legacy', quarantined: true });
  });

  it('on /compact (2026.7.35): quarantined once, the failure logged as OpenClaw logs it, the turn still runs', async () => {
    const engine = throwingCompactor(false);
    const rec = await replaySession({
      session: session(),
      lanes: [lane('breaks', engine.factory)],
      openclawVersion: '2026.7.35',
      manualCompactions: [{ turn: 2 }, { turn: 3 }],
    });
    expect(eventsOf(rec, 'breaks', 2).filter((e) => e.type === 'quarantine')).toEqual([
      expect.objectContaining({ operation: 'compact', reason: 'summarizer returned HTTP 500' }),
    ]);
    expect(warnings(rec, 'breaks', 2)).toContain(
      'context-engine compaction failed {"errorMessage":"summarizer returned HTTP 500"}',
    );
    expect(rec.turns.breaks![2]!.status).toBe('ok');
    // the second /compact goes to legacy's compact through the quarantine proxy: no second quarantine, no warning
    expect(engine.callsOf('compact')).toHaveLength(1);
    expect(eventsOf(rec, 'breaks', 3).filter((e) => e.type === 'quarantine')).toEqual([]);
    expect(eventsOf(rec, 'breaks', 3).find((e) => e.type === 'compaction')).toMatchObject({ engineId: 'legacy' });
    expect(warnings(rec, 'breaks', 3)).toEqual([]);
  });

  it('on /compact (2026.9.6): reaches the slot engine although its turns run on legacy, and quarantines it', async () => {
    const engine = throwingCompactor(false);
    const rec = await replaySession({
      session: session(),
      lanes: [lane('breaks', engine.factory)],
      openclawVersion: '2026.9.6',
      manualCompactions: [{ turn: 2 }],
    });
    // every logical turn falls back (no durable turn commit), yet /compact called the configured engine
    expect(rec.turns.breaks!.map((t) => t.turnPath?.engine)).toEqual(Array(4).fill('legacy-fallback'));
    expect(engine.callsOf('assemble')).toEqual([]);
    expect(engine.callsOf('compact')).toHaveLength(1);
    expect(eventsOf(rec, 'breaks', 2).filter((e) => e.type === 'quarantine')).toEqual([
      expect.objectContaining({ operation: 'compact', reason: 'summarizer returned HTTP 500' }),
    ]);
    // the turns after it still fall back for the engine's own reason, and the finding names the engine
    const reasons = new Set(rec.turns.breaks!.map((t) => t.turnPath?.degradedReason));
    expect(reasons.size).toBe(1);
    const degraded = rec.findings.find((f) => f.code === 'turn-degraded-to-legacy')!;
    expect(degraded.message).toMatch(/^4 of 4 turns ran on "legacy" instead of "breaks"/);
  });
});

describe('a compact() that throws in a 2026.9.6 logical turn', () => {
  it('overflow recovery: logged, a compaction-failed finding, no quarantine, and compact() asked again the next turn', async () => {
    const engine = recordingEngine(
      {
        id: 'durable',
        transcriptSemantics: {
          currentTurnFence: 'before-current-turn-entry-v1',
          turnAdvancementIdempotency: 'atomic-idempotent-v1',
        },
      },
      {
        async assemble(params): Promise<AssembleResult> {
          // every turn with history overflows the provider (cheap for the precheck's estimator)
          if (params.messages.length === 0) return { messages: [], estimatedTokens: 0 };
          return { messages: [...params.messages, user('ꙮ'.repeat(24000))], estimatedTokens: 0 };
        },
        async compact(): Promise<CompactResult> {
          throw new Error('summarizer returned HTTP 500');
        },
        async commitTurn() {
          return { status: 'committed' as const };
        },
      },
    );
    const rec = await replaySession({
      session: session(),
      lanes: [lane('durable', engine.factory)],
      sessionKey: 'agent:main:main',
      openclawVersion: '2026.9.6',
    });
    const turns = rec.turns.durable!;
    // the engine runs every logical turn and is never quarantined: each overflowing turn calls its compact()
    expect(turns.map((t) => t.turnPath?.engine)).toEqual(Array(4).fill('configured'));
    expect(turns.flatMap((t) => t.events).filter((e) => e.type === 'quarantine')).toEqual([]);
    expect(engine.callsOf('compact')).toHaveLength(3);
    expect(turns.map((t) => t.status)).toEqual(['ok', 'prompt_error', 'prompt_error', 'prompt_error']);
    expect(warnings(rec, 'durable', 2)).toContainEqual(
      expect.stringMatching(/^contextEngine\.compact\(\) threw during overflow recovery for .+: Error: summarizer/),
    );
    const failed = rec.findings.filter((f) => f.code === 'compaction-failed');
    expect(failed.map((f) => [f.turn, f.severity])).toEqual([
      [1, 'error'],
      [2, 'error'],
      [3, 'error'],
    ]);
    expect(failed[0]!.message).toMatch(
      /^engine "durable" compact\(\) threw \(overflow: summarizer returned HTTP 500\)\. OpenClaw logs it/,
    );
    expect(rec.findings.filter((f) => f.code === 'quarantined')).toEqual([]);
  });

  it('the same engine replayed as 2026.7.35 is quarantined at the first failure instead', async () => {
    const engine = throwingCompactor(true);
    const rec = await replaySession({
      session: session(),
      lanes: [lane('breaks', engine.factory)],
      openclawVersion: '2026.7.35',
    });
    expect(rec.findings.filter((f) => f.code === 'compaction-failed')).toEqual([]);
    expect(rec.findings.filter((f) => f.code === 'quarantined').map((f) => f.turn)).toContain(1);
  });
});

describe('a compact() without effect', () => {
  it('/compact answering compacted:true with tokensBefore == tokensAfter is a compaction-no-effect finding at that turn', async () => {
    const engine = recordingEngine(
      { id: 'claims', ownsCompaction: true },
      {
        async compact(): Promise<CompactResult> {
          return { ok: true, compacted: true, result: { summary: 'done', tokensBefore: 4321, tokensAfter: 4321 } };
        },
      },
    );
    const rec = await replaySession({
      session: session(),
      lanes: [lane('claims', engine.factory)],
      openclawVersion: '2026.7.35',
      manualCompactions: [{ turn: 2 }],
    });
    const noEffect = rec.findings.filter((f) => f.code === 'compaction-no-effect');
    expect(noEffect).toEqual([
      expect.objectContaining({
        lane: 'claims',
        turn: 2,
        severity: 'warning',
        message: expect.stringContaining(
          'engine "claims" compact() (manual) returned compacted:true but tokensBefore == tokensAfter (4321)',
        ),
      }),
    ]);
  });
});
