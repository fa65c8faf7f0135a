/**
 * Which recorded assistant errors OpenClaw treats as the provider's context overflow (2026.9.6
 * `isLikelyContextOverflowError` / `isContextOverflow` wordings), and the prompt size such an error states.
 */
import { describe, expect, it } from 'vitest';
import {
  isLikelyContextOverflowError,
  observedOverflowTokens,
  recordedOverflowError,
} from '../../../src/replay/session/contextOverflowError';

const error = (errorMessage: string) => ({ stopReason: 'error', errorMessage });

describe('recorded context-overflow errors', () => {
  it.each([
    'invalid params, context window exceeds limit (2013)', // MiniMax
    'prompt is too long: 213462 tokens > 200000 maximum', // Anthropic
    "This model's maximum context length is 131072 tokens. However, you requested 140000 tokens", // OpenAI
    'The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)', // Google
    'prompt too long; exceeded max context length by 1200 tokens', // Ollama that says so
    '上下文过长，请压缩上下文',
    'Context overflow: prompt too large for the model.',
  ])('%s is an overflow', (text) => {
    expect(recordedOverflowError(error(text))).toBe(text);
  });

  it.each([
    'Rate limit reached for gpt-4o: 30000 tokens per minute (TPM) limit exceeded',
    '429 Too Many Requests',
    'ThrottlingException: Too many tokens, please wait before trying again.',
    'Your credit balance is too low to access the API. Please go to Plans & Billing to upgrade or purchase credits.',
    'context window too small: minimum is 16000 tokens',
    'connection reset by peer',
  ])('%s is not', (text) => {
    expect(recordedOverflowError(error(text))).toBeUndefined();
    expect(isLikelyContextOverflowError(text)).toBe(false);
  });

  it('only an error reply is one (a reply that stopped normally names no overflow)', () => {
    expect(recordedOverflowError({ stopReason: 'stop', errorMessage: 'prompt is too long' })).toBeUndefined();
    expect(recordedOverflowError({ stopReason: 'error' })).toBeUndefined();
  });

  it('reads the prompt size an overflow error states', () => {
    expect(observedOverflowTokens('prompt is too long: 213,462 tokens > 200000 maximum')).toBe(213_462);
    expect(observedOverflowTokens('However, you requested 140000 tokens (139000 in the messages)')).toBe(140_000);
    expect(observedOverflowTokens('input length and `max_tokens` exceed context limit: 190000 + 16000 > 200000')).toBe(
      206_000,
    );
    expect(observedOverflowTokens('invalid params, context window exceeds limit (2013)')).toBeUndefined();
  });
});
