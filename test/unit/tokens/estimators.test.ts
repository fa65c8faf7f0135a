import { describe, expect, it } from 'vitest';
import type { AgentMessage, AssistantMessage, ToolResultMessage, UserMessage } from '../../../src/contract';
import {
  deriveAssembleTokenBudget,
  estimateMessageTokens,
  estimateMessagesTokens,
  estimatePrecheckMessageTokens,
  estimatePrecheckTokens,
  estimatePrecheckTokensFromMessageSum,
  estimateRenderedPromptTokens,
  estimateStringChars,
} from '../../../src/tokens';

const IMG = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
const user = (content: UserMessage['content'], extra: Partial<UserMessage> = {}): UserMessage => ({
  role: 'user',
  content,
  timestamp: 1,
  ...extra,
});

describe('estimateStringChars (OpenClaw cjk-chars)', () => {
  it('counts ASCII by length', () => {
    expect(estimateStringChars('hello')).toBe(5);
    expect(estimateStringChars('')).toBe(0);
  });
  it('weights each CJK / kana / Hangul char as 4', () => {
    // "你好世界": 4 chars, 4 weighted → 4 + 4×3 = 16
    expect(estimateStringChars('你好世界')).toBe(16);
    // "hi 你好": 5 chars, 2 weighted → 5 + 2×3 = 11
    expect(estimateStringChars('hi 你好')).toBe(11);
    // Hiragana あ (U+3042) and Hangul 한 (U+D55C): 1 + 3 each
    expect(estimateStringChars('あ')).toBe(4);
    expect(estimateStringChars('한')).toBe(4);
  });
  it('counts an emoji by UTF-16 length (2), like OpenClaw', () => {
    // 😀 is one code point but two UTF-16 units; OpenClaw collapses only CJK Ext-B pairs
    expect(estimateStringChars('😀')).toBe(2);
    // "😀你": length 3, 1 weighted → 3 + 3 = 6
    expect(estimateStringChars('😀你')).toBe(6);
  });
  it('2026.3 – 2026.7 collapse a CJK Extension B surrogate pair to one weighted char; 2026.8+ count it 16', () => {
    // 𠀀 U+20000: length 2 − 1 pair + 1×3 = 4 (basic, fullwidth); 2 + 14 (tiered, a supplementary ideograph)
    expect(estimateStringChars('\u{20000}', 'basic')).toBe(4);
    expect(estimateStringChars('\u{20000}', 'fullwidth')).toBe(4);
    expect(estimateStringChars('\u{20000}', 'tiered')).toBe(16);
  });

  it('a Chinese comma counts 1 through 2026.6 and 4 from 2026.7; radicals, halfwidth forms and "·" by tier on 2026.8+', () => {
    expect(['basic', 'fullwidth', 'tiered'].map((c) => estimateStringChars('，', c as never))).toEqual([1, 4, 4]);
    // ⺀ U+2E80 a radical (rare: 1 + 11), ｱ U+FF71 halfwidth katakana (two-token: 1 + 7), · U+00B7 (common: 1 + 3)
    expect(estimateStringChars('\u2E80', 'tiered')).toBe(12);
    expect(estimateStringChars('\u2E80', 'basic')).toBe(4);
    expect(estimateStringChars('\uFF71', 'tiered')).toBe(8);
    expect(estimateStringChars('\u00B7', 'tiered')).toBe(4);
    expect(estimateStringChars('\u00B7', 'fullwidth')).toBe(1);
  });
});

describe('estimateMessageTokens (compaction estimator)', () => {
  it('counts a text that is not a string as nothing instead of throwing (text.match is not a function)', () => {
    const malformed = { role: 'assistant', content: [{ type: 'text', text: 12345 }], timestamp: 1 } as never;
    expect(estimateMessageTokens(malformed)).toBe(0);
    expect(estimateStringChars(12345)).toBe(0);
  });

  it('user string: ceil(chars/4)', () => {
    // "hello world" = 11 chars → ceil(2.75) = 3
    expect(estimateMessageTokens(user('hello world'))).toBe(3);
  });
  it('CJK user text', () => {
    // 16 weighted chars → 4
    expect(estimateMessageTokens(user('你好世界'))).toBe(4);
  });
  it('user image: 8000 chars per image plus the omission note and separator once', () => {
    // "describe" 8 + 8000 + ("[image data omitted from summary input]" 39 + "\n\n[Tool result]: " 17) = 8064 → 2016
    expect(estimateMessageTokens(user([{ type: 'text', text: 'describe' }, IMG]))).toBe(2016);
    // "ab" 2 + 2×8000 + 56 (note deduplicated) = 16058 → ceil(4014.5) = 4015
    expect(estimateMessageTokens(user([{ type: 'text', text: 'ab' }, IMG, IMG]))).toBe(4015);
  });
  it('user with persisted sender charges the sender suffix', () => {
    // ' sender={"id":"u1","name":"Ann"}' = 8 + 24 = 32 chars, + "hi" 2 = 34 → ceil(8.5) = 9
    const msg = user('hi', { __openclaw: { senderId: 'u1', senderName: 'Ann' } });
    expect(estimateMessageTokens(msg)).toBe(9);
    // without a sender id the label is not charged: "hi" → 1
    expect(estimateMessageTokens(user('hi', { __openclaw: { senderName: 'Ann' } }))).toBe(1);
  });
  it('assistant: text + thinking + tool name + JSON args', () => {
    const msg: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'thinking', thinking: 'ok' },
        { type: 'toolCall', id: 'c1', name: 'read', arguments: { path: '/tmp/a.ts' } },
      ],
      timestamp: 1,
    };
    // 13 + 2 + 4 + '{"path":"/tmp/a.ts"}' 20 = 39 → ceil(9.75) = 10
    expect(estimateMessageTokens(msg)).toBe(10);
  });
  it('toolResult, bashExecution, summaries and excluded messages', () => {
    const result: ToolResultMessage = {
      role: 'toolResult',
      toolCallId: 'c1',
      toolName: 'read',
      content: [{ type: 'text', text: 'file contents' }],
      details: { huge: 'x'.repeat(1000) },
      isError: false,
      timestamp: 1,
    };
    // 13 chars → 4 (details never count)
    expect(estimateMessageTokens(result)).toBe(4);
    // "ls" + "a\nb" = 5 → 2
    const bash: AgentMessage = {
      role: 'bashExecution',
      command: 'ls',
      output: 'a\nb',
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: 1,
    };
    expect(estimateMessageTokens(bash)).toBe(2);
    // 10 chars → 3
    expect(
      estimateMessageTokens({ role: 'compactionSummary', summary: 'x'.repeat(10), tokensBefore: 5, timestamp: 1 }),
    ).toBe(3);
    expect(estimateMessageTokens(user('a long text that is excluded', { excludeFromContext: true }))).toBe(0);
  });
  it('estimateMessagesTokens skips runtime-context carriers', () => {
    const carrier: AgentMessage = {
      role: 'custom',
      customType: 'openclaw.runtime-context',
      content: 'x'.repeat(400),
      display: false,
      details: { source: 'openclaw-runtime-context', runtimeContextCarrier: true },
      timestamp: 1,
    };
    // only "hello world" (3) counts; the carrier would add 100
    expect(estimateMessagesTokens([user('hello world'), carrier])).toBe(3);
  });
});

describe('estimatePrecheckTokens (pre-prompt precheck estimator)', () => {
  const messages: AgentMessage[] = [
    user('hello world'),
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Sure.' },
        { type: 'toolCall', id: 'c1', name: 'read', arguments: { path: '/tmp/a.ts' } },
      ],
      timestamp: 2,
    },
    {
      role: 'toolResult',
      toolCallId: 'c1',
      toolName: 'read',
      content: [{ type: 'text', text: '0123456789' }],
      isError: false,
      timestamp: 3,
    },
  ];

  it('per message: 12-token boundary plus per-block rounded-up content', () => {
    // user string: 12 + ceil(11/4)=3 → 15 (a string content has no 6-token block overhead)
    expect(estimatePrecheckMessageTokens(messages[0]!)).toBe(15);
    // assistant: 12 + text(6 + ceil(5/4)=2) + toolCall(6 + ceil(4/3)=2 + ceil(20/3)=7) = 12 + 8 + 15 = 35
    expect(estimatePrecheckMessageTokens(messages[1]!)).toBe(35);
    // toolResult: 12 + text at chars/2 (6 + ceil(10/2)=5) + tool name ceil(4/3)=2 = 25
    expect(estimatePrecheckMessageTokens(messages[2]!)).toBe(25);
  });

  it('total: ceil((messages + system + prompt) × 1.2)', () => {
    // messages 15+35+25 = 75; system "You are helpful." 16 chars → 12 + 4 = 16; prompt "Next?" → 12 + ceil(5/4)=2 = 14
    // (75 + 16 + 14) × 1.2 = 105 × 1.2 = 126
    expect(estimatePrecheckTokens({ messages, systemPrompt: 'You are helpful.', prompt: 'Next?' })).toBe(126);
    // a blank system prompt costs nothing: (75 + 14) × 1.2 = 106.8 → 107
    expect(estimatePrecheckTokens({ messages, systemPrompt: '   ', prompt: 'Next?' })).toBe(107);
  });

  it('the cached per-message sum gives the same total', () => {
    const sum = messages.reduce((s, m) => s + estimatePrecheckMessageTokens(m), 0);
    expect(
      estimatePrecheckTokensFromMessageSum({
        messageTokensSum: sum,
        systemPrompt: 'You are helpful.',
        prompt: 'Next?',
      }),
    ).toBe(126);
  });

  it('an image block costs 2000 tokens flat; roles without content cost only the boundary', () => {
    // user [image]: 12 + 2000
    expect(estimatePrecheckMessageTokens(user([IMG]))).toBe(2012);
    // compactionSummary has no `content`: 12 only (faithful to OpenClaw)
    expect(
      estimatePrecheckMessageTokens({
        role: 'compactionSummary',
        summary: 'x'.repeat(400),
        tokensBefore: 1,
        timestamp: 1,
      }),
    ).toBe(12);
    // CJK text block: 12 + 6 + ceil(16/4)=4 = 22
    expect(estimatePrecheckMessageTokens(user([{ type: 'text', text: '你好世界' }]))).toBe(22);
  });

  it('rendered prompt estimate', () => {
    // no system prompt; prompt "abcd": (12 + 1) × 1.2 = 15.6 → 16
    expect(estimateRenderedPromptTokens({ prompt: 'abcd' })).toBe(16);
  });
});

describe('deriveAssembleTokenBudget', () => {
  it('tokenBudget = max(1, (budget − reserve) − rendered)', () => {
    // promptBudget = 16000 − 8000 = 8000; rendered = ceil((12 + 1) × 1.2) = 16 → 7984
    expect(deriveAssembleTokenBudget({ contextTokenBudget: 16000, reserveTokens: 8000, prompt: 'abcd' })).toEqual({
      contextTokenBudget: 16000,
      promptBudget: 8000,
      renderedTokens: 16,
      tokenBudget: 7984,
    });
  });
  it('falls back to the model window, then 200000; never below 1', () => {
    expect(
      deriveAssembleTokenBudget({ modelContextWindow: 128000, reserveTokens: 0, prompt: '' }).contextTokenBudget,
    ).toBe(128000);
    expect(deriveAssembleTokenBudget({ reserveTokens: 0, prompt: '' }).contextTokenBudget).toBe(200000);
    expect(deriveAssembleTokenBudget({ contextTokenBudget: 100, reserveTokens: 500, prompt: 'x' }).tokenBudget).toBe(1);
  });
});
