/** Behaviour §14.51: systemPromptAddition placement. */
import { describe, expect, it } from 'vitest';
import { prependSystemPromptAddition, SYSTEM_PROMPT_CACHE_BOUNDARY } from '../../src/runtime';

describe('conformance: systemPromptAddition', () => {
  it('§14.51 "X" goes before a boundary-less prompt as "X\\n\\n" + prompt, and right after the boundary marker otherwise', () => {
    expect(prependSystemPromptAddition('You are helpful.', 'X')).toBe('X\n\nYou are helpful.');
    const withBoundary = `Stable prefix${SYSTEM_PROMPT_CACHE_BOUNDARY}Dynamic suffix`;
    expect(prependSystemPromptAddition(withBoundary, 'X')).toBe(
      'Stable prefix\n<!-- OPENCLAW_CACHE_BOUNDARY -->\nX\n\nDynamic suffix',
    );
  });
});
