// What every engine method shares: the configuration, the logger, the session store, the summarizer, and how a
// call picks its LLM and its token budget.

import type { SummaryTreeConfig } from './config.ts';
import { SessionStore } from './sessionStore.ts';
import { createSummarizer } from './summarizer.ts';
import type { Summarizer } from './summarizer.ts';
import type { LlmCapability, PluginLogger, RuntimeContext } from './types.ts';

export interface SummaryTreeEngineDeps {
  config: SummaryTreeConfig;
  logger: PluginLogger;
  /** api.runtime.llm captured at register time; a per-call runtimeContext.llm takes precedence. */
  runtimeLlm?: LlmCapability;
}

export interface EngineContext {
  config: SummaryTreeConfig;
  logger: PluginLogger;
  store: SessionStore;
  summarizer: Summarizer;
  /** The per-call runtimeContext.llm when it has complete(), else the one captured at register time. */
  llmFor(runtimeContext?: RuntimeContext): LlmCapability | undefined;
  /** The first positive candidate (floored), else the configured tokenBudget. */
  budgetFrom(...candidates: unknown[]): number;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}

export function createEngineContext(deps: SummaryTreeEngineDeps): EngineContext {
  const { config, logger } = deps;
  return {
    config,
    logger,
    store: new SessionStore({ dir: config.stateDir, persist: config.persist, logger }),
    summarizer: createSummarizer({
      mode: config.summarizer,
      maxTokens: config.summaryMaxTokens,
      model: config.llmModel,
      logger,
    }),
    llmFor(runtimeContext) {
      const perCall = runtimeContext?.llm;
      return perCall && typeof perCall.complete === 'function' ? perCall : deps.runtimeLlm;
    },
    budgetFrom(...candidates) {
      for (const candidate of candidates) {
        const value = positive(candidate);
        if (value !== undefined) return value;
      }
      return config.tokenBudget;
    },
  };
}
