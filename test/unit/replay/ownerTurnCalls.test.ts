/**
 * An engine that owns compaction, called per turn as each release calls it (versionProfiles.ts `ownerModelCallHook`
 * and `ownerCompactionAfterTurn`, read in the dists and matched by test/fixtures/openclaw-real/*
 * /plugin-owns-compaction): 2026.3.31 calls it once per turn; from 2026.4.25 the host calls afterTurn + assemble
 * again at the model call, and the model gets what that assemble returns; 2026.6.11 – 2026.7.35 also check the
 * prompt budget after the turn and compact the engine (force) over it; 2026.9.6 assembles the history again at the
 * model call of a logical turn, without afterTurn, and commits.
 */
import { describe, expect, it } from 'vitest';
import type { AgentMessage, AssembleParams, CompactParams } from '../../../src/contract';
import type { Recording } from '../../../src/contract/recording';
import { replaySession } from '../../../src/replay';
import { recordingEngine, SessionBuilder, textOf } from './sessionBuilder';

const LONG = 'The keeper trimmed the wick and polished the lens before dusk. '.repeat(1200);

/** Two turns whose first prompt alone is over the 12,000-token prompt budget of a 32k window (reserve 20,000 on 2026.7). */
const session = () => new SessionBuilder().turn(LONG, 'first answer').turn('second question').loaded();
/** Two small turns: nothing near a budget. */
const small = () => new SessionBuilder().turn('first question').turn('second question').loaded();

/** Keeps a summary of what it had assembled when compact() ran (like test/differential/plugins/differential-engine). */
function summarizingOwner() {
  let lastCount = 0;
  let cutAt = 0;
  return recordingEngine(
    {
      id: 'owner',
      ownsCompaction: true,
      transcriptSemantics: {
        currentTurnFence: 'before-current-turn-entry-v1',
        turnAdvancementIdempotency: 'atomic-idempotent-v1',
      },
    },
    {
      async bootstrap() {
        return { bootstrapped: true };
      },
      async maintain() {
        return { changed: false, bytesFreed: 0, rewrittenEntries: 0 };
      },
      async afterTurn() {},
      async commitTurn() {
        return { status: 'committed' };
      },
      async assemble(params: AssembleParams) {
        lastCount = params.messages.length;
        const summary: AgentMessage = { role: 'user', content: `[summary of ${cutAt}]`, timestamp: 1 };
        return {
          messages: cutAt > 0 ? [summary, ...params.messages.slice(cutAt)] : params.messages,
          estimatedTokens: 0,
        };
      },
      async compact(_params: CompactParams) {
        cutAt = lastCount;
        return {
          ok: true,
          compacted: true,
          result: { summary: `summary of ${cutAt}`, tokensBefore: 1, tokensAfter: 1 },
        };
      },
    },
  );
}

/** The text of a recorded message. */
const textAt = (recording: Recording, key: string) => textOf(recording.messages[key]!.message as AgentMessage);

async function replayOn(version: string, loaded = session()) {
  const engine = summarizingOwner();
  const recording = await replaySession({
    session: loaded,
    lanes: [{ engine: { kind: 'in-process', engineId: 'owner', factory: engine.factory }, contextWindow: 32000 }],
    openclawVersion: version,
  });
  const turns = recording.turns.owner!;
  const methods = turns.map((t) => t.calls.map((c) => c.method).filter((m) => m !== 'dispose'));
  return { recording, turns, methods, engine };
}

describe('an engine that owns compaction, per release', () => {
  it('2026.3.31: assemble, afterTurn, maintain — no model-call hook, no compaction after the turn', async () => {
    const { methods } = await replayOn('2026.3.31', small());
    expect(methods).toEqual([
      ['assemble', 'afterTurn', 'maintain'],
      ['bootstrap', 'maintain', 'assemble', 'afterTurn', 'maintain'],
    ]);
  });

  it('2026.5.2: afterTurn + assemble again at the model call, no compaction after the turn', async () => {
    const { methods } = await replayOn('2026.5.2', small());
    expect(methods).toEqual([
      ['assemble', 'afterTurn', 'assemble', 'afterTurn', 'maintain'],
      ['bootstrap', 'maintain', 'assemble', 'afterTurn', 'assemble', 'afterTurn', 'maintain'],
    ]);
  });

  it('2026.7.35: the model call hook, then compact(force) when the prompt was over the budget, and maintain', async () => {
    const { methods, turns, engine } = await replayOn('2026.7.35');
    // the first prompt is over the budget, the second (a summary, an answer, a question) is not
    expect(methods).toEqual([
      ['assemble', 'afterTurn', 'assemble', 'afterTurn', 'maintain', 'compact', 'maintain'],
      ['bootstrap', 'maintain', 'assemble', 'afterTurn', 'assemble', 'afterTurn', 'maintain'],
    ]);
    expect(engine.callsOf('compact')[0]!.params).toMatchObject({ force: true, compactionTarget: 'budget' });
    // the compaction is the turn's event, with the figures it was decided on
    const compaction = turns[0]!.events.find((e) => e.type === 'compaction');
    expect(compaction).toMatchObject({ trigger: 'budget', engineId: 'owner', compacted: true });
    expect(compaction?.type === 'compaction' && compaction.cause).toMatchObject({ measure: 'context', limit: 12000 });
  });

  it('2026.7.35: the next turn assembles the engine summary, and the model gets what the model-call assemble returned', async () => {
    const { recording, turns } = await replayOn('2026.7.35');
    const texts = (keys: readonly string[]) => keys.map((k) => textAt(recording, k));
    // turn 1 compacted what the model call had assembled: [prompt 1]; turn 2 assembles [summary, answer 1]
    expect(texts(turns[1]!.assembled.map((a) => a.key))).toEqual(['[summary of 1]', 'first answer']);
    // the model-call assemble got [summary, answer 1, prompt 2] and cut at 1 again: the same, so no model-call list
    expect(turns[1]!.modelCallKeys).toBeUndefined();
    expect(turns[1]!.asSent!.messages.map((m) => m.key)).toEqual([
      ...turns[1]!.assembled.map((a) => a.key),
      turns[1]!.promptKey,
    ]);
  });

  it('2026.7.35: when the model-call assemble differs (here it drops the prompt), the model gets that', async () => {
    const three = new SessionBuilder().turn(LONG, 'first answer').turn(LONG, 'second answer').turn('third');
    const { recording, turns } = await replayOn('2026.7.35', three.loaded());
    const third = turns[2]!;
    // compact after turn 2 cut at the 3 messages the model call assembled: [summary, answer 1, prompt 2]
    expect(third.assembled.map((a) => textAt(recording, a.key))).toEqual(['[summary of 3]', 'second answer']);
    // at the model call [summary, answer 2, prompt 3] is cut at 3 again: only the summary is sent
    expect(third.modelCallKeys!.map((k) => textAt(recording, k))).toEqual(['[summary of 3]']);
    expect(third.asSent!.messages.map((m) => [m.key, m.origin])).toEqual([[third.modelCallKeys![0], 'assembled']]);
  });

  it('2026.9.6: assemble of the history again at the model call, then commitTurn and maintain; no compaction', async () => {
    const { methods, engine } = await replayOn('2026.9.6');
    expect(methods).toEqual([
      ['assemble', 'assemble', 'commitTurn', 'maintain'],
      ['bootstrap', 'maintain', 'assemble', 'assemble', 'commitTurn', 'maintain'],
    ]);
    // (the long first prompt is over 2026.9.6's budget too, but its precheck only logs and nothing compacts after)
    // the history before the prompt, with the prompt, and a budget less what is pending (the prompt)
    const second = engine.callsOf('assemble')[3]!.params as AssembleParams;
    expect(second.messages.map(textOf)).toEqual([LONG, 'first answer']);
    expect(second.prompt).toBe('second question');
    expect(second.tokenBudget).toBeLessThan(32000);
  });
});
