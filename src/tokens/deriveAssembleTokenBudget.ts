/**
 * The `tokenBudget` the embedded runner passes to `assemble` (behaviour §11.1 "Assemble token budget").
 */
import { estimateRenderedPromptTokens } from './estimatePrecheckTokens';
import type { CjkCounting } from './estimateStringChars';

/** Context budget used when neither the attempt nor the model names one. */
export const DEFAULT_CONTEXT_TOKEN_BUDGET = 200_000;

export interface AssembleTokenBudgetInput {
  /** the attempt's context token budget; falls back to the model's context window, then its maxTokens, then 200000 */
  contextTokenBudget?: number;
  modelContextWindow?: number;
  modelMaxTokens?: number;
  reserveTokens: number;
  systemPrompt?: string;
  prompt?: string;
  /** the release's CJK counting (src/tokens/estimateStringChars.ts; default the newest) */
  cjkCounting?: CjkCounting;
}

export interface AssembleTokenBudget {
  contextTokenBudget: number;
  /** `max(1, contextTokenBudget − reserveTokens)` */
  promptBudget: number;
  /** the rendered estimate of system prompt + prompt (`ceil(((12 + sys/4 if sys) + 12 + prompt/4) × 1.2)`) */
  renderedTokens: number;
  /** `max(1, promptBudget − renderedTokens)` — what `assemble` receives */
  tokenBudget: number;
}

function positive(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

export function deriveAssembleTokenBudget(input: AssembleTokenBudgetInput): AssembleTokenBudget {
  const contextTokenBudget =
    positive(input.contextTokenBudget) ??
    positive(input.modelContextWindow) ??
    positive(input.modelMaxTokens) ??
    DEFAULT_CONTEXT_TOKEN_BUDGET;
  const reserve = Number.isFinite(input.reserveTokens) ? input.reserveTokens : 0;
  const promptBudget = Math.max(1, contextTokenBudget - reserve);
  const renderedTokens = estimateRenderedPromptTokens(
    { systemPrompt: input.systemPrompt, prompt: input.prompt ?? '' },
    input.cjkCounting,
  );
  return { contextTokenBudget, promptBudget, renderedTokens, tokenBudget: Math.max(1, promptBudget - renderedTokens) };
}
