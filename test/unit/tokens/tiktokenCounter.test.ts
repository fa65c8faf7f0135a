import { describe, expect, it } from 'vitest';
import type { AssistantMessage, UserMessage } from '../../../src/contract';
import { countTokens, createTokenCounter, encodingForModel, TOKENIZER_IMAGE_TOKENS } from '../../../src/tokens';

describe('countTokens (tiktoken encode_ordinary)', () => {
  it('matches reference counts', () => {
    expect(countTokens('hello world')).toBe(2); // o200k_base: "hello", " world"
    expect(countTokens('hello world', 'cl100k_base')).toBe(2);
    // OpenAI cookbook example: "tiktoken is great!" is 6 tokens in cl100k_base
    expect(countTokens('tiktoken is great!', 'cl100k_base')).toBe(6);
    expect(countTokens('')).toBe(0);
  });
  it('counts special-token text as ordinary text instead of throwing', () => {
    expect(() => countTokens('<|im_start|>system<|im_end|>')).not.toThrow();
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });
  it('rejects an unknown encoding with a clear message', () => {
    expect(() => countTokens('x', 'p50k_base' as never)).toThrow(
      'Unknown token encoding "p50k_base": use "o200k_base" or "cl100k_base".',
    );
  });
});

describe('encodingForModel', () => {
  it.each([
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-turbo', 'cl100k_base'],
    ['gpt-4-0613', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['text-embedding-ada-002', 'cl100k_base'],
    ['openai/gpt-4', 'cl100k_base'],
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini', 'o200k_base'],
    ['gpt-4.1', 'o200k_base'],
    ['o1-preview', 'o200k_base'],
    ['o3-mini', 'o200k_base'],
    ['o4-mini', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['claude-sonnet-4', 'o200k_base'],
    ['', 'o200k_base'],
  ])('%s → %s', (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
  });
});

describe('createTokenCounter', () => {
  it('tokenizes each distinct text once per encoding and counts hits', () => {
    const counter = createTokenCounter();
    expect(counter.countText('hello world')).toBe(2);
    expect(counter.countText('hello world')).toBe(2);
    expect(counter.countText('hello world', 'cl100k_base')).toBe(2);
    expect(counter.stats()).toEqual({ hits: 1, misses: 2, uniqueTexts: 2 });
  });

  it('two counters keep separate caches', () => {
    const a = createTokenCounter();
    const b = createTokenCounter();
    a.countText('same text');
    b.countText('same text');
    expect(a.stats().misses).toBe(1);
    expect(b.stats()).toEqual({ hits: 0, misses: 1, uniqueTexts: 1 });
  });

  it('counts a message by its LLM-visible text plus a fixed charge per image', () => {
    const counter = createTokenCounter();
    const withImage: UserMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'hello world' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      timestamp: 1,
    };
    expect(counter.countMessage(withImage)).toBe(2 + TOKENIZER_IMAGE_TOKENS);
    const call: AssistantMessage = {
      role: 'assistant',
      content: [{ type: 'toolCall', id: 'c', name: 'read', arguments: { path: 'a' } }],
      timestamp: 1,
    };
    // visible text is "read\n{\"path\":\"a\"}"
    expect(counter.countMessage(call)).toBe(countTokens('read\n{"path":"a"}'));
    // the same message again is a cache hit
    counter.countMessage(call);
    expect(counter.stats()).toEqual({ hits: 1, misses: 2, uniqueTexts: 2 });
  });
});
