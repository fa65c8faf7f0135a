/**
 * Prepending an engine's `systemPromptAddition` to the system prompt (behaviour §9,
 * `prependSystemPromptAdditionAfterCacheBoundary`): after the cache boundary when the prompt has one, so the
 * cacheable prefix stays byte-identical.
 */

/** The marker separating the stable (cacheable) system-prompt prefix from the dynamic suffix. */
export const SYSTEM_PROMPT_CACHE_BOUNDARY = '\n<!-- OPENCLAW_CACHE_BOUNDARY -->\n';
const BARE_CACHE_BOUNDARY = '<!-- OPENCLAW_CACHE_BOUNDARY -->';

/** Unix newlines, no trailing spaces/tabs on any line, trimmed (OpenClaw's `normalizeStructuredPromptSection`). */
export function normalizeStructuredPromptSection(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .trim();
}

/** Remove embedded cache-boundary markers from an addition, then normalise it. */
export function normalizeSystemPromptAddition(addition: string | undefined | null): string {
  if (typeof addition !== 'string') return '';
  const stripped = addition.split(SYSTEM_PROMPT_CACHE_BOUNDARY).join('\n').split(BARE_CACHE_BOUNDARY).join('');
  return normalizeStructuredPromptSection(stripped);
}

/** Prepend `addition` to `systemPrompt`, after the cache boundary when there is one (behaviour §9). */
export function prependSystemPromptAddition(systemPrompt: string, addition: string | undefined | null): string {
  const normalized = normalizeSystemPromptAddition(addition);
  if (!normalized) return systemPrompt;
  if (!systemPrompt || systemPrompt.trim().length === 0) return normalized;
  const boundaryIndex = systemPrompt.indexOf(SYSTEM_PROMPT_CACHE_BOUNDARY);
  if (boundaryIndex === -1) return `${normalized}\n\n${systemPrompt}`;
  const stablePrefix = systemPrompt.slice(0, boundaryIndex);
  const dynamicSuffix = systemPrompt.slice(boundaryIndex + SYSTEM_PROMPT_CACHE_BOUNDARY.length);
  const tail = dynamicSuffix.trim().length > 0 ? `\n\n${dynamicSuffix}` : '';
  return `${stablePrefix}${SYSTEM_PROMPT_CACHE_BOUNDARY}${normalized}${tail}`;
}
