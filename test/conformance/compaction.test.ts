import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentMessage, SessionEntry, SessionHeader } from '../../src/contract';
import { compactTranscript, findCutPoint, shouldCompact } from '../../src/engines/legacy';
import { resolveCompactionSettings } from '../../src/runtime/compactionSettings';
import type { Summarizer, SummaryRequest } from '../../src/summarize';
import { createSessionTranscript } from '../../src/transcripts';

const HEADER: SessionHeader = {
  type: 'session',
  version: 3,
  id: 's',
  timestamp: '2026-05-01T10:00:00.000Z',
  cwd: '/w',
};

function toEntries(messages: AgentMessage[]): SessionEntry[] {
  return messages.map((message, i) => ({
    type: 'message',
    id: `e${i + 1}`,
    parentId: i === 0 ? null : `e${i}`,
    timestamp: '2026-05-01T10:00:00.000Z',
    message,
  }));
}

/** Turns of: user, then tool rounds (assistant call + one result per call), then a closing assistant text. */
const sessionArb = fc
  .array(
    fc.record({
      userChars: fc.integer({ min: 1, max: 400 }),
      rounds: fc.array(
        fc.record({ calls: fc.integer({ min: 1, max: 3 }), resultChars: fc.integer({ min: 0, max: 3000 }) }),
        { maxLength: 4 },
      ),
      answerChars: fc.integer({ min: 0, max: 600 }),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((turns) => {
    const messages: AgentMessage[] = [];
    let call = 0;
    for (const turn of turns) {
      messages.push({ role: 'user', content: 'u'.repeat(turn.userChars), timestamp: 1 });
      for (const round of turn.rounds) {
        const ids = Array.from({ length: round.calls }, () => `call${++call}`);
        messages.push({
          role: 'assistant',
          content: ids.map((id) => ({ type: 'toolCall' as const, id, name: 'read', arguments: { path: `${id}.ts` } })),
          timestamp: 2,
        });
        for (const id of ids) {
          messages.push({
            role: 'toolResult',
            toolCallId: id,
            toolName: 'read',
            content: [{ type: 'text', text: 'r'.repeat(round.resultChars) }],
            isError: false,
            timestamp: 3,
          });
        }
      }
      messages.push({
        role: 'assistant',
        content: [{ type: 'text', text: 'a'.repeat(turn.answerChars) }],
        timestamp: 4,
      });
    }
    return messages;
  });

const echoSummarizer: Summarizer = {
  id: 'echo',
  summarize: async (request: SummaryRequest) => ({
    summary: `${request.kind}:${request.maxTokens}`,
    provider: 't',
    model: 't',
  }),
  complete: async () => {
    throw new Error('unused');
  },
};

describe('§14 conformance — built-in compaction', () => {
  it('§14.58 given a compaction cut, the first kept entry is never a toolResult (property)', () => {
    fc.assert(
      fc.property(sessionArb, fc.integer({ min: 1, max: 3000 }), (messages, keepRecentTokens) => {
        const entries = toEntries(messages);
        const cut = findCutPoint(entries, 0, entries.length, keepRecentTokens);
        const kept = entries[cut.firstKeptEntryIndex]!;
        return !(kept.type === 'message' && kept.message.role === 'toolResult');
      }),
      { numRuns: 300 },
    );
  });

  it('§14.58 the compaction entry a real run appends never names a toolResult as firstKeptEntryId', async () => {
    await fc.assert(
      fc.asyncProperty(sessionArb, fc.integer({ min: 1, max: 2000 }), async (messages, keepRecentTokens) => {
        const transcript = createSessionTranscript({ header: HEADER, entries: toEntries(messages) });
        const out = await compactTranscript({
          transcript,
          summarizer: echoSummarizer,
          settings: { enabled: true, reserveTokens: 1000, keepRecentTokens },
          force: true,
        });
        if (!out.compacted) return out.reason === 'nothing to compact';
        const kept = transcript.activePath().find((e) => e.id === out.result!.firstKeptEntryId)!;
        return !(kept.type === 'message' && kept.message.role === 'toolResult');
      }),
      { numRuns: 100 },
    );
  });

  it('§14.59 with enabled:true, reserveTokens:16384 and a 200 000 window, auto-compaction triggers only above 183 616', async () => {
    const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };
    expect(shouldCompact(183_616, 200_000, settings)).toBe(false);
    expect(shouldCompact(183_617, 200_000, settings)).toBe(true);

    const messages = toEntries([
      { role: 'user', content: 'x'.repeat(400), timestamp: 1 },
      { role: 'assistant', content: [{ type: 'text', text: 'y'.repeat(400) }], timestamp: 2 },
      { role: 'user', content: 'z'.repeat(400), timestamp: 3 },
    ]);
    const run = (currentTokenCount: number) =>
      compactTranscript({
        transcript: createSessionTranscript({ header: HEADER, entries: messages }),
        summarizer: echoSummarizer,
        settings: { ...settings, keepRecentTokens: 50 },
        tokenBudget: 200_000,
        currentTokenCount,
      });
    expect(await run(183_616)).toEqual({ ok: true, compacted: false, reason: 'below threshold' });
    expect((await run(183_617)).compacted).toBe(true);
  });

  it('§14.60 (compaction use) with a 16K budget and default settings, compaction reserves 8000 tokens', async () => {
    expect(resolveCompactionSettings({ contextTokenBudget: 16_000 }).reserveTokens).toBe(8000);
    const entries = toEntries([
      { role: 'user', content: 'x'.repeat(100_000), timestamp: 1 },
      { role: 'assistant', content: [{ type: 'text', text: 'y'.repeat(100_000) }], timestamp: 2 },
      // 20 100 estimate tokens: the default keepRecentTokens (20 000) is reached on this user message
      { role: 'user', content: 'z'.repeat(80_400), timestamp: 3 },
    ]);
    // no explicit settings: compactTranscript resolves them from the budget, so the trigger is 16000 − 8000
    const run = (currentTokenCount: number) =>
      compactTranscript({
        transcript: createSessionTranscript({ header: HEADER, entries }),
        summarizer: echoSummarizer,
        tokenBudget: 16_000,
        currentTokenCount,
      });
    expect((await run(8000)).reason).toBe('below threshold');
    const out = await run(8001);
    expect(out.compacted).toBe(true);
    // the history summary's output budget is floor(0.8 × 8000)
    expect(out.result!.summary).toBe('history:6400');
  });
});
