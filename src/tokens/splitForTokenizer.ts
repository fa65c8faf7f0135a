/**
 * Cuts a long text into pieces before it goes to tiktoken.
 *
 * Why: tiktoken's BPE merge loop is quadratic in the length of one pre-token, and a run without whitespace
 * (`aaaa…`, the `AAAA…` stretches of base64 image data, minified output) is one pre-token: 300,000 equal letters
 * did not finish in 30 s. Here no stretch handed to BPE without a cut is longer than `maxRunChars` (256), and no
 * piece longer than `maxPieceChars` (4,000), so the cost is linear in the text.
 *
 * Exactness. BPE only merges inside a pre-token, so a text's count is the sum of its pre-tokens' counts, and a
 * cut that falls on a position where both o200k_base's and cl100k_base's pre-tokenizer regexes always start a new
 * pre-token leaves the count unchanged. Those "soft" cuts are, for a cut between `prev` and `next`:
 *   1. `prev` is `\n` and `next` is neither whitespace nor `/` — a newline only ever ends a pre-token
 *      (`\s*[\r\n]+`, or the `[\r\n]*` / o200k's `[\r\n/]*` tail after punctuation, hence the `/` exception);
 *   2. `next` is a space preceded by non-whitespace and followed by an ASCII letter — the space opens the word
 *      pre-token (` world`) and nothing before it can absorb a space;
 *   3. an ASCII letter next to an ASCII digit (either order) — letters only occur in letter pre-tokens and digits
 *      only in `\p{N}{1,3}`, whose groups count from the start of the digit run, which the cut does not move;
 *   4. a letter or digit (`\p{L}`, `\p{N}`, BMP) followed by a character that is none of letter, digit, mark
 *      (`\p{M}`: o200k's words include marks), whitespace or `'` (contractions like `'s` join the word) — a word
 *      or digit pre-token never takes such a character after it; it starts the next pre-token (`.b`, `，它`, `);`).
 *      Unicode categories come from the JS engine; a character the tokenizer's tables classify differently (one
 *      assigned in a newer Unicode version) could make such a cut inexact.
 * The regexes' only lookahead (`\s+(?!\S)`) never spans one of these cuts, so each piece pre-tokenizes exactly
 * like the same stretch of the whole text: for text with a soft cut at least every 256 units (all ordinary prose,
 * code, JSON, CJK with newlines, random base64) the count equals the unsplit count.
 *
 * Hard cuts. A stretch of more than `maxRunChars` units with no soft cut is cut after `maxRunChars` units (one
 * less rather than split a surrogate pair). A hard cut inserts an artificial pre-token boundary, so the pre-token
 * it falls in is encoded as two, and BPE gives no theoretical bound on what that changes. Measured: prose, code
 * and JSON forced to cut hard every 16 units differ from the unsplit count by at most 2 tokens per hard cut
 * (0.3–1 on average); a run of one letter cut every 256 units keeps its exact count (BPE takes the run 8 letters at
 * a time and 256 is a multiple of 8). test/unit/tokens/splitForTokenizer.test.ts checks that bound on a
 * 300,000-letter run and on base64 with long zero runs. `hardCuts` reports the number of hard
 * cuts so callers can state that bound.
 */

/** Largest piece handed to one `encode_ordinary` call. */
export const TOKENIZER_MAX_PIECE_CHARS = 4000;
/**
 * Longest stretch without a soft cut before a hard cut is made. BPE time per stretch grows with its square
 * (measured on o200k_base: 4,000 equal letters ≈ 40 ms, 256 ≈ 0.3 ms), and ordinary text never has a stretch this
 * long without a newline, a space before a word, a letter/digit change or a punctuation run.
 */
export const TOKENIZER_MAX_RUN_CHARS = 256;

export interface TokenizerPieces {
  /** consecutive pieces; `pieces.join('') === text` */
  pieces: string[];
  /** cuts made at no safe boundary (see the file comment for what each may cost) */
  hardCuts: number;
}

export interface SplitLimits {
  /** default `TOKENIZER_MAX_PIECE_CHARS` */
  maxPieceChars?: number;
  /** default `TOKENIZER_MAX_RUN_CHARS`; must not exceed `maxPieceChars` */
  maxRunChars?: number;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;
const SLASH = 0x2f;

/** Unicode White_Space, which is what the tokenizer regex's `\s` means (JS `\s` lacks U+0085, has U+FEFF). */
function isWhitespace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff // not White_Space, but treating it as such only means fewer soft cuts
  );
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function isAsciiDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isAsciiAlnum(code: number): boolean {
  return isAsciiLetter(code) || isAsciiDigit(code);
}

/** Printable ASCII that is neither letter nor digit nor space: `!"#…/:;<=>?@[\]^_\`{|}~`. */
function isAsciiPunct(code: number): boolean {
  return code > 0x20 && code < 0x7f && !isAsciiAlnum(code);
}

/** Whether cutting `text` before index `i` (0 < i < length) leaves both encodings' pre-tokens unchanged. */
export function isSoftCut(text: string, i: number): boolean {
  const prev = text.charCodeAt(i - 1);
  const next = text.charCodeAt(i);
  if (prev === NEWLINE) return !isWhitespace(next) && next !== SLASH;
  if (next === SPACE) return !isWhitespace(prev) && isAsciiLetter(text.charCodeAt(i + 1));
  if (isAsciiLetter(prev) && isAsciiDigit(next)) return true;
  if (isAsciiDigit(prev) && isAsciiLetter(next)) return true;
  return endsWordBefore(text, i, prev, next);
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const WORD_PART_OR_APOSTROPHE = /^[\p{L}\p{N}\p{M}']$/u;

/** Rule 4: `prev` is a letter or digit and the character at `i` can only start a new pre-token. */
function endsWordBefore(text: string, i: number, prev: number, next: number): boolean {
  if (isWhitespace(next)) return false;
  if (prev < 0x80) {
    if (!isAsciiAlnum(prev)) return false;
  } else if (prev >= 0xd800 && prev <= 0xdfff) {
    return false; // astral letters are rare: not worth the lookup
  } else if (!LETTER_OR_DIGIT.test(String.fromCharCode(prev))) {
    return false;
  }
  if (next < 0x80) return isAsciiPunct(next) && next !== 0x27;
  const codePoint = text.codePointAt(i) as number;
  return !WORD_PART_OR_APOSTROPHE.test(String.fromCodePoint(codePoint));
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 2) {
    throw new Error(`splitForTokenizer: ${name} must be an integer ≥ 2, got ${String(value)}.`);
  }
  return value;
}

/**
 * Pieces of `text` for tiktoken: each at most `maxPieceChars` units, cut at the last soft cut that fits, and no
 * stretch without a soft cut longer than `maxRunChars` (hard cut there). One pass over the text.
 */
export function splitForTokenizer(text: string, limits: SplitLimits = {}): TokenizerPieces {
  const maxPiece = positiveInteger(limits.maxPieceChars ?? TOKENIZER_MAX_PIECE_CHARS, 'maxPieceChars');
  const maxRun = positiveInteger(limits.maxRunChars ?? Math.min(TOKENIZER_MAX_RUN_CHARS, maxPiece), 'maxRunChars');
  if (maxRun > maxPiece) {
    throw new Error(`splitForTokenizer: maxRunChars (${maxRun}) must not exceed maxPieceChars (${maxPiece}).`);
  }
  if (text.length <= maxRun) return { pieces: [text], hardCuts: 0 };
  const pieces: string[] = [];
  let hardCuts = 0;
  let start = 0;
  /** the latest soft cut after `start`, or `start` when there is none */
  let lastSoft = 0;
  for (let i = 1; i <= text.length; i++) {
    if (i - lastSoft > maxRun) {
      // A stretch with no soft cut: cut it, keeping surrogate pairs whole.
      let cut = lastSoft + maxRun;
      if (isHighSurrogate(text.charCodeAt(cut - 1))) cut--;
      pieces.push(text.slice(start, cut));
      hardCuts++;
      start = cut;
      lastSoft = cut;
    } else if (i - start > maxPiece) {
      // lastSoft > start here: otherwise the stretch rule above would have cut first (maxRun ≤ maxPiece).
      pieces.push(text.slice(start, lastSoft));
      start = lastSoft;
    }
    if (i < text.length && isSoftCut(text, i)) lastSoft = i;
  }
  pieces.push(text.slice(start));
  return { pieces, hardCuts };
}

/**
 * `text` cut before every line that starts with neither whitespace nor `/` (soft cut rule 1), so a text's count
 * is the sum of its lines' counts. The cuts depend only on the text around them, so a line repeated in another
 * text (the kept sections of successive compaction summaries, a file read twice) is the same string there and
 * its count can be reused. Counting each line as `splitForTokenizer` pieces of its own gives the whole text's
 * count: size cuts fall on soft cuts either way, and hard cuts are placed relative to the latest soft cut, which
 * a line start is (test/unit/tokens/splitForTokenizer.test.ts checks this on random texts).
 */
export function splitAtLineStarts(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  let at = text.indexOf('\n');
  while (at >= 0 && at + 1 < text.length) {
    const next = text.charCodeAt(at + 1);
    if (!isWhitespace(next) && next !== SLASH) {
      lines.push(text.slice(start, at + 1));
      start = at + 1;
    }
    at = text.indexOf('\n', at + 1);
  }
  lines.push(text.slice(start));
  return lines;
}
