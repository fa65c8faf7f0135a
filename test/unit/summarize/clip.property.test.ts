import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clip } from '../../../src/summarize/extractConversationFacts';

/** clip as it was: flatten the whole text, then cut. */
function referenceClip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max - 1);
  return `${flat.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}

describe('clip', () => {
  it('equals cutting the whole flattened text, for long and mostly blank texts', () => {
    const chunkArb = fc.constantFrom(
      'word',
      'a',
      ' ',
      '   ',
      '\n\n',
      '\t',
      '\u00a0',
      '😀',
      'x'.repeat(30),
      ' '.repeat(40),
      'é',
    );
    fc.assert(
      fc.property(fc.array(chunkArb, { maxLength: 120 }), fc.integer({ min: 1, max: 60 }), (chunks, max) => {
        const text = chunks.join('');
        expect(clip(text, max)).toBe(referenceClip(text, max));
      }),
      { numRuns: 5000 },
    );
  });
});
