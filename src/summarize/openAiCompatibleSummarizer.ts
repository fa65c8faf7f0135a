/**
 * Summaries and completions from any OpenAI-compatible server: `POST <baseUrl>/v1/chat/completions`.
 * Base URL, model and key come from the options or from `CONTEXTSCOPE_LLM_BASE_URL`, `CONTEXTSCOPE_LLM_MODEL`,
 * `CONTEXTSCOPE_LLM_API_KEY`. Every request is bounded by a timeout and honours the caller's abort signal.
 */
import type { LlmCompleteParams, LlmCompleteResult } from '../contract';
import {
  chatCompletionsUrl,
  LlmRequestError,
  postChatCompletion,
  type ChatClientConfig,
  type ChatMessage,
} from './chatCompletions';
import type { Summarizer, SummaryOutput, SummaryRequest } from './types';

export const DEFAULT_LLM_TIMEOUT_MS = 120_000;

export interface OpenAiCompatibleOptions {
  /** server root, e.g. `http://127.0.0.1:8080` (a trailing `/v1` is accepted and not doubled) */
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  timeoutMs?: number;
  temperature?: number;
  /** environment to read `CONTEXTSCOPE_LLM_*` from (default `process.env`) */
  env?: Record<string, string | undefined>;
}

export function createOpenAiCompatibleSummarizer(options: OpenAiCompatibleOptions = {}): Summarizer {
  const env = options.env ?? process.env;
  const config: ChatClientConfig = {
    baseUrl: options.baseUrl ?? env.CONTEXTSCOPE_LLM_BASE_URL,
    model: options.model ?? env.CONTEXTSCOPE_LLM_MODEL,
    apiKey: options.apiKey ?? env.CONTEXTSCOPE_LLM_API_KEY,
    timeoutMs: options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
    temperature: options.temperature,
  };
  return {
    id: 'openai-compatible',
    summarize: (request) => summarize(config, request),
    complete: (params) => complete(config, params),
  };
}

async function summarize(config: ChatClientConfig, request: SummaryRequest): Promise<SummaryOutput> {
  const result = await postChatCompletion(config, {
    messages: [
      { role: 'system', content: request.systemPrompt },
      { role: 'user', content: request.prompt },
    ],
    maxTokens: request.maxTokens,
    signal: request.signal,
    operation: `${request.kind} summary`,
  });
  if (!result.text.trim()) {
    throw new LlmRequestError(
      `OpenAI-compatible summarizer (${request.kind} summary): the model returned an empty summary.`,
      chatCompletionsUrl(config.baseUrl ?? ''),
    );
  }
  return { summary: result.text, provider: result.provider, model: result.model, usage: result.usage };
}

function complete(config: ChatClientConfig, params: LlmCompleteParams): Promise<LlmCompleteResult> {
  const messages: ChatMessage[] = [];
  if (params.systemPrompt) messages.push({ role: 'system', content: params.systemPrompt });
  messages.push(...params.messages.map((m) => ({ role: m.role, content: m.content })));
  return postChatCompletion(config, {
    messages,
    model: params.model,
    maxTokens: params.maxTokens,
    temperature: params.temperature,
    signal: params.signal,
    operation: params.purpose ? `complete: ${params.purpose}` : 'complete',
  });
}
