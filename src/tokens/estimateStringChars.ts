/**
 * OpenClaw's CJK-aware character count (`estimateStringChars`, `src/utils/cjk-chars.ts`; behaviour §11.1).
 *
 * Every estimator in OpenClaw divides this count by 4. A CJK / Hangul / kana character tokenizes at about one
 * token each, so it counts as 4 chars. Everything else counts by UTF-16 length — OpenClaw only collapses the
 * surrogate pairs of CJK Extension B+ (U+20000–U+2FA1F) to one code point. An emoji such as 😀 (one code
 * point, two UTF-16 units) therefore counts as 2 chars, exactly as in OpenClaw; we reproduce that rather than a
 * "pure" code-point count, because these numbers decide what the runtime does.
 */

/** OpenClaw's `CHARS_PER_TOKEN_ESTIMATE`. */
export const CHARS_PER_TOKEN_ESTIMATE = 4;

const WEIGHTED_CJK_RE = /[\u2E80-\u9FFF\uA000-\uA4FF\uAC00-\uD7AF\uF900-\uFAFF\u{20000}-\u{2FA1F}]/gu;
/** High surrogates of U+20000–U+2FA1F followed by a low surrogate. */
const CJK_EXT_B_SURROGATE_PAIR_RE = /[\uD840-\uD87E][\uDC00-\uDFFF]/g;

/**
 * Weighted character count of `text` (CJK chars count 4, CJK Extension B+ pairs count as one char first). A value
 * that is not a string (a malformed message's `text: 12345`) counts 0 instead of throwing: the transcript reader
 * and the engine-result check report such messages, the estimate must not take the replay down first.
 */
export function estimateStringChars(text: unknown): number {
  if (typeof text !== 'string' || text.length === 0) return 0;
  const weighted = text.match(WEIGHTED_CJK_RE)?.length ?? 0;
  if (weighted === 0) return text.length;
  const extBPairs = text.match(CJK_EXT_B_SURROGATE_PAIR_RE)?.length ?? 0;
  return text.length - extBPairs + weighted * (CHARS_PER_TOKEN_ESTIMATE - 1);
}

/** `ceil(estimateStringChars(text) / 4)`. */
export function estimateTextTokens(text: unknown): number {
  return Math.ceil(estimateStringChars(text) / CHARS_PER_TOKEN_ESTIMATE);
}
