/** `runtimeContext.llm` of a lane: the replay's summarizer answers a plugin's completions. */
import type { ContextEngineRuntimeContext, LlmCompleteParams } from '../../contract';
import { markHostProvided } from '../../plugins';
import { isDeterministicSummarizer, type Summarizer } from '../../summarize';

type LlmComplete = NonNullable<ContextEngineRuntimeContext['llm']>['complete'];

/** The lane's `llm.complete`, made once per lane (each call's runtimeContext gets a fresh `llm` object holding it). */
export function laneLlmComplete(summarizer: Summarizer): LlmComplete {
  const complete = (params: LlmCompleteParams) => summarizer.complete(params);
  // the offline summarizer answers from its arguments alone: an engine host answers it with its own copy
  return isDeterministicSummarizer(summarizer)
    ? markHostProvided('deterministic-summarizer.complete', complete)
    : complete;
}
