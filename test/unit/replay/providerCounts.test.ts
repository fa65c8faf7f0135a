/**
 * Issue 31 item 3: the provider's own token counts decide whether the provider overflowed. A Chinese MiniMax
 * session whose recorded usage is about 0.4× tiktoken's count: the legacy lane (OpenClaw's context) never compacts
 * for an overflow the provider did not report; a recorded context-overflow error still compacts; a lane that
 * assembles something else scales its tiktoken count by the session's measured ratio; a model served by Ollama
 * never overflows; a session without usage falls back to tiktoken.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentMessage, AssembleResult, CompactResult } from '../../../src/contract';
import type { ProviderCheck, Recording, TurnRecord } from '../../../src/contract/recording';
import { replaySession, type ReplayLaneConfig } from '../../../src/replay';
import { recordingEngine, tempDir } from './sessionBuilder';
import { chineseText, writeProviderUsageSession, type ProviderUsageSessionOptions } from './providerUsageSession';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function session(options: ProviderUsageSessionOptions) {
  const dir = tempDir('cs-provider-counts-');
  dirs.push(dir);
  return writeProviderUsageSession(dir, options);
}

const RATIO = 0.4;
const OVERHEAD = 1500;
const WINDOW = 16_000;
/** 10 turns of ~1,900 tiktoken tokens each: the last prompts count ~19k tiktoken, ~9k for the provider */
const CJK: ProviderUsageSessionOptions = { turns: 10, replyChars: 3000, ratio: RATIO, overhead: OVERHEAD };

const legacy = (extra: Partial<ReplayLaneConfig> = {}): ReplayLaneConfig => ({
  engine: { kind: 'legacy' },
  contextWindow: WINDOW,
  ...extra,
});

const compactionsOf = (turns: readonly TurnRecord[], trigger?: string) =>
  turns.flatMap((t) => t.events).filter((e) => e.type === 'compaction' && (!trigger || e.trigger === trigger));
const checksOf = (turn: TurnRecord): ProviderCheck[] => turn.providerChecks ?? [];
const replay = (options: Parameters<typeof replaySession>[0]) =>
  replaySession({ openclawVersion: '2026.9.6', ...options }) as Promise<Recording>;

describe('provider overflow on the provider’s own counts', () => {
  it('a recorded turn decides on the recorded usage: no overflow compaction where tiktoken alone would overflow', async () => {
    const rec = await replay({ session: await session(CJK), lanes: [legacy()] });
    const turns = rec.turns.legacy!;
    expect(compactionsOf(turns)).toEqual([]);
    const last = checksOf(turns[9]!)[0]!;
    // tiktoken alone counts more than the window; the provider counted well under half of it
    expect(last.tiktokenTokens).toBeGreaterThan(WINDOW);
    expect(last).toMatchObject({ source: 'recorded', overflowed: false, model: 'minimax/MiniMax-M2' });
    expect(last.providerTokens).toBeLessThan(WINDOW / 1.5);
    expect(last.providerTokens).toBe(Math.round(RATIO * last.tiktokenTokens) + OVERHEAD);
    expect(last.recordedEntryId).toBe(rec.session.messageKeys[rec.session.turnStarts[9]! + 1]);
    for (const turn of turns) expect(checksOf(turn).map((c) => c.source)).toEqual(['recorded']);
    expect(turns.every((t) => t.status === 'ok' && t.attempts === 1)).toBe(true);
  });

  it('a recorded context-overflow error still compacts, though tiktoken says the prompt fits', async () => {
    const error = 'invalid params, context window exceeds limit (2013)';
    const loaded = await session({ ...CJK, turns: 8, replyChars: 800, overflowAtTurn: { turn: 5, error } });
    const rec = await replay({ session: loaded, lanes: [legacy({ keepRecentTokens: 1500 })] });
    const turns = rec.turns.legacy!;
    const overflow = compactionsOf(turns, 'overflow');
    expect(overflow).toHaveLength(1);
    expect(overflow[0]).toMatchObject({ turn: 5, compacted: true });
    expect(compactionsOf(turns)).toHaveLength(1);
    const [first, retry] = checksOf(turns[5]!);
    expect(first).toMatchObject({ attempt: 0, source: 'recorded', overflowed: true, recordedError: error });
    expect(first!.tiktokenTokens).toBeLessThan(WINDOW);
    // the retry after the recovery is no recorded request of turn 5 (OpenClaw sent it again as turn 6)
    expect(retry).toMatchObject({ attempt: 1, source: 'scaled', overflowed: false });
    expect(turns[5]!.attempts).toBe(2);
    // the lane recovered where OpenClaw did: the retried prompt is a recorded request again
    expect(checksOf(turns[6]!)).toEqual([expect.objectContaining({ source: 'recorded', overflowed: false })]);
    expect(checksOf(turns[7]!)).toEqual([expect.objectContaining({ source: 'recorded' })]);
  });

  it('a lane that assembles something else scales its tiktoken count by the session’s measured ratio', async () => {
    // an engine that owns compaction and adds a pasted log: 30k characters on turn 3, 60k on turn 5
    const paste: Record<number, number> = { 3: 30_000, 5: 60_000 };
    const engine = recordingEngine(
      { id: 'paster', ownsCompaction: true },
      {
        async assemble(params): Promise<AssembleResult> {
          const p = params as { messages: AgentMessage[]; prompt?: string };
          const turn = Number(/^第(\d+)步/.exec(p.prompt ?? '')?.[1] ?? 0) - 1;
          const chars = paste[turn];
          const extra: AgentMessage[] = chars ? [{ role: 'user', content: chineseText(chars, 9), timestamp: 1 }] : [];
          return { messages: [...p.messages, ...extra], estimatedTokens: 0 };
        },
        async compact(): Promise<CompactResult> {
          return { ok: true, compacted: false, reason: 'nothing to compact' };
        },
      },
    );
    // 2026.7.35: the engine serves the turn (on 2026.8+ an engine without the turn-commit contract degrades to legacy)
    const rec = await replay({
      openclawVersion: '2026.7.35',
      session: await session(CJK),
      lanes: [
        { engine: { kind: 'in-process', engineId: 'paster', factory: engine.factory as never }, contextWindow: WINDOW },
      ],
    });
    const turns = rec.turns.paster!;
    const [fits] = checksOf(turns[3]!);
    expect(fits).toMatchObject({ source: 'scaled', overflowed: false, measuredTurns: 10 });
    expect(fits!.ratio).toBeCloseTo(RATIO, 2);
    expect(Math.abs(fits!.overheadTokens! - OVERHEAD)).toBeLessThan(50);
    expect(fits!.tiktokenTokens).toBeGreaterThan(WINDOW);
    expect(fits!.providerTokens).toBe(Math.round(fits!.ratio! * fits!.tiktokenTokens + fits!.overheadTokens!));
    expect(fits!.providerTokens).toBeLessThan(WINDOW);
    const [overflows] = checksOf(turns[5]!);
    expect(overflows).toMatchObject({ source: 'scaled', overflowed: true });
    expect(overflows!.providerTokens).toBeGreaterThan(WINDOW);
    // only turn 5's prompt made the provider overflow: overflow recovery compacts on the owner there only (the budget
    // check after a turn, docs/openclaw-behaviour.md §7.2a, says `cli_budget` in its runtime context)
    const forced = engine
      .callsOf('compact')
      .map((c) => c.params as { currentTokenCount?: number; runtimeContext?: { trigger?: string } })
      .filter((p) => p.runtimeContext?.trigger !== 'cli_budget');
    expect(forced).toHaveLength(1);
    expect(forced[0]!.currentTokenCount).toBe(overflows!.providerTokens);
    expect(turns.map((t) => t.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'prompt_error', 'ok', 'ok', 'ok', 'ok']);
    expect(turns[5]!.error).toContain('scaled by the session’s measured ratio');
  });

  it('a legacy lane with other settings decides on recorded usage until it compacts where OpenClaw did not, then scales', async () => {
    const rec = await replay({ session: await session(CJK), lanes: [legacy({ contextWindow: 9000 })] });
    const turns = rec.turns['legacy']!;
    const auto = compactionsOf(turns, 'auto');
    expect(auto.length).toBeGreaterThan(0);
    const first = auto[0]!.turn!;
    for (const t of turns.slice(0, first + 1)) expect(checksOf(t)[0]!.source).toBe('recorded');
    for (const t of turns.slice(first + 1)) {
      expect(checksOf(t)[0]).toMatchObject({ source: 'scaled', measuredTurns: 10 });
    }
  });

  it('a model served by Ollama never overflows; the same session on MiniMax without usage falls back to tiktoken', async () => {
    const shape = { ...CJK, turns: 3, replyChars: 200, noUsage: true, bigPrompts: { 1: 20_000 } };
    const ollama = await replay({
      session: await session({ ...shape, provider: 'ollama', api: 'ollama', model: 'llama3' }),
      lanes: [legacy({ contextWindow: 8192 })],
    });
    const turns = ollama.turns.legacy!;
    expect(compactionsOf(turns, 'overflow')).toEqual([]);
    expect(turns[1]!.status).toBe('ok');
    expect(checksOf(turns[1]!)).toEqual([
      expect.objectContaining({ source: 'never', overflowed: false, model: 'ollama/llama3' }),
    ]);
    expect(checksOf(turns[1]!)[0]!.tiktokenTokens).toBeGreaterThan(8192);

    const other = await replay({ session: await session(shape), lanes: [legacy({ contextWindow: 8192 })] });
    const [check] = checksOf(other.turns.legacy![1]!);
    expect(check).toMatchObject({ source: 'tiktoken', overflowed: true, model: 'minimax/MiniMax-M2' });
    expect(other.turns.legacy![1]!.status).toBe('prompt_error');
  });
});
