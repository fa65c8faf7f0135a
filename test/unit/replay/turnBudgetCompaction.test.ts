/**
 * After each turn's run, `openclaw agent` (4.25 – 7.35 cli-compaction-*.js `runCliTurnCompactionLifecycle`) measures
 * every message on the session's branch — compactions ignored — with the precheck's estimator and compacts through
 * the engine when that exceeds the prompt budget. So once the raw history is over the budget, every turn compacts
 * again, however little the last compaction kept (tool-results-64k-long on 2026.7.35 compacts after turns 5 and 6).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompactionCause, Recording, ReplayEvent } from '../../../src/contract/recording';
import { replaySession } from '../../../src/replay';
import { compactionCauseLine } from '../../../src/view';
import { SessionBuilder, tempDir } from './sessionBuilder';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Turns that each read a file of 6,000 characters: 3,000 precheck tokens a result, about 3,700 a turn with the margin. */
async function readingSession(turns: number) {
  const b = new SessionBuilder();
  for (let t = 1; t <= turns; t++) {
    b.user(`Read part${t}.txt`);
    b.assistant('', {
      toolCalls: [{ type: 'toolCall', id: `call${t}`, name: 'read', arguments: { path: `part${t}.txt` } }],
    });
    b.toolResult(`call${t}`, 'read', `part ${t} record: valve open, pressure steady\n`.repeat(150).slice(0, 6000));
    b.assistant(`Station ${t} logged it.`);
  }
  const dir = tempDir('cs-turn-budget-');
  dirs.push(dir);
  return b.write(dir);
}

type Compaction = Extract<ReplayEvent, { type: 'compaction' }>;

/** `openclaw agent --session-id sess-1` keys its session so; a Gateway chat session has another key. */
const CLI_SESSION_KEY = 'agent:main:explicit:sess-1';

async function budgetCompactions(openclawVersion: string, sessionKey = CLI_SESSION_KEY) {
  const rec = (await replaySession({
    openclawVersion,
    sessionKey,
    session: await readingSession(6),
    // 32k window, reserve 20,000: a prompt budget of 12,000; a compaction keeps about the last turn
    lanes: [{ engine: { kind: 'legacy' }, contextWindow: 32_000, keepRecentTokens: 4000 }],
    transcriptFiles: 'none',
  })) as Recording;
  return rec.turns.legacy!.flatMap((t) =>
    t.events
      .filter((e): e is Compaction => e.type === 'compaction' && e.trigger === 'budget')
      .map((e) => ({ turn: t.turn, e })),
  );
}

describe('the compaction openclaw agent runs after the turn when the session is over the prompt budget', () => {
  it('2026.7.35: measures the whole branch, so once it is over the budget every turn compacts again', async () => {
    const found = await budgetCompactions('2026.7.35');
    // four turns (14,856 with the margin) cross 12,000; every later turn still has them on the branch, though each
    // compaction keeps only about the last turn (the next prompts are estimated at 7,482: they fit)
    expect(found.map((f) => f.turn)).toEqual([3, 4, 5]);
    for (const { e } of found) {
      expect(e).toMatchObject({ engineId: 'legacy', compacted: true });
      const cause = e.cause as Extract<CompactionCause, { measure: 'session' }>;
      expect(cause).toMatchObject({ measure: 'session', source: 'session estimate', limit: 12_000 });
      expect(cause.tokens).toBeGreaterThan(cause.limit);
      expect(compactionCauseLine(e)).toContain('> prompt budget 12,000 (window − effective reserve)');
    }
    // the measure grows with the raw history, not with what the compactions kept
    const tokens = found.map((f) => (f.e.cause as { tokens: number }).tokens);
    expect(tokens).toEqual([...tokens].sort((a, b) => a - b));
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('2026.3.31 has no such step, 2026.9.6 does not run it for these sessions, nor does a Gateway session', async () => {
    expect(await budgetCompactions('2026.3.31')).toEqual([]);
    expect(await budgetCompactions('2026.9.6')).toEqual([]);
    expect(await budgetCompactions('2026.7.35', 'agent:main:main')).toEqual([]);
  });
});
