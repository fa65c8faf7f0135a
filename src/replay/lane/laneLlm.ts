/** `runtimeContext.llm` of a lane: the replay's summarizer answers a plugin's completions. */
import type { ContextEngineRuntimeContext, LlmCompleteParams } from '../../contract';
import { markHostProvided } from '../../plugins';
import { isDeterministicSummarizer, type Summarizer } from '../../summarize';

export function laneLlm(summarizer: Summarizer): NonNullable<ContextEngineRuntimeContext['llm']> {
  const complete = (params: LlmCompleteParams) => summarizer.complete(params);
  // the offline summarizer answers from its arguments alone: an engine host answers it with its own copy
  return {
    complete: isDeterministicSummarizer(summarizer)
      ? markHostProvided('deterministic-summarizer.complete', complete)
      : complete,
  };
}
