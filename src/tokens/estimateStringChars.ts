/**
 * OpenClaw's CJK-aware character count (`estimateStringChars`, `cjk-chars.ts`; behaviour §11.1), in the three forms
 * its releases shipped. Every estimator in OpenClaw divides this count by 4; a CJK character tokenizes at about one
 * token or more, so it counts as several chars:
 * - `basic` (2026.3 – 2026.6, 3.31 – 6.35 cjk-chars-*.js): CJK ideographs, radicals, kana, Hangul and Yi count 4;
 *   everything else its UTF-16 length, but a CJK Extension B+ surrogate pair counts as one char first;
 * - `fullwidth` (2026.7, 7.1 – 7.35): `basic` plus the fullwidth forms U+FF01–FF60 and U+FFE0–FFE6 (a Chinese
 *   comma "，" is one of them);
 * - `tiered` (2026.8+, 8.1 and 9.6 normalization-core `cjk-chars.ts`): UTF-16 length plus 3 per common CJK character
 *   (ideographs U+4E00–9FA5, CJK punctuation and kana U+3000–319F, Hangul syllables, fullwidth forms, "·"), 11 per
 *   rare one (radicals, Extension A, compatibility ideographs, Yi, Hangul Jamo), 7 per two-token form (halfwidth
 *   forms, vertical forms, a few modifier letters), 10 per Tangut-counting-rod-like three-token supplementary and 14
 *   per supplementary ideograph (Extension B+: 2 UTF-16 units + 14 = 16).
 * An emoji (two UTF-16 units, not CJK) counts 2 in every form, exactly as in OpenClaw: these numbers decide what
 * the runtime does.
 */

/** OpenClaw's `CHARS_PER_TOKEN_ESTIMATE`. */
export const CHARS_PER_TOKEN_ESTIMATE = 4;

/** Which of OpenClaw's CJK character counts a release runs (see above). */
export type CjkCounting = 'basic' | 'fullwidth' | 'tiered';

const BASIC_CJK_RE = /[\u2E80-\u9FFF\uA000-\uA4FF\uAC00-\uD7AF\uF900-\uFAFF\u{20000}-\u{2FA1F}]/gu;
const FULLWIDTH_CJK_RE =
  /[\u2E80-\u9FFF\uA000-\uA4FF\uAC00-\uD7AF\uF900-\uFAFF\uFF01-\uFF60\uFFE0-\uFFE6\u{20000}-\u{2FA1F}]/gu;
/** High surrogates of U+20000–U+2FA1F followed by a low surrogate. */
const CJK_EXT_B_SURROGATE_PAIR_RE = /[\uD840-\uD87E][\uDC00-\uDFFF]/g;

const NON_ASCII_RE = /[\u0080-\u{10FFFF}]/u;
const COMMON_CJK_RE = /[\u00B7\u3000-\u319F\u4E00-\u9FA5\uAC00-\uD7AF\uFF01-\uFF60]/gu;
const RARE_BMP_CJK_RE =
  /[\u1100-\u11FF\u2E80-\u2FFF\u31A0-\u4DFF\u9FA6-\u9FFF\uA000-\uA4FF\uA700-\uA707\uA960-\uA97F\uD7B0-\uD7FF\uF900-\uFAFF]/gu;
const TWO_TOKEN_CJK_RE =
  /[\u{02C7}\u{02C9}-\u{02CB}\u{02D9}\u{02EA}-\u{02EB}\uFE10-\uFE4F\uFF61-\uFFDC\uFFE0-\uFFE6]|\u{0305}|\u{0323}/gu;
const THREE_TOKEN_SUPPLEMENTARY_CJK_RE = /[\u{1D360}-\u{1D371}]/gu;
const SUPPLEMENTARY_CJK_RE =
  /[\u{16FE0}-\u{16FFF}\u{1AFF0}-\u{1AFFF}\u{1B000}-\u{1B16F}\u{1F200}-\u{1F2FF}\u{20000}-\u{2FA1F}\u{30000}-\u{3347F}]/gu;

const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

function tieredChars(text: string): number {
  if (!NON_ASCII_RE.test(text)) return text.length;
  return (
    text.length +
    count(text, COMMON_CJK_RE) * 3 +
    count(text, RARE_BMP_CJK_RE) * 11 +
    count(text, TWO_TOKEN_CJK_RE) * 7 +
    count(text, THREE_TOKEN_SUPPLEMENTARY_CJK_RE) * 10 +
    count(text, SUPPLEMENTARY_CJK_RE) * 14
  );
}

function nonLatinChars(text: string, pattern: RegExp): number {
  const weighted = count(text, pattern);
  if (weighted === 0) return text.length;
  return text.length - count(text, CJK_EXT_B_SURROGATE_PAIR_RE) + weighted * (CHARS_PER_TOKEN_ESTIMATE - 1);
}

/**
 * Weighted character count of `text` by the given release form (the newest by default). A value that is not a
 * string (a malformed message's `text: 12345`) counts 0 instead of throwing: the transcript reader and the
 * engine-result check report such messages, the estimate must not take the replay down first.
 */
export function estimateStringChars(text: unknown, counting: CjkCounting = 'tiered'): number {
  if (typeof text !== 'string' || text.length === 0) return 0;
  if (counting === 'tiered') return tieredChars(text);
  return nonLatinChars(text, counting === 'basic' ? BASIC_CJK_RE : FULLWIDTH_CJK_RE);
}

/** `ceil(estimateStringChars(text) / 4)`. */
export function estimateTextTokens(text: unknown, counting: CjkCounting = 'tiered'): number {
  return Math.ceil(estimateStringChars(text, counting) / CHARS_PER_TOKEN_ESTIMATE);
}
