import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../src/contract';
import { summarizeHistoryDeterministically, summarizeTurnPrefixDeterministically } from '../../../src/summarize';
import { clip, extractConversationFacts } from '../../../src/summarize/extractConversationFacts';
import { fitSectionsToBudget } from '../../../src/summarize/fitSummaryToBudget';
import {
  HISTORY_SECTION_KEYS,
  mergeHistorySections,
  parseSummarySections,
  renderHistorySections,
  renderTurnPrefixSections,
  type HistorySectionKey,
  type HistorySections,
} from '../../../src/summarize/summarySections';

// The summaries as they were computed before identifiers were read lazily: every identifier extracted, then capped.
const CAPS: Record<HistorySectionKey, number> = {
  goal: 4,
  constraints: 8,
  done: 15,
  inProgress: 8,
  blocked: 8,
  decisions: 8,
  nextSteps: 5,
  critical: 40,
};
const DROP_ORDER: HistorySectionKey[] = [
  'done',
  'decisions',
  'constraints',
  'critical',
  'blocked',
  'inProgress',
  'nextSteps',
  'goal',
];

function referenceHistory(
  messages: AgentMessage[],
  previousSummary: string | undefined,
  focus: string | undefined,
  maxTokens: number,
): string {
  const facts = extractConversationFacts(messages, focus);
  const sections = previousSummary
    ? mergeHistorySections(parseSummarySections(previousSummary), facts.sections)
    : facts.sections;
  const capped = { ...sections } as HistorySections;
  for (const key of HISTORY_SECTION_KEYS) {
    const items = sections[key];
    capped[key] =
      items.length <= CAPS[key] ? items : key === 'done' ? items.slice(-CAPS[key]) : items.slice(0, CAPS[key]);
  }
  return fitSectionsToBudget(capped, DROP_ORDER, renderHistorySections, maxTokens);
}

function referenceTurnPrefix(messages: AgentMessage[], focus: string | undefined, maxTokens: number): string {
  const facts = extractConversationFacts(messages, focus);
  const s = facts.sections;
  const sections = {
    originalRequest: facts.userRequests.length > 0 ? [clip(facts.userRequests[0]!, 600)] : [],
    earlyProgress: [...s.done.map((d) => `done: ${d}`), ...facts.assistantStatements].slice(-12),
    contextForSuffix: [
      ...s.inProgress.map((p) => `pending: ${p}`),
      ...s.blocked.map((b) => `failed: ${b}`),
      ...s.decisions,
      ...s.critical,
    ].slice(0, 40),
  };
  return fitSectionsToBudget(
    sections,
    ['earlyProgress', 'contextForSuffix', 'originalRequest'],
    renderTurnPrefixSections,
    maxTokens,
  );
}

// words with many distinct identifiers (so Critical Context overflows its cap) and a few sentences that feed other sections
const wordArb = fc.oneof(
  fc.nat(60).map((n) => `src/mod${n}.ts`),
  fc.nat(60).map((n) => `https://ci.example.com/run/${n}`),
  fc.nat(60).map((n) => `host${n}.internal:${8000 + n}`),
  fc.nat(30).map((n) => `SRC/MOD${n}.TS`),
  fc.constantFrom(
    'port',
    '8080',
    'We decided to use pg.',
    'I will run tests next.',
    'You must not break the API.',
    'ok',
    '\n',
    'the',
  ),
);
const textArb = fc.array(wordArb, { maxLength: 14 }).map((w) => w.join(' '));
const messageArb: fc.Arbitrary<AgentMessage[]> = fc.oneof(
  textArb.map((text) => [{ role: 'user', content: text, timestamp: 1 } as AgentMessage]),
  fc.tuple(textArb, fc.constantFrom('c1', 'c2', 'c3'), textArb, fc.boolean()).map(([text, id, out, isError]) => [
    {
      role: 'assistant',
      content: [
        { type: 'text', text },
        { type: 'toolCall', id, name: 'read', arguments: { path: text.slice(0, 20) } },
      ],
      timestamp: 2,
    } as AgentMessage,
    {
      role: 'toolResult',
      toolCallId: id,
      toolName: 'read',
      content: [{ type: 'text', text: out }],
      isError,
      timestamp: 3,
    } as AgentMessage,
  ]),
  textArb.map((text) => [{ role: 'assistant', content: [{ type: 'text', text }], timestamp: 4 } as AgentMessage]),
  textArb.map((summary) => [
    {
      role: 'compactionSummary',
      summary: `## Critical Context\n- ${summary.split(' ').join('\n- ')}`,
      tokensBefore: 1,
      timestamp: 5,
    } as AgentMessage,
  ]),
);
const conversationArb = fc.array(messageArb, { maxLength: 10 }).map((groups) => groups.flat());
const focusArb = fc.option(fc.constantFrom('mod1 ci.example.com', 'port'), { nil: undefined });
const budgetArb = fc.constantFrom(60, 400, 5000);

describe('deterministic summaries read identifiers only up to the Critical Context cap', () => {
  it('history and update summaries equal the eager computation', () => {
    fc.assert(
      fc.property(
        conversationArb,
        conversationArb,
        fc.boolean(),
        focusArb,
        budgetArb,
        (earlier, messages, update, focus, maxTokens) => {
          const previousSummary = update ? referenceHistory(earlier, undefined, undefined, 5000) : undefined;
          expect(
            summarizeHistoryDeterministically({ messages, previousSummary, customInstructions: focus, maxTokens }),
          ).toBe(referenceHistory(messages, previousSummary, focus, maxTokens));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('turn-prefix summaries equal the eager computation', () => {
    fc.assert(
      fc.property(conversationArb, focusArb, budgetArb, (messages, focus, maxTokens) => {
        expect(summarizeTurnPrefixDeterministically({ messages, customInstructions: focus, maxTokens })).toBe(
          referenceTurnPrefix(messages, focus, maxTokens),
        );
      }),
      { numRuns: 1500 },
    );
  });
});
