import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractIdentifiers } from '../../../src/summarize/extractIdentifiers';
import { mergeItems, mergeItemsUpTo } from '../../../src/summarize/summarySections';

// fragments that make up identifiers or break them
const fragmentArb = fc.constantFrom(
  'port',
  'PORT',
  'Port',
  ' ',
  '  ',
  '\t',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\n',
  '8080',
  '80',
  '7',
  '_',
  '-',
  '.',
  ',',
  ':',
  '/',
  '~',
  '..',
  'http://',
  'https://x.io/',
  'api.example.com',
  'localhost',
  '10.0.0.1',
  'deadbeef1',
  'abcdef0',
  'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  'src/a.ts',
  'README.md',
  'x',
  'see ',
  'the ',
  'é',
  ')',
  '"',
  'é.com',
  'ftp',
  '://',
  ':443',
  'DB.INTERNAL',
  '.Dev',
  'a-b',
  'io',
  'x.appx',
  '10.1',
  '.2.3',
  '12345678',
  '-beef',
  '-CAFE-',
  '0123456789ab',
  '--',
);
const partArb = fc.array(fragmentArb, { maxLength: 8 }).map((f) => f.join(''));

/** extractIdentifiers as it was before its patterns got pre-tests: every pattern scans the whole text. */
function referenceIdentifiers(text: string): string[] {
  const patterns = [
    /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`)\]]+/gi,
    /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
    /\b(?:localhost|(?:\d{1,3}\.){3}\d{1,3}|[a-z0-9-]+(?:\.[a-z0-9-]+)+):\d{2,5}\b/gi,
    /\b(?:\d{1,3}\.){3}\d{1,3}\b/g,
    /\bport\s+\d{2,5}\b/gi,
    /\b(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|app|cloud|local|internal|lan|corp)\b/gi,
    /(?:~|\.{1,2})?\/[A-Za-z0-9._\-@+%]+(?:\/[A-Za-z0-9._\-@+%]+)*\/?/g,
    /\b[A-Za-z0-9_.\-@]+(?:\/[A-Za-z0-9_.\-@]+)+/g,
    /\b[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.(?:ts|tsx|js|jsx|mjs|cjs|json|jsonl|json5|md|py|rs|go|java|kt|rb|c|h|cpp|hpp|cs|swift|yaml|yml|toml|txt|sh|css|scss|html|sql|lock|env|cfg|ini|xml|log|csv)\b/g,
    /\b[0-9a-f]{7,64}\b/gi,
  ];
  const found: { start: number; end: number; value: string }[] = [];
  patterns.forEach((pattern, i) => {
    for (const match of text.matchAll(pattern)) {
      let value = match[0];
      if (i === patterns.length - 1 && !(/[0-9]/.test(value) && /[a-f]/i.test(value))) continue;
      value = value.replace(/[.,;:!?'"`)\]]+$/, '');
      if (value.replace(/[./~]/g, '').length === 0) continue;
      found.push({ start: match.index, end: match.index + value.length, value });
    }
  });
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: string[] = [];
  let coveredUntil = -1;
  for (const c of found) {
    if (c.start < coveredUntil) continue;
    out.push(c.value);
    coveredUntil = c.end;
  }
  return [...new Set(out)];
}

describe('extractIdentifiers', () => {
  it('equals the scan of every pattern over the whole text (the pre-tests only skip patterns that cannot match)', () => {
    fc.assert(
      fc.property(fc.array(partArb, { maxLength: 4 }), (parts) => {
        const text = parts.join(' ');
        expect(extractIdentifiers(text)).toEqual(referenceIdentifiers(text));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('mergeItemsUpTo', () => {
  it('equals mergeItems(a, b).slice(0, max) and reads b no further than needed', () => {
    const itemArb = fc.constantFrom('a', 'A', ' a ', 'b', 'c', '', '  ', 'd e', 'D  E');
    fc.assert(
      fc.property(fc.array(itemArb), fc.array(itemArb), fc.nat(8), (a, b, max) => {
        let pulled = 0;
        const lazy = {
          *[Symbol.iterator]() {
            for (const item of b) {
              pulled++;
              yield item;
            }
          },
        };
        const expected = mergeItems(a, b).slice(0, max);
        expect(mergeItemsUpTo(a, lazy, max)).toEqual(expected);
        // every item pulled from b was needed to decide the result
        if (pulled > 0 && expected.length === max)
          expect(mergeItems(a, b.slice(0, pulled - 1)).length).toBeLessThan(max);
      }),
      { numRuns: 3000 },
    );
  });
});
