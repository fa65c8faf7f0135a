/**
 * Whether a recorded assistant error is the provider saying the prompt did not fit, as OpenClaw decides it before
 * overflow recovery. Read in openclaw@2026.9.6's dist: `recoverEmbeddedRunOverflow` (embedded-agent-*.mjs) starts
 * recovery when the assistant's error matches `isContextOverflow` (@openclaw/ai `internal/runtime.mjs`, the
 * "assistant-error" scope) or `isLikelyContextOverflowError` (classify-*.mjs over classify-core-*.mjs and the
 * @openclaw/ai scopes); 2026.7.35's `runEmbeddedAgentInternal` (embedded-agent-*.js) uses the latter alone, whose
 * errors-*.js wording list is the 9.6 "failover-explicit" scope minus three later additions (`context_overflow`,
 * "input (N tokens) is longer than the model's context length", "input length N tokens exceeds the model limit").
 * Provider plugins' own matchers (`matchesContextOverflowError`) are not known to the replay.
 */

/** @openclaw/ai 2026.9.6 `CONTEXT_OVERFLOW_PATTERN_SCOPES`. */
const CONFIGURED_CONTEXT_SIZE = /prompt has [\d,]+ tokens?, but the configured context size is [\d,]+ tokens?/i;
const ASSISTANT_ERROR: readonly RegExp[] = [
  /prompt is too long/i,
  /request_too_large/i,
  /input length and `?max_tokens`? exceed context limit: [\d,]+ \+ [\d,]+ > [\d,]+/i,
  /input is too long for requested model/i,
  /exceeds the context window/i,
  /exceeds (?:the )?(?:model'?s )?maximum context length(?: of [\d,]+ tokens?|\s*\([\d,]+\))/i,
  /input token count.*exceeds the maximum/i,
  /maximum prompt length is \d+/i,
  /reduce the length of the messages/i,
  /maximum context length is \d+ tokens/i,
  /exceeds (?:the )?maximum allowed input length of [\d,]+ tokens?/i,
  /input \(\d+ tokens\) is longer than the model'?s context length \(\d+ tokens\)/i,
  /exceeds the limit of \d+/i,
  /(?:exceeds the available context size|context size has been exceeded)/i,
  /greater than the context length/i,
  /context window exceeds limit/i,
  /exceeded model token limit/i,
  /tokens? in request more than max tokens? allowed/i,
  /prompt exceeds max(?:imum)? length/i,
  /too large for model with \d+ maximum context length/i,
  CONFIGURED_CONTEXT_SIZE,
  /model_context_window_exceeded/i,
  /prompt too long; exceeded (?:max )?context length/i,
  /context[_ ]length[_ ]exceeded/i,
  /too many tokens/i,
  /token limit exceeded/i,
  /^413\s*(?:status code)?\s*\(no body\)/i,
];
const FAILOVER_EXPLICIT: readonly RegExp[] = [
  /request_too_large/i,
  /context_overflow/i,
  CONFIGURED_CONTEXT_SIZE,
  /invalid_argument[\s\S]*maximum number of tokens/i,
  /request exceeds the maximum size/i,
  /context length exceeded/i,
  /maximum context length/i,
  /prompt is too long/i,
  /prompt too long/i,
  /exceeds model context window/i,
  /model token limit/i,
  /input exceeds[\s\S]*maximum number of tokens/i,
  /^(?=[\s\S]*context window)(?=[\s\S]*ran out of (?:room|space))/i,
  /request size exceeds[\s\S]*context window/i,
  /context overflow:/i,
  /exceed context limit/i,
  /exceeds the model'?s maximum context/i,
  /max_tokens[\s\S]*exceed[\s\S]*context/i,
  /input(?: length[\s\S]*exceed[\s\S]*context| \([\d,]+\s*tokens?\) is longer than (?:the )?model'?s context length)/i,
  /413[\s\S]*too large/i,
  /context_window_exceeded/i,
  /input length [\d,]+\s+tokens? exceeds the model limit/i,
  /上下文过长|上下文超出|上下文长度超|超出最大上下文|请压缩上下文/,
];
const PROVIDER_FALLBACK: readonly RegExp[] = [
  /\binput token count exceeds the maximum number of input tokens\b/i,
  /\binput is too long for this model\b/i,
  /\binput exceeds the maximum number of tokens\b/i,
  /\bollama error:\s*context length exceeded(?:,\s*too many tokens)?\b/i,
  /\btotal tokens?.*exceeds? (?:the )?(?:model(?:'s)? )?(?:max|maximum|limit)/i,
  /\b(?:(?:request|prompt) \(\d[\d,]*\s*tokens?\) exceeds (?:the )?available context size|context size has been exceeded)\b/i,
  /\binput (?:is )?too long for (?:the )?model\b/i,
];
const FAILOVER_HINT =
  /context.*overflow|context window.*(too (?:large|long)|exceed|over|limit|max(?:imum)?|requested|sent|tokens)|prompt.*(too (?:large|long)|exceed|over|limit|max(?:imum)?)|(?:request|input).*(?:context|window|length|token).*(too (?:large|long)|exceed|over|limit|max(?:imum)?)/i;
const CONTEXT_WINDOW_TOO_SMALL = /context window.*(too small|minimum is)/i;
const TPM_HINT = /\btpm\b|tokens per minute/i;
const RATE_LIMIT_HINT =
  /rate limit|too many requests|requests per (?:minute|hour|day)|quota|throttl|429\b|tokens per day/i;
/** `isContextOverflow`'s exclusions (rate limits worded like an overflow). */
const NON_OVERFLOW: readonly RegExp[] = [
  /^(Throttling error|Service unavailable):/i,
  /rate limit/i,
  /too many requests/i,
];

/** classify-core-*.mjs `PROVIDER_CONTEXT_OVERFLOW_SIGNAL_RE` / `_ACTION_RE`. */
const OVERFLOW_SIGNAL = /\b(?:context|window|prompt|token|tokens|input|request|model)\b/i;
const OVERFLOW_ACTION = /\b(?:too\s+(?:large|long|many)|exceed(?:s|ed|ing)?|overflow|limit|maximum|max)\b/i;

/** message-patterns-*.mjs `ERROR_PATTERNS.rateLimit` (matched on the lower-cased text). */
const RATE_LIMIT: readonly (RegExp | string)[] = [
  /rate[_ ]limit|too many requests/i,
  /^\s*429\b|\b(?:https?|status(?:[ _-]?code)?|response(?:[ _-]?code)?|http(?:[ _-]?status)?)\b[\s:=#"'(]{0,6}429\b|["'](?:status|code)["']\s*:\s*429\b|\b429\b[\s:)\].,-]*(?:rate[_ -]?limit(?:ed|ing)?|too many requests|resource has been exhausted|quota(?:\s+(?:exceeded|exhausted|depleted|reached))?)\b/i,
  /too many (?:concurrent )?requests/i,
  /\bthrottl(?:ing[_]?exception|ing|ed)\b/i,
  /\bconcurrency limit\b.*\b(?:breached|reached)\b/i,
  'model_cooldown',
  'exceeded your current quota',
  /\bresource[_ -]?exhausted\b/i,
  /\bquota[_ -]?exceeded\b/i,
  'usage limit',
  /\btpm\b/i,
  'tokens per minute',
  'tokens per day',
  '请求过于频繁',
  '调用频率',
  '频率限制',
  '配额不足',
  '配额已用尽',
  '额度不足',
  '额度已用尽',
];
/** message-patterns-*.mjs `ERROR_PATTERNS.billing`, the provider-neutral part. */
const BILLING: readonly (RegExp | string)[] = [
  /["']?(?:status|code)["']?\s*[:=]\s*402\b|\bhttp\s*402\b|\berror(?:\s+code)?\s*[:=]?\s*402\b|^\s*402\s+payment/i,
  /\b(?:got|returned|received)\s+(?:a\s+)?402\b(?!\s+records\b)/i,
  'payment required',
  'insufficient credits',
  /used\s+all\s+available\s+credits/i,
  /(?:monthly\s+)?spend(?:ing)?\s+limit/i,
  /insufficient[_ ]quota/i,
  'available balance',
  'out of budget',
  'credit balance',
  'plans & billing',
  /insufficient[_ ]balance/i,
  /\binsufficient\s+\w+\s+balance\b/i,
  /requires?\s+more\s+credits/i,
  '余额不足',
  '欠费',
];
const STATED_TOKEN_SIZES = /(?:\btpm\b|tokens per minute)[^.\n]*?\blimit\s+([\d,]+)[^.\n]*?\brequested\s+([\d,]+)/i;

/** `isReasoningConstraintErrorMessage`: a provider that refuses to turn reasoning off. */
function isReasoningConstraint(text: string): boolean {
  const lower = text.toLowerCase();
  return (
    lower.includes('reasoning is mandatory') ||
    lower.includes('reasoning is required') ||
    lower.includes('requires reasoning') ||
    (lower.includes('reasoning') && lower.includes('cannot be disabled'))
  );
}

const anyOf = (text: string, patterns: readonly RegExp[]) => patterns.some((p) => p.test(text));

function matchesErrorPatterns(text: string, patterns: readonly (RegExp | string)[]): boolean {
  const lower = text.toLowerCase();
  return patterns.some((p) => (typeof p === 'string' ? lower.includes(p) : p.test(lower)));
}

function statedCount(digits: string | undefined): number | undefined {
  const n = Number(digits?.replaceAll(',', ''));
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** A TPM error that states a request larger than the limit (message-patterns-*.mjs). */
function isRequestSizeCeiling(text: string): boolean {
  const stated = STATED_TOKEN_SIZES.exec(text);
  const limit = statedCount(stated?.[1]);
  const requested = statedCount(stated?.[2]);
  return limit !== undefined && requested !== undefined && requested > limit;
}

function looksLikeProviderOverflow(text: string): boolean {
  return !matchesErrorPatterns(text, RATE_LIMIT) && OVERFLOW_SIGNAL.test(text) && OVERFLOW_ACTION.test(text);
}

/** classify-core-*.mjs `isContextOverflowErrorFromTables`. */
function isContextOverflowErrorFromTables(text: string): boolean {
  if (TPM_HINT.test(text) && !isRequestSizeCeiling(text)) return false;
  if (isReasoningConstraint(text)) return false;
  return anyOf(text, FAILOVER_EXPLICIT) || (looksLikeProviderOverflow(text) && anyOf(text, PROVIDER_FALLBACK));
}

/** classify-*.mjs `isLikelyContextOverflowError` (without provider plugins' classifiers). */
export function isLikelyContextOverflowError(text: string | undefined): boolean {
  if (!text) return false;
  if (isRequestSizeCeiling(text)) return isContextOverflowErrorFromTables(text);
  if (TPM_HINT.test(text) || isReasoningConstraint(text)) return false;
  if (matchesErrorPatterns(text, BILLING)) return false;
  if (CONTEXT_WINDOW_TOO_SMALL.test(text)) return false;
  if (matchesErrorPatterns(text, RATE_LIMIT)) return false;
  if (isContextOverflowErrorFromTables(text)) return true;
  if (text.toLowerCase().includes('prompt template')) return false;
  if (RATE_LIMIT_HINT.test(text)) return false;
  return FAILOVER_HINT.test(text);
}

/** The error of a recorded assistant message OpenClaw would treat as a context overflow, else undefined. */
export function recordedOverflowError(message: { stopReason?: string; errorMessage?: string }): string | undefined {
  if (message.stopReason !== 'error') return undefined;
  const text = typeof message.errorMessage === 'string' ? message.errorMessage.trim() : '';
  if (!text) return undefined;
  // 9.6 first classifies the error for failover: a rate limit or billing reason is no overflow, whatever its words
  const failoverReason = matchesErrorPatterns(text, RATE_LIMIT) || matchesErrorPatterns(text, BILLING);
  if (failoverReason && !isRequestSizeCeiling(text)) return undefined;
  const assistantError = !anyOf(text, NON_OVERFLOW) && anyOf(text, ASSISTANT_ERROR);
  return assistantError || isLikelyContextOverflowError(text) ? text : undefined;
}

/** embedded-agent-helpers-*.mjs `OBSERVED_OVERFLOW_TOKEN_*_PATTERNS`. */
const OBSERVED_SUM: readonly RegExp[] = [
  /input length(?:\s+and\s+max_tokens)?\s+exceed\s+context(?:\s+limit|\s+window)?\s*\(i\.e\s*([\d,]+)\s*\+\s*([\d,]+)\s*>\s*[\d,]+\)/i,
  /input length\s+and\s+`max_tokens`\s+exceed\s+context\s+limit:\s*([\d,]+)\s*\+\s*([\d,]+)\s*>\s*[\d,]+/i,
];
const OBSERVED: readonly RegExp[] = [
  /prompt is too long:\s*([\d,]+)\s+tokens\s*>\s*[\d,]+\s+maximum/i,
  /prompt is too long:\s*([\d,]+)\s*,\s*model maximum context length\s*:\s*[\d,]+/i,
  /requested\s+([\d,]+)\s+tokens/i,
  /token limit\s*:\s*[\d,]+\s*\(requested\s*:\s*([\d,]+)\)/i,
  /resulted in\s+([\d,]+)\s+tokens/i,
];

/** The prompt size an overflow error states (`extractObservedOverflowTokenCount`), else undefined. */
export function observedOverflowTokens(text: string): number | undefined {
  for (const pattern of OBSERVED_SUM) {
    const match = pattern.exec(text);
    const left = Number(match?.[1]?.replaceAll(',', ''));
    const right = Number(match?.[2]?.replaceAll(',', ''));
    if (match && Number.isFinite(left) && left > 0 && Number.isFinite(right) && right >= 0) {
      return Math.floor(left + right);
    }
  }
  for (const pattern of OBSERVED) {
    const count = statedCount(pattern.exec(text)?.[1]);
    if (count !== undefined) return Math.floor(count);
  }
  return undefined;
}
