/**
 * Issue 34 "why did it compact": every compaction the replay runs records its cause with the figures it was decided
 * on, and src/view puts them in one line (the turn view, the timeline badge, the HTML report): the precheck's
 * estimate against the compaction threshold, the provider's count against the window, the context after the turn
 * against window − reserve, a /compact request — and an owning engine that compacted on its own, seen by its
 * assembled context shrinking, is a compaction event too.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentMessage, AssembleResult } from '../../../src/contract';
import type { CompactionCause, Recording, ReplayEvent, TurnRecord } from '../../../src/contract/recording';
import { replaySession, type ReplayLaneConfig } from '../../../src/replay';
import { compactionCauseLine, turnBadges } from '../../../src/view';
import { recordingEngine, tempDir } from './sessionBuilder';
import { writeProviderUsageSession, type ProviderUsageSessionOptions } from './providerUsageSession';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function session(options: ProviderUsageSessionOptions) {
  const dir = tempDir('cs-compaction-cause-');
  dirs.push(dir);
  return writeProviderUsageSession(dir, options);
}

type Compaction = Extract<ReplayEvent, { type: 'compaction' }>;
const WINDOW = 16_000;
const CJK: ProviderUsageSessionOptions = { turns: 10, replyChars: 3000, ratio: 0.4, overhead: 1500 };
const legacy = (extra: Partial<ReplayLaneConfig> = {}): ReplayLaneConfig => ({
  engine: { kind: 'legacy' },
  contextWindow: WINDOW,
  ...extra,
});
const compactions = (turns: readonly TurnRecord[]) =>
  turns.flatMap((t) => t.events.filter((e): e is Compaction => e.type === 'compaction').map((e) => ({ e, t })));
const replay = (options: Parameters<typeof replaySession>[0]) => replaySession(options) as Promise<Recording>;

describe('the cause of each compaction, with its arithmetic', () => {
  it('a precheck compaction (2026.7.35): the estimate that crossed the threshold, by how much, on which attempt', async () => {
    const rec = await replay({ openclawVersion: '2026.7.35', session: await session(CJK), lanes: [legacy()] });
    const found = compactions(rec.turns.legacy!);
    expect(found.length).toBeGreaterThan(0);
    for (const { e, t } of found) {
      const cause = e.cause as Extract<CompactionCause, { measure: 'precheck' }>;
      expect(e.trigger).toBe('overflow');
      expect(cause.measure).toBe('precheck');
      expect(cause.tokens).toBeGreaterThan(cause.limit);
      // the threshold is the precheck's (the turn's record has it for its last attempt)
      expect(cause.limit).toBe(t.precheck.promptBudgetBeforeReserve);
      // a turn's compactions are its attempts in order; a turn sent after them fits under the same threshold
      const attempts = compactions([t]).map(({ e: c }) => (c.cause as { attempt: number }).attempt);
      expect(attempts).toEqual(attempts.map((_, i) => i));
      if (t.status === 'ok') expect(t.precheck.estimatedTokens).toBeLessThanOrEqual(cause.limit);
      const line = compactionCauseLine(e, t)!;
      expect(line).toBe(
        `precheck estimate ${cause.tokens.toLocaleString('en-US')} (assembled messages + system prompt + prompt) > ` +
          `compaction threshold ${cause.limit.toLocaleString('en-US')} (window − effective reserve), over by ` +
          `${(cause.tokens - cause.limit).toLocaleString('en-US')} · attempt ${cause.attempt + 1}`,
      );
      expect(turnBadges(t, []).find((b) => b.kind === 'compaction')!.title).toContain(`why: ${line}`);
    }
  });

  it('a provider overflow: the provider’s own answer on that attempt decides, and the line says so', async () => {
    const error = 'invalid params, context window exceeds limit (2013)';
    const loaded = await session({ ...CJK, turns: 8, replyChars: 800, overflowAtTurn: { turn: 5, error } });
    const rec = await replay({
      openclawVersion: '2026.9.6',
      session: loaded,
      lanes: [legacy({ keepRecentTokens: 1500 })],
    });
    const [{ e, t }] = compactions(rec.turns.legacy!);
    expect(e.cause).toEqual({ measure: 'provider', attempt: 0, limit: WINDOW });
    expect(compactionCauseLine(e, t)).toBe(
      `provider overflow on attempt 1: overflowed: the provider answered "${error}"`,
    );
  });

  it('a threshold compaction after the turn (2026.9.6): the context against window − reserve', async () => {
    const rec = await replay({
      openclawVersion: '2026.9.6',
      session: await session({ ...CJK, ratio: 1, overhead: 0 }),
      lanes: [legacy({ keepRecentTokens: 1500 })],
    });
    const auto = compactions(rec.turns.legacy!).filter(({ e }) => e.trigger === 'auto');
    expect(auto.length).toBeGreaterThan(0);
    for (const { e, t } of auto) {
      const cause = e.cause as Extract<CompactionCause, { measure: 'context' }>;
      expect(cause.measure).toBe('context');
      expect(cause.limit).toBe(WINDOW - t.budget.reserveTokens);
      expect(cause.tokens).toBeGreaterThan(cause.limit);
      expect(compactionCauseLine(e, t)).toMatch(/^context after the turn [\d,]+ \((recorded usage|OpenClaw estimate)/);
    }
  });

  it('an owning engine that folds its context without a compact() call gets an `engine` compaction event', async () => {
    // keeps everything until turn 6, then sends only the last two messages (a fold it does not report)
    const engine = recordingEngine(
      { id: 'folder', ownsCompaction: true },
      {
        async assemble(params): Promise<AssembleResult> {
          const p = params as { messages: AgentMessage[]; prompt?: string };
          const turn = Number(/^第(\d+)步/.exec(p.prompt ?? '')?.[1] ?? 0) - 1;
          return { messages: turn >= 6 ? p.messages.slice(-2) : p.messages, estimatedTokens: 0 };
        },
      },
    );
    const rec = await replay({
      openclawVersion: '2026.7.35',
      session: await session({ ...CJK, replyChars: 400 }),
      lanes: [
        {
          engine: { kind: 'in-process', engineId: 'folder', factory: engine.factory as never },
          contextWindow: 200_000,
        },
      ],
    });
    const turns = rec.turns.folder!;
    const found = compactions(turns);
    // once, where it folded: a window that stays small afterwards is no new fold
    expect(found.map(({ e }) => [e.turn, e.trigger, e.engineId])).toEqual([[6, 'engine', 'folder']]);
    const { e, t } = found[0]!;
    expect(e.tokensAfter).toBe(t.totals.estTokens);
    expect(e.tokensBefore).toBeGreaterThan(turns[5]!.totals.estTokens);
    expect(compactionCauseLine(e, t)).toContain('folder owns compaction and sent');
    expect(engine.callsOf('compact')).toHaveLength(0);
  });
});
