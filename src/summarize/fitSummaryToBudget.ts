/**
 * Fits a sectioned summary into an output budget measured the way OpenClaw measures text
 * (`estimateStringChars / 4` tokens): items are dropped one at a time from the fullest section — oldest first,
 * least important section first on ties — until the rendering fits; if the headings alone do not fit, the text is
 * cut at the budget.
 */
import { CHARS_PER_TOKEN_ESTIMATE, estimateStringChars } from '../tokens';

/** Cuts `text` so its weighted char count stays within `maxChars`, on a code-point boundary. */
export function cutToWeightedChars(text: string, maxChars: number): string {
  if (estimateStringChars(text) <= maxChars) return text;
  let used = 0;
  let end = 0;
  for (const ch of text) {
    const weight = estimateStringChars(ch);
    if (used + weight > maxChars) break;
    used += weight;
    end += ch.length;
  }
  return text.slice(0, end);
}

/**
 * @param sections the summary's sections (mutated copies are used; the input is left untouched)
 * @param dropOrder section keys from least to most important (ties go to the earlier key)
 */
export function fitSectionsToBudget<S extends Record<string, string[]>>(
  sections: S,
  dropOrder: readonly (keyof S)[],
  render: (sections: S) => string,
  maxTokens: number,
): string {
  const maxChars = Math.max(0, Math.floor(maxTokens)) * CHARS_PER_TOKEN_ESTIMATE;
  const working = Object.fromEntries(Object.entries(sections).map(([k, v]) => [k, [...v]])) as S;
  let text = render(working);
  while (estimateStringChars(text) > maxChars) {
    let target: keyof S | undefined;
    for (const key of dropOrder) {
      if (working[key]!.length > 0 && (target === undefined || working[key]!.length > working[target]!.length))
        target = key;
    }
    if (target === undefined) return cutToWeightedChars(text, maxChars);
    working[target]!.shift();
    text = render(working);
  }
  return text;
}
