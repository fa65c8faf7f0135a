/**
 * Behaviour §14.39–42 and §14.44–46: compaction ownership, the pre-prompt precheck and overflow recovery, as the
 * replay's host simulator performs them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentMessage, AssembleResult, CompactParams, CompactResult } from '../../src/contract';
import { replaySession, type ReplayLaneConfig } from '../../src/replay';
import { PRECHECK_OVERFLOW_ERROR_MESSAGE } from '../../src/runtime';
import { estimatePrecheckTokens } from '../../src/tokens';
import { serializeSessionEntries } from '../../src/transcripts';
import { recordingEngine, SessionBuilder, tempDir } from '../unit/replay/sessionBuilder';

const lane = (engineId: string, factory: () => unknown, extra: Partial<ReplayLaneConfig> = {}): ReplayLaneConfig => ({
  engine: { kind: 'in-process', engineId, factory: factory as never },
  contextWindow: 40000,
  ...extra,
});

/** t0 small, t1 with a ~25k-token answer (crosses window − reserve = 20000 after the turn), t2 small */
function bigAnswerSession(): SessionBuilder {
  return new SessionBuilder().turn('hello').turn('write the report', 'report '.repeat(14000)).turn('thanks');
}

const user = (text: string): AgentMessage => ({ role: 'user', content: text, timestamp: 1 });

describe('§14 compaction ownership and the precheck (replay)', () => {
  it('§14.39 ownsCompaction disables the built-in auto-compaction for the run', async () => {
    const owner = recordingEngine({ id: 'owner', ownsCompaction: true });
    const plain = recordingEngine({ id: 'plain' }, { async afterTurn() {} });
    const rec = await replaySession({
      session: bigAnswerSession().loaded(),
      lanes: [
        lane('owner', owner.factory, { keepRecentTokens: 1000 }),
        lane('plain', plain.factory, { keepRecentTokens: 1000 }),
      ],
    });
    const auto = (laneId: string) =>
      rec.turns[laneId].flatMap((t) => t.events).filter((e) => e.type === 'compaction' && e.trigger === 'auto');
    expect(auto('owner')).toEqual([]);
    expect(auto('plain')).toHaveLength(1);
    expect(auto('plain')[0]).toMatchObject({ turn: 1, engineId: 'built-in', ok: true, compacted: true });
    // the harness compaction wrote a compaction entry into the non-owner's transcript only
    expect(rec.turns.plain[2].assembled[0].provenance).toBe('summary');
    expect(rec.turns.owner[2].assembled.every((r) => r.provenance === 'raw')).toBe(true);
    // and afterTurn carried the summary
    const afterTurn = plain.callsOf('afterTurn')[1].params as { autoCompactionSummary?: string };
    expect(typeof afterTurn.autoCompactionSummary).toBe('string');
    expect(afterTurn.autoCompactionSummary!.length).toBeGreaterThan(0);
  });

  it("§14.40 an owner whose assemble succeeds with the default promptAuthority skips the precheck, with OpenClaw's log line", async () => {
    const owner = recordingEngine({ id: 'owner', ownsCompaction: true });
    const plain = recordingEngine({ id: 'plain' });
    const rec = await replaySession({
      session: new SessionBuilder().turn('a').turn('b').loaded(),
      lanes: [lane('owner', owner.factory), lane('plain', plain.factory)],
    });
    expect(rec.turns.owner[1].precheck.skipped).toBe(true);
    expect(rec.turns.owner[1].precheck.skipReason).toBe(
      '[context-overflow-precheck] skipped: context engine "owner" owns compaction',
    );
    expect(rec.turns.plain[1].precheck.skipped).toBe(false);
    expect(rec.turns.plain[1].precheck.skipReason).toBeUndefined();
  });

  it('§14.41 an owner returning promptAuthority "preassembly_may_overflow" gets the precheck with max(assembled, pre-assembly) estimates', async () => {
    const owner = recordingEngine(
      { id: 'owner', ownsCompaction: true },
      {
        async assemble(params): Promise<AssembleResult> {
          return {
            messages: params.messages.slice(-1),
            estimatedTokens: 1,
            promptAuthority: 'preassembly_may_overflow',
          };
        },
      },
    );
    const b = new SessionBuilder().turn('a long first question '.repeat(50)).turn('b').turn('c');
    const rec = await replaySession({ session: b.loaded(), lanes: [lane('owner', owner.factory)] });
    const t = rec.turns.owner[2];
    const history = b.entries.slice(0, 4).map((e) => (e as { message: AgentMessage }).message);
    const preAssembly = estimatePrecheckTokens({ messages: history, systemPrompt: '', prompt: 'c' });
    const assembled = estimatePrecheckTokens({ messages: history.slice(-1), systemPrompt: '', prompt: 'c' });
    expect(preAssembly).toBeGreaterThan(assembled);
    expect(t.precheck).toMatchObject({
      skipped: false,
      estimatedTokens: preAssembly,
      pressureSource: 'unwindowed_transcript_estimate',
    });
    expect(t.promptAuthority).toBe('preassembly_may_overflow');
    expect(t.assembled).toHaveLength(1);
  });

  it('§14.42 when assemble throws, the precheck runs regardless of ownsCompaction and the pipeline messages are sent', async () => {
    const throwing = recordingEngine(
      { id: 'owner', ownsCompaction: true },
      {
        async assemble(params): Promise<AssembleResult> {
          // the turn's assemble (it has the prompt; the one at the model call, §7.2a, has none on 2026.7.35)
          if (params.messages.length > 0 && params.prompt !== undefined) throw new Error('index corrupt');
          return { messages: params.messages, estimatedTokens: 0 };
        },
      },
    );
    const b = new SessionBuilder().turn('a').turn('b');
    const rec = await replaySession({ session: b.loaded(), lanes: [lane('owner', throwing.factory)] });
    const t = rec.turns.owner[1];
    expect(t.precheck.skipped).toBe(false);
    expect(t.assembled.map((r) => [r.key, r.provenance])).toEqual([
      [b.entries[0].id, 'raw'],
      [b.entries[1].id, 'raw'],
    ]);
    expect(t.calls.find((c) => c.method === 'assemble')).toMatchObject({
      outcome: 'error',
      error: 'index corrupt',
      fellBack: true,
    });
    expect(t.events.find((e) => e.type === 'quarantine')).toMatchObject({
      engineId: 'owner',
      operation: 'assemble',
      reason: 'index corrupt',
    });

    // an assemble that answers without a messages array fails too: pipeline messages, precheck runs, OpenClaw's warning
    const broken = recordingEngine(
      { id: 'broken', ownsCompaction: true },
      { assemble: async () => ({ estimatedTokens: 0 }) as AssembleResult },
    );
    const rec2 = await replaySession({ session: b.loaded(), lanes: [lane('broken', broken.factory)] });
    const t2 = rec2.turns.broken[1];
    expect(t2.assemblySucceeded).toBe(false);
    expect(t2.precheck.skipped).toBe(false);
    expect(t2.assembled.map((r) => r.key)).toEqual([b.entries[0].id, b.entries[1].id]);
    expect(t2.events).toContainEqual(
      expect.objectContaining({
        type: 'warning',
        message: 'context engine assemble failed, using pipeline messages: assemble() returned no messages array',
      }),
    );
  });

  it('§14.44 an overflow with no reducible tool-result chars routes compact_only, raises the precheck error and does not submit the prompt', async () => {
    const engine = recordingEngine(
      { id: 'stuffer' },
      {
        async assemble(params): Promise<AssembleResult> {
          if (params.messages.length === 0) return { messages: [], estimatedTokens: 0 };
          return { messages: [...params.messages, user('padding '.repeat(30000))], estimatedTokens: 60000 };
        },
      },
    );
    const rec = await replaySession({
      session: new SessionBuilder().turn('a').turn('b').loaded(),
      lanes: [lane('stuffer', engine.factory)],
    });
    const t = rec.turns.stuffer[1];
    expect(t.precheck).toMatchObject({
      skipped: false,
      route: 'compact_only',
      shouldCompact: true,
      reducibleToolResultChars: 0,
    });
    expect(t.status).toBe('prompt_error');
    expect(t.error).toBe(PRECHECK_OVERFLOW_ERROR_MESSAGE);
    expect(PRECHECK_OVERFLOW_ERROR_MESSAGE).toBe('Context overflow: prompt too large for the model (precheck).');
    // not submitted: afterTurn saw no new messages after the pre-prompt ones
    const after = engine.callsOf('afterTurn');
    expect(after).toHaveLength(0);
    const ingests = engine.callsOf('ingest').map((c) => (c.params as { message: AgentMessage }).message.role);
    expect(ingests).toEqual(['user', 'assistant']); // turn 0 only
  });

  it('§14.45 a provider overflow calls the active engine\'s compact with force and compactionTarget "budget", even for a non-owner', async () => {
    let first = true;
    const engine = recordingEngine(
      { id: 'plain' },
      {
        async assemble(params): Promise<AssembleResult> {
          if (params.messages.length > 0 && first) {
            first = false;
            // cheap for OpenClaw's estimator, expensive for the tokenizer: passes the precheck, overflows the provider
            return { messages: [...params.messages, user('ꙮ'.repeat(24000))], estimatedTokens: 0 };
          }
          return { messages: params.messages, estimatedTokens: 0 };
        },
        async compact(): Promise<CompactResult> {
          return { ok: true, compacted: true, result: { tokensBefore: 72000, tokensAfter: 100 } };
        },
      },
    );
    const rec = await replaySession({
      session: new SessionBuilder().turn('a').turn('b').loaded(),
      lanes: [lane('plain', engine.factory, { contextWindow: 64000 })],
    });
    const t = rec.turns.plain[1];
    expect(t.precheck.route).toBe('fits');
    const [call] = engine.callsOf('compact');
    const params = call.params as CompactParams;
    expect(params).toMatchObject({ force: true, compactionTarget: 'budget', tokenBudget: 64000, sessionId: 'sess-1' });
    expect(params.currentTokenCount).toBeGreaterThan(64000);
    expect(params.forceReason).toBeUndefined();
    expect(t.events.filter((e) => e.type === 'compaction')).toEqual([
      expect.objectContaining({ trigger: 'overflow', engineId: 'plain', compacted: true }),
    ]);
    expect(t.status).toBe('ok');
    expect(t.attempts).toBe(2);
  });

  it('§14.46 a CompactResult naming a successor sessionId and sessionFile is adopted for the retry', async () => {
    const dir = tempDir();
    const successorFile = join(dir, 'successor.jsonl');
    let overflowOnce = true;
    const engine = recordingEngine(
      { id: 'rotator', ownsCompaction: true },
      {
        async assemble(params): Promise<AssembleResult> {
          // the turn's assemble (it has the prompt; the one at the model call, §7.2a, has none on 2026.7.35)
          if (params.messages.length > 0 && params.prompt !== undefined && overflowOnce) {
            overflowOnce = false;
            return { messages: [user('ꙮ'.repeat(24000))], estimatedTokens: 72000 };
          }
          return { messages: params.messages, estimatedTokens: 0 };
        },
        async compact(params): Promise<CompactResult> {
          writeFileSync(
            successorFile,
            serializeSessionEntries(
              { type: 'session', version: 3, id: 'succ-1', timestamp: '2026-03-02T10:00:00.000Z', cwd: '/work' },
              [],
            ),
          );
          expect((params as CompactParams).sessionId).toBe('sess-1');
          return {
            ok: true,
            compacted: true,
            result: { tokensBefore: 72000, tokensAfter: 0, sessionId: 'succ-1', sessionFile: successorFile },
          };
        },
        async afterTurn() {},
      },
    );
    const rec = await replaySession({
      session: new SessionBuilder().turn('a').turn('b').turn('c').loaded(),
      lanes: [lane('rotator', engine.factory, { contextWindow: 64000 })],
    });
    const assembles = engine
      .callsOf('assemble')
      .map((c) => c.params as { sessionId: string; messages: AgentMessage[]; prompt?: string })
      .filter((a) => a.prompt !== undefined);
    // turn 0, turn 1 (overflow), turn 1 retry on the successor, turn 2
    expect(assembles.map((a) => a.sessionId)).toEqual(['sess-1', 'sess-1', 'succ-1', 'succ-1']);
    expect(assembles[2].messages).toEqual([]);
    const afterTurns = engine.callsOf('afterTurn').map((c) => c.params as { sessionId: string; sessionFile: string });
    // turn 0's two (at the model call, §7.2a, and at the end) on sess-1; turns 1 and 2's on the successor
    expect(afterTurns.slice(2)).toEqual(
      Array.from({ length: 4 }, () => expect.objectContaining({ sessionId: 'succ-1', sessionFile: successorFile })),
    );
    expect(rec.turns.rotator[1].events.find((e) => e.type === 'compaction')).toMatchObject({
      successorSessionId: 'succ-1',
      successorSessionFile: successorFile,
    });
    // the recorded turn went on into the successor transcript
    expect(readFileSync(successorFile, 'utf8')).toContain('"content":"b"');
  });
});
