/**
 * Summaries and completions from any OpenAI-compatible server: `POST <baseUrl>/v1/chat/completions`.
 * Base URL, model and key come from the options or from `CONTEXTSCOPE_LLM_BASE_URL`, `CONTEXTSCOPE_LLM_MODEL`,
 * `CONTEXTSCOPE_LLM_API_KEY`. Every request is bounded by a timeout and honours the caller's abort signal.
 */
import type { LlmCompleteParams, LlmCompleteResult } from '../contract';
import type { Summarizer, SummaryOutput, SummaryRequest } from './types';

export const DEFAULT_LLM_TIMEOUT_MS = 120_000;
const BODY_EXCERPT_CHARS = 500;
const PROVIDER = 'openai-compatible';

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

export class LlmRequestError extends Error {
  readonly status?: number;
  readonly url: string;
  constructor(message: string, url: string, status?: number) {
    super(message);
    this.name = 'LlmRequestError';
    this.url = url;
    this.status = status;
  }
}

/** `<baseUrl>/v1/chat/completions`, without doubling a `/v1` the base already ends with. */
export function chatCompletionsUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  return trimmed.endsWith('/v1') ? `${trimmed}/chat/completions` : `${trimmed}/v1/chat/completions`;
}

function excerpt(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS)}…` : flat || '(empty body)';
}

interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

interface ChatCompletionReply {
  model?: unknown;
  choices?: { message?: { content?: unknown } }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown };
}

function replyText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content
      .map((p) =>
        p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string'
          ? (p as { text: string }).text
          : '',
      )
      .filter(Boolean);
    return parts.length > 0 ? parts.join('') : undefined;
  }
  return undefined;
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function createOpenAiCompatibleSummarizer(options: OpenAiCompatibleOptions = {}): Summarizer {
  const env = options.env ?? process.env;
  const baseUrl = options.baseUrl ?? env.CONTEXTSCOPE_LLM_BASE_URL;
  const defaultModel = options.model ?? env.CONTEXTSCOPE_LLM_MODEL;
  const apiKey = options.apiKey ?? env.CONTEXTSCOPE_LLM_API_KEY;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;

  async function chat(params: {
    messages: ChatMessage[];
    model?: string;
    maxTokens?: number;
    temperature?: number;
    signal?: AbortSignal;
    operation: string;
  }): Promise<LlmCompleteResult> {
    if (!baseUrl) {
      throw new LlmRequestError(
        `OpenAI-compatible summarizer (${params.operation}): no server configured. Set CONTEXTSCOPE_LLM_BASE_URL or pass baseUrl.`,
        '',
      );
    }
    const model = params.model ?? defaultModel;
    if (!model) {
      throw new LlmRequestError(
        `OpenAI-compatible summarizer (${params.operation}): no model configured. Set CONTEXTSCOPE_LLM_MODEL or pass model.`,
        chatCompletionsUrl(baseUrl),
      );
    }
    const url = chatCompletionsUrl(baseUrl);
    const body: Record<string, unknown> = { model, messages: params.messages };
    if (params.maxTokens !== undefined) body.max_tokens = params.maxTokens;
    const temperature = params.temperature ?? options.temperature;
    if (temperature !== undefined) body.temperature = temperature;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;

    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = params.signal ? AbortSignal.any([params.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
    } catch (error) {
      if (params.signal?.aborted) throw params.signal.reason instanceof Error ? params.signal.reason : error;
      if (timeout.aborted) {
        throw new LlmRequestError(
          `OpenAI-compatible summarizer (${params.operation}): POST ${url} timed out after ${timeoutMs} ms. Check that the server is up, or raise timeoutMs.`,
          url,
        );
      }
      const reason =
        error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new LlmRequestError(
        `OpenAI-compatible summarizer (${params.operation}): POST ${url} failed: ${reason}. Check CONTEXTSCOPE_LLM_BASE_URL.`,
        url,
      );
    }
    const text = await response.text();
    if (!response.ok) {
      throw new LlmRequestError(
        `OpenAI-compatible summarizer (${params.operation}): POST ${url} returned HTTP ${response.status}: ${excerpt(text)}`,
        url,
        response.status,
      );
    }
    let reply: ChatCompletionReply;
    try {
      reply = JSON.parse(text) as ChatCompletionReply;
    } catch {
      throw new LlmRequestError(
        `OpenAI-compatible summarizer (${params.operation}): POST ${url} returned a body that is not JSON: ${excerpt(text)}`,
        url,
        response.status,
      );
    }
    const content = replyText(reply.choices?.[0]?.message?.content);
    if (content === undefined) {
      throw new LlmRequestError(
        `OpenAI-compatible summarizer (${params.operation}): POST ${url} returned no choices[0].message.content: ${excerpt(text)}`,
        url,
        response.status,
      );
    }
    const usage = reply.usage ?? {};
    return {
      text: content,
      provider: PROVIDER,
      model: typeof reply.model === 'string' ? reply.model : model,
      usage: {
        inputTokens: numberOrUndefined(usage.prompt_tokens),
        outputTokens: numberOrUndefined(usage.completion_tokens),
        totalTokens: numberOrUndefined(usage.total_tokens),
      },
    };
  }

  return {
    id: 'openai-compatible',
    async summarize(request: SummaryRequest): Promise<SummaryOutput> {
      const result = await chat({
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
          chatCompletionsUrl(baseUrl ?? ''),
        );
      }
      return { summary: result.text, provider: result.provider, model: result.model, usage: result.usage };
    },
    complete(params: LlmCompleteParams): Promise<LlmCompleteResult> {
      const messages: ChatMessage[] = [];
      if (params.systemPrompt) messages.push({ role: 'system', content: params.systemPrompt });
      messages.push(...params.messages.map((m) => ({ role: m.role, content: m.content })));
      return chat({
        messages,
        model: params.model,
        maxTokens: params.maxTokens,
        temperature: params.temperature,
        signal: params.signal,
        operation: params.purpose ? `complete: ${params.purpose}` : 'complete',
      });
    },
  };
}
