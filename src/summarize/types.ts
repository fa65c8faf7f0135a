/** The Summarizer contract: what the built-in compaction asks for, and what backs plugins' `runtime.llm.complete`. */
import type { AgentMessage, LlmCompleteParams, LlmCompleteResult } from '../contract';

/** `history`: first summary; `update`: merge new messages into `previousSummary`; `turn-prefix`: split-turn prefix. */
export type SummaryKind = 'history' | 'update' | 'turn-prefix';

export interface SummaryRequest {
  kind: SummaryKind;
  /** the messages to summarize (AgentMessages, before convertToLlm) */
  messages: AgentMessage[];
  /** the previous compaction summary (`update` only) */
  previousSummary?: string;
  /** the caller's focus (e.g. the text after `/compact`), before composition with the identifier policy */
  customInstructions?: string;
  /** output budget in tokens */
  maxTokens: number;
  /** the rendered system prompt an LLM backend sends */
  systemPrompt: string;
  /** the rendered user prompt an LLM backend sends (conversation, previous summary, instructions) */
  prompt: string;
  signal?: AbortSignal;
}

export interface SummaryOutput {
  summary: string;
  provider: string;
  model: string;
  usage?: LlmCompleteResult['usage'];
}

export interface Summarizer {
  /** `"deterministic"` or `"openai-compatible"` */
  readonly id: string;
  summarize(request: SummaryRequest): Promise<SummaryOutput>;
  /** a plain completion; backs `runtime.llm.complete` for plugins */
  complete(params: LlmCompleteParams): Promise<LlmCompleteResult>;
}
