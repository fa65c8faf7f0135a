import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { get_encoding } from 'tiktoken';
import { describe, expect, it } from 'vitest';
import {
  TOKENIZER_MAX_PIECE_CHARS,
  TOKENIZER_MAX_RUN_CHARS,
  countTokens,
  createTokenCounter,
  isSoftCut,
  splitAtLineStarts,
  splitForTokenizer,
  type TokenEncoding,
} from '../../../src/tokens';

const ENCODINGS: TokenEncoding[] = ['o200k_base', 'cl100k_base'];
const raw = { o200k_base: get_encoding('o200k_base'), cl100k_base: get_encoding('cl100k_base') };
/** tiktoken on the whole text, no splitting: the reference count */
const exact = (text: string, encoding: TokenEncoding) => raw[encoding].encode_ordinary(text).length;
const sumOfPieces = (pieces: string[], encoding: TokenEncoding) => pieces.reduce((n, p) => n + exact(p, encoding), 0);

/** Deterministic bytes: a sha256 chain from `seed`. */
function pseudoRandomBytes(length: number, seed: string): Buffer {
  const chunks: Buffer[] = [];
  let block = createHash('sha256').update(seed).digest();
  for (let have = 0; have < length; have += block.length) {
    chunks.push(block);
    block = createHash('sha256').update(block).digest();
  }
  return Buffer.concat(chunks).subarray(0, length);
}

const PROSE =
  'The replay engine walks the recorded session turn by turn. For each turn it rebuilds the host state, calls ' +
  "the selected context engine's assemble() with the same budget OpenClaw used, and records what came back. " +
  "Differences between lanes are shown side by side; it's easy to spot where one engine dropped a tool result " +
  'that another kept. Version 2.14.3 fixed a bug (#4312) where 1,000,000-token budgets overflowed.\n\n';
const CODE = `export async function readTranscript(file: string): Promise<Entry[]> {
  const lines = (await readFile(file, 'utf8')).split(/\\r?\\n/);
  const out: Entry[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    try { out.push(JSON.parse(line) as Entry); } catch (e) { console.warn(\`\${file}:\${i + 1}: \${String(e)}\`); }
  }
  return out.filter((e) => e.type === "message" && e.id !== undefined); // keep ids; a/b//c
}
`;
const CJK =
  '深度学习是机器学习的一个分支，它使用多层神经网络来学习数据的表示。\n日本語のテキストも含まれています。한국어 문장도 있습니다.\n';
const EMOJI =
  'Ship it 🚀🚀 — tests pass ✅, lint ⚠️ (2 warnings) 👍🏽👨‍👩‍👧 café naïve Ωmega\r\n\tindented line\u00a0nbsp\u0085nel\n';
const JSON_TEXT = JSON.stringify({
  path: '/usr/local/lib/node_modules/openclaw/dist/index.js',
  args: ['--session', 'abc123def456', '--budget=32000'],
  nested: { ok: true, n: 12345678901234, s: 'it\'s "quoted" and/or slashed//' },
});
const MINIFIED = 'function(a,b){return a.map(function(c){return c*b+1e3})}var x=[1,2,3].reduce((p,q)=>p+q,0);';

const SAMPLES: Record<string, string> = {
  prose: PROSE.repeat(12),
  code: CODE.repeat(10),
  cjk: CJK.repeat(40),
  emoji: EMOJI.repeat(40),
  json: JSON_TEXT.repeat(25),
  minified: MINIFIED.repeat(80),
  mixed: [PROSE, CODE, CJK, EMOJI, JSON_TEXT, MINIFIED].join('').repeat(6),
  base64: pseudoRandomBytes(30_000, 'b64').toString('base64'),
};

describe('splitForTokenizer', () => {
  it('returns short texts whole and rejects nonsensical limits', () => {
    expect(splitForTokenizer('hello world')).toEqual({ pieces: ['hello world'], hardCuts: 0 });
    expect(() => splitForTokenizer('x', { maxPieceChars: 1 })).toThrow(
      'splitForTokenizer: maxPieceChars must be an integer ≥ 2, got 1.',
    );
    expect(() => splitForTokenizer('x', { maxPieceChars: 100, maxRunChars: 200 })).toThrow(
      'splitForTokenizer: maxRunChars (200) must not exceed maxPieceChars (100).',
    );
  });

  it.each(Object.keys(SAMPLES))('cuts %s only at soft cuts, within the limits, losing nothing', (name) => {
    const text = SAMPLES[name]!;
    for (const limits of [{}, { maxPieceChars: 64, maxRunChars: 64 }]) {
      const { pieces, hardCuts } = splitForTokenizer(text, limits);
      expect(pieces.join('')).toBe(text);
      expect(hardCuts).toBe(0);
      const max = limits.maxPieceChars ?? TOKENIZER_MAX_PIECE_CHARS;
      for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(max);
    }
  });

  it.each(Object.keys(SAMPLES))('%s: piecewise counts equal unsplit encode_ordinary in both encodings', (name) => {
    const text = SAMPLES[name]!;
    for (const encoding of ENCODINGS) {
      const reference = exact(text, encoding);
      expect(countTokens(text, encoding)).toBe(reference);
      // 64-unit pieces force hundreds of soft cuts: every one of them must be count-neutral.
      expect(sumOfPieces(splitForTokenizer(text, { maxPieceChars: 64, maxRunChars: 64 }).pieces, encoding)).toBe(
        reference,
      );
    }
  });

  it('every soft cut leaves both encodings unchanged (property, adversarial alphabet)', () => {
    const alphabet = [
      'a',
      'B',
      'z',
      '7',
      '0',
      ' ',
      '  ',
      '\n',
      '\r\n',
      '\t',
      '/',
      "'",
      "'s",
      "'S",
      '.',
      ';',
      '{',
      '}',
      '"',
      '-',
      '_',
      'é',
      'e\u0301',
      '\u0301',
      'Ω',
      '中',
      '，',
      '。',
      '٣',
      '😀',
      '\u00a0',
      '\u0085',
      '\u3000',
      '12',
      'x/y',
      '\n/',
    ];
    const text = fc.array(fc.constantFrom(...alphabet), { minLength: 2, maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (s) => {
        for (let i = 1; i < s.length; i++) {
          if (!isSoftCut(s, i)) continue;
          for (const encoding of ENCODINGS) {
            expect(
              exact(s.slice(0, i), encoding) + exact(s.slice(i), encoding),
              `cut at ${i} of ${JSON.stringify(s)}`,
            ).toBe(exact(s, encoding));
          }
        }
      }),
      { numRuns: 400, seed: 20261130 },
    );
  });

  it('line starts: the lines join back to the text and their counts sum to countTokens of the whole (property)', () => {
    const alphabet = [
      'a',
      'B',
      '7',
      ' ',
      '\n',
      '\n\n',
      '\r\n',
      '\t',
      '/',
      '- ',
      '.',
      '{',
      '中',
      '😀',
      'A'.repeat(300),
      'x'.repeat(5000),
      'word '.repeat(900),
    ];
    const text = fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (s) => {
        const lines = splitAtLineStarts(s);
        expect(lines.join('')).toBe(s);
        for (let i = 1; i < lines.length; i++)
          expect(lines[i - 1]!.endsWith('\n') && !/^[\s/]/u.test(lines[i]!)).toBe(true);
        for (const encoding of ENCODINGS) {
          expect(lines.reduce((n, line) => n + countTokens(line, encoding), 0)).toBe(countTokens(s, encoding));
        }
      }),
      { numRuns: 150, seed: 20261130 },
    );
  });

  it('cuts before lines that start with a non-space, non-slash character only', () => {
    expect(splitAtLineStarts('a\nb\n  c\n/d\n\ne\n')).toEqual(['a\n', 'b\n  c\n/d\n\n', 'e\n']);
    expect(splitAtLineStarts('')).toEqual(['']);
    expect(splitAtLineStarts('no newline')).toEqual(['no newline']);
  });

  it('names the positions that are not safe to cut', () => {
    expect(isSoftCut('a\nb', 2)).toBe(true);
    expect(isSoftCut('a\n/b', 2)).toBe(false); // o200k: punctuation pre-token may end in "\n/"
    expect(isSoftCut('a\n b', 2)).toBe(false);
    expect(isSoftCut('hello world', 5)).toBe(true);
    expect(isSoftCut('hello  world', 6)).toBe(false);
    expect(isSoftCut('abc123', 3)).toBe(true);
    expect(isSoftCut("it's", 2)).toBe(false); // o200k: "'s" is a contraction suffix of the word
    expect(isSoftCut('a.b', 1)).toBe(true); // "a" | ".b"
    expect(isSoftCut('a();', 1)).toBe(true);
    expect(isSoftCut('分支，它', 2)).toBe(true);
    expect(isSoftCut('e\u0301x', 1)).toBe(false); // o200k: a combining mark belongs to the word
    expect(isSoftCut('...a', 1)).toBe(false);
    expect(isSoftCut('aaaa', 2)).toBe(false);
  });

  it('never splits a surrogate pair on a hard cut', () => {
    const { pieces, hardCuts } = splitForTokenizer('😀'.repeat(1000) + 'x' + '😀'.repeat(1000));
    expect(hardCuts).toBeGreaterThan(0);
    expect(pieces.join('')).toBe('😀'.repeat(1000) + 'x' + '😀'.repeat(1000));
    for (const piece of pieces)
      expect(piece).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe('countTokens on pathological runs', () => {
  it('a 300,000-letter run: hard cuts every 256 letters, within 2 tokens per cut of the exact rate', () => {
    const run = 'a'.repeat(300_000);
    const { pieces, hardCuts } = splitForTokenizer(run);
    expect(hardCuts).toBe(Math.ceil(300_000 / TOKENIZER_MAX_RUN_CHARS) - 1);
    for (const encoding of ENCODINGS) {
      const count = countTokens(run, encoding);
      expect(count).toBe(sumOfPieces(pieces, encoding));
      // Exact unsplit count of an 8,192-letter prefix (fast enough unsplit), scaled: BPE takes equal letters
      // 8 at a time, so 1,024 tokens per 8,192 letters.
      const perLetter = exact(run.slice(0, 8192), encoding) / 8192;
      expect(perLetter).toBe(1 / 8);
      expect(Math.abs(count - perLetter * run.length)).toBeLessThanOrEqual(2 * hardCuts);
      // 256 is a multiple of 8, so here the cuts cost nothing at all.
      expect(count).toBe(37_500);
    }
  });

  it('200 KB of random base64: letter/digit changes give soft cuts, so the count is exact', () => {
    const blob = pseudoRandomBytes(150_000, 'image').toString('base64');
    expect(blob.length).toBe(200_000);
    expect(splitForTokenizer(blob).hardCuts).toBe(0);
    expect(countTokens(blob)).toBe(exact(blob, 'o200k_base'));
  });

  it('200 KB of base64 with long "A" runs (zero-filled image rows): within 2 tokens per hard cut of exact', () => {
    const bytes = Buffer.alloc(150_000);
    // rows of noise separated by zero runs of up to ~1.5 KB, like an uncompressed image with blank stretches
    const noise = pseudoRandomBytes(150_000, 'rows');
    for (let at = 0, row = 0; at < bytes.length; row++) {
      const zeros = 300 + ((row * 397) % 1200);
      const data = 64 + ((row * 131) % 256);
      noise.copy(bytes, at + zeros, at, Math.min(bytes.length, at + zeros + data));
      at += zeros + data;
    }
    const blob = bytes.toString('base64');
    const { hardCuts } = splitForTokenizer(blob);
    expect(hardCuts).toBeGreaterThan(100);
    const reference = exact(blob, 'o200k_base'); // runs of ≤ 2 KB: the unsplit encode still finishes
    expect(Math.abs(countTokens(blob) - reference)).toBeLessThanOrEqual(2 * hardCuts);
  });
});

describe('createTokenCounter with split texts', () => {
  it('caches the whole text once: a second lookup of a pathological run is a hit with the same count', () => {
    const counter = createTokenCounter();
    const run = 'Z'.repeat(50_000);
    const first = counter.countText(run);
    expect(first).toBe(countTokens(run));
    expect(counter.countText(run)).toBe(first);
    expect(counter.countText(run, 'cl100k_base')).toBe(countTokens(run, 'cl100k_base'));
    expect(counter.stats()).toEqual({ hits: 1, misses: 2, uniqueTexts: 2 });
  });
});
