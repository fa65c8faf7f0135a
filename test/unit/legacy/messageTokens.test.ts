import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUNTIME_CONTEXT_CUSTOM_TYPE, type AgentMessage } from '../../../src/contract';
import { messagesTokens, messageTokens } from '../../../src/engines/legacy/messageTokens';
import { estimateMessagesTokens, estimateMessageTokens } from '../../../src/tokens';

const messageArb: fc.Arbitrary<AgentMessage> = fc.oneof(
  fc.string().map((text) => ({ role: 'user', content: text, timestamp: 1 }) as AgentMessage),
  fc.string().map(
    (text) =>
      ({
        role: 'assistant',
        content: [
          { type: 'text', text },
          { type: 'toolCall', id: 'c', name: 'read', arguments: { path: text } },
        ],
        timestamp: 2,
      }) as AgentMessage,
  ),
  fc.string().map(
    (text) =>
      ({
        role: 'toolResult',
        toolCallId: 'c',
        toolName: 'read',
        content: [{ type: 'text', text }],
        isError: false,
        timestamp: 3,
      }) as AgentMessage,
  ),
  fc
    .string()
    .map((text) => ({ role: 'compactionSummary', summary: text, tokensBefore: 1, timestamp: 4 }) as AgentMessage),
  fc.string().map(
    (text) =>
      ({
        role: 'custom',
        customType: RUNTIME_CONTEXT_CUSTOM_TYPE,
        content: text,
        display: false,
        details: { runtimeContextCarrier: true },
        timestamp: 5,
      }) as AgentMessage,
  ),
);

describe('messageTokens', () => {
  it('equals estimateMessageTokens / estimateMessagesTokens, also when asked again for the same messages', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 8 }), (messages) => {
        for (let round = 0; round < 2; round++) {
          for (const message of messages) expect(messageTokens(message)).toBe(estimateMessageTokens(message));
          expect(messagesTokens(messages)).toBe(estimateMessagesTokens(messages));
        }
      }),
      { numRuns: 500 },
    );
  });
});
