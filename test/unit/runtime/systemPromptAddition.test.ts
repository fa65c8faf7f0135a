import { describe, expect, it } from 'vitest';
import {
  normalizeSystemPromptAddition,
  prependSystemPromptAddition,
  SYSTEM_PROMPT_CACHE_BOUNDARY,
} from '../../../src/runtime';

describe('prependSystemPromptAddition', () => {
  it('leaves the prompt unchanged for an empty or whitespace addition', () => {
    for (const addition of [undefined, '', '  \n\t ', SYSTEM_PROMPT_CACHE_BOUNDARY]) {
      expect(prependSystemPromptAddition('Base.', addition)).toBe('Base.');
    }
  });

  it('returns the addition alone for an empty system prompt', () => {
    expect(prependSystemPromptAddition('', '  Memory: x  ')).toBe('Memory: x');
  });

  it('normalises the addition: CRLF, trailing spaces, embedded boundary markers', () => {
    expect(
      normalizeSystemPromptAddition(`a  \r\nb\t${SYSTEM_PROMPT_CACHE_BOUNDARY}c <!-- OPENCLAW_CACHE_BOUNDARY -->d\r\n`),
    ).toBe('a\nb\nc d');
  });

  it('omits the dynamic tail when the suffix after the boundary is empty', () => {
    expect(prependSystemPromptAddition(`Stable${SYSTEM_PROMPT_CACHE_BOUNDARY}`, 'X')).toBe(
      `Stable${SYSTEM_PROMPT_CACHE_BOUNDARY}X`,
    );
  });

  it('inserts after the first boundary only', () => {
    const prompt = `A${SYSTEM_PROMPT_CACHE_BOUNDARY}B${SYSTEM_PROMPT_CACHE_BOUNDARY}C`;
    expect(prependSystemPromptAddition(prompt, 'X')).toBe(
      `A${SYSTEM_PROMPT_CACHE_BOUNDARY}X\n\nB${SYSTEM_PROMPT_CACHE_BOUNDARY}C`,
    );
  });
});
