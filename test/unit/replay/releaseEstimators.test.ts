/**
 * The estimates a replay makes as the release that wrote the session (src/replay/lane/versionProfiles.ts):
 * - the compaction estimator: 2026.3 – 2026.7 count UTF-16 length (pi-coding-agent 0.70 compaction.js, 7.35
 *   proxy-*.js `estimateTokens`), 2026.8+ weigh a CJK character as 4 (9.6 compaction-*.mjs) — on Chinese text the
 *   old releases estimate a quarter of what the new ones do, and compact that much later;
 * - the pre-prompt precheck: none before 2026.4.7 (3.31), 2026.4.7 – 5.21's `estimatePrePromptTokens` (4.25
 *   preemptive-compaction-*.js: the harness estimate of the messages and the prompt × 1.2, the system prompt free),
 *   engines that own compaction prechecked before 2026.7.1 (6.11 selection-*.js) and skipped from it (7.35), and the
 *   unwindowed estimate whenever the engine assembled other messages on 2026.4 (4.25) but only for the
 *   `preassembly_may_overflow` authority from 2026.5 (5.2).
 */
import { describe, expect, it } from 'vitest';
import type { AssembleResult, UserMessage } from '../../../src/contract';
import type { Recording, TurnRecord } from '../../../src/contract/recording';
import { replaySession, type ReplayLaneConfig } from '../../../src/replay';
import { estimateMessageTokensBy, IMAGE_OMISSION_NOTE } from '../../../src/tokens';
import { recordingEngine, SessionBuilder } from './sessionBuilder';

const CHINESE = '上下文引擎决定模型每一轮看到的内容'.repeat(40); // 680 CJK characters

const legacy = (contextWindow: number): ReplayLaneConfig => ({ engine: { kind: 'legacy' }, contextWindow });

async function replayAs(
  openclawVersion: string,
  build: (b: SessionBuilder) => void,
  lanes: ReplayLaneConfig[],
  systemPrompt = '',
): Promise<Recording> {
  const b = new SessionBuilder();
  build(b);
  return replaySession({ session: b.loaded(), lanes, sessionKey: 'agent:main:main', openclawVersion, systemPrompt });
}

const turnsOf = (rec: Recording, lane: string): TurnRecord[] => rec.turns[lane]!;
/** the turns with a threshold (`auto`) compaction after them */
const thresholdCompactions = (rec: Recording, lane: string) =>
  turnsOf(rec, lane).flatMap((t, i) =>
    t.events.some((e) => e.type === 'compaction' && e.trigger === 'auto') ? [i] : [],
  );

describe('the compaction estimator per release', () => {
  it('counts a CJK character as one char on 2026.3 – 2026.7 and as four on 2026.8+; images 4,800 against 8,000 chars', () => {
    const message: UserMessage = {
      role: 'user',
      content: [
        { type: 'text', text: CHINESE },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      timestamp: 0,
    };
    expect(estimateMessageTokensBy(message, 'plain')).toBe(Math.ceil((680 + 4800) / 4));
    // and the image's omission note, with the serializer's separator, as the summary input would hold it
    const note = IMAGE_OMISSION_NOTE.length + '\n\n[Tool result]: '.length;
    expect(estimateMessageTokensBy(message, 'weighted')).toBe(Math.ceil((680 * 4 + 8000 + note) / 4));
  });

  it('a Chinese session under a 32k window: 2026.9.6 compacts at the threshold, 2026.7.35 and 2026.4.25 estimate a quarter of it and do not', async () => {
    const build = (b: SessionBuilder) => {
      for (let i = 0; i < 20; i++) b.turn(`${i} ${CHINESE}`, `${CHINESE}`);
    };
    // thresholds: 9.6 at 24,000 (reserve capped at a quarter), 7.35 and 4.25 at 12,000 (reserve 20,000); the
    // history reaches about 27,000 weighted tokens, 7,000 plain
    const newest = await replayAs('2026.9.6', build, [legacy(32_000)]);
    const july = await replayAs('2026.7.35', build, [legacy(32_000)]);
    const april = await replayAs('2026.4.25', build, [legacy(32_000)]);
    // the message estimate each lane shows is its release's: about a quarter on the Chinese history
    expect(turnsOf(july, 'legacy')[1]!.totals.estTokens * 3).toBeLessThan(
      turnsOf(newest, 'legacy')[1]!.totals.estTokens,
    );
    expect(thresholdCompactions(newest, 'legacy').length).toBeGreaterThan(0);
    expect(thresholdCompactions(july, 'legacy')).toEqual([]);
    expect(thresholdCompactions(april, 'legacy')).toEqual([]);
    // (2026.7.35's precheck weighs CJK at the LLM boundary and compacts for overflow; 2026.4.25's counts chars)
    expect(turnsOf(april, 'legacy').every((t) => t.status === 'ok')).toBe(true);
  });
});

describe('the pre-prompt precheck per release', () => {
  // a prompt over an 8k window on its own: every release with a precheck stops it before the provider
  const oversized = (b: SessionBuilder) => b.turn('x'.repeat(40_000), 'done');

  it('2026.3.31 has none: the record says so and the prompt goes to the provider', async () => {
    const rec = await replayAs('2026.3.31', oversized, [legacy(8_192)]);
    const turn = turnsOf(rec, 'legacy')[0]!;
    expect(turn.precheck.skipped).toBe(true);
    expect(turn.precheck.skipReason).toMatch(/no pre-prompt precheck in this release/);
    expect(turn.error ?? '').not.toMatch(/precheck/);
    const july = turnsOf(await replayAs('2026.7.35', oversized, [legacy(8_192)]), 'legacy')[0]!;
    expect(july.precheck.skipped).toBe(false);
    expect(july.status).toBe('prompt_error');
    expect(july.error).toMatch(/precheck/);
  });

  it('2026.4.25 estimates the messages and the prompt by chars/4 × 1.2; the system prompt costs nothing', async () => {
    const build = (b: SessionBuilder) => {
      b.turn(CHINESE, 'ok');
      b.turn('abcd'.repeat(50), 'ok');
    };
    const system = 'You are a helpful assistant. '.repeat(100);
    const april = turnsOf(await replayAs('2026.4.25', build, [legacy(200_000)], system), 'legacy');
    // turn 1: the history (user 680 chars → 170, assistant "ok" → 1) and the 200-char prompt (50), × 1.2
    expect(april[1]!.precheck.estimatedTokens).toBe(Math.ceil((170 + 1 + 50) * 1.2));
    const withoutSystem = turnsOf(await replayAs('2026.4.25', build, [legacy(200_000)]), 'legacy');
    expect(withoutSystem[1]!.precheck.estimatedTokens).toBe(april[1]!.precheck.estimatedTokens);
    // 2026.7.35 counts the system prompt and weighs the CJK history at the LLM boundary
    const july = turnsOf(await replayAs('2026.7.35', build, [legacy(200_000)], system), 'legacy');
    expect(july[1]!.precheck.estimatedTokens).toBeGreaterThan(april[1]!.precheck.estimatedTokens + 700);
  });

  it('an engine that owns compaction is prechecked on 2026.6.11 and skipped on 2026.7.35', async () => {
    const owner = recordingEngine({ id: 'owner', ownsCompaction: true });
    const lane: ReplayLaneConfig = {
      engine: { kind: 'in-process', engineId: 'owner', factory: owner.factory as never },
      contextWindow: 8_192,
    };
    const june = turnsOf(await replayAs('2026.6.11', oversized, [lane]), 'owner')[0]!;
    expect(june.precheck.skipped).toBe(false);
    expect(june.precheck.route).not.toBe('fits');
    const july = turnsOf(await replayAs('2026.7.35', oversized, [lane]), 'owner')[0]!;
    expect(july.precheck.skipped).toBe(true);
    expect(july.precheck.skipReason).toMatch(/owns compaction/);
  });

  it('an engine that windows the history: 2026.4.25 prechecks the unwindowed estimate, 2026.5.2 the assembled one', async () => {
    const windowing = recordingEngine(
      { id: 'window' },
      {
        async assemble(params): Promise<AssembleResult> {
          return { messages: params.messages.slice(-1), estimatedTokens: 1 };
        },
      },
    );
    const lane: ReplayLaneConfig = {
      engine: { kind: 'in-process', engineId: 'window', factory: windowing.factory as never },
      contextWindow: 200_000,
    };
    const build = (b: SessionBuilder) => {
      for (let i = 0; i < 4; i++) b.turn(`${i} ${'history '.repeat(500)}`, 'ok');
    };
    const april = turnsOf(await replayAs('2026.4.25', build, [lane]), 'window')[3]!;
    const may = turnsOf(await replayAs('2026.5.2', build, [lane]), 'window')[3]!;
    expect(april.precheck.pressureSource).toBe('unwindowed_transcript_estimate');
    expect(may.precheck.pressureSource).toBe('assembled');
    expect(april.precheck.estimatedTokens).toBeGreaterThan(may.precheck.estimatedTokens + 2_000);
  });
});
