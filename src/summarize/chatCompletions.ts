/**
 * One `POST <baseUrl>/v1/chat/completions` to an OpenAI-compatible server, in steps: resolve the endpoint, send
 * the request (bounded by a timeout, honouring the caller's abort signal), read the reply. Every failure is an
 * `LlmRequestError` that says which operation failed, where, and what to set.
 */
import type { LlmCompleteResult } from '../contract';

const BODY_EXCERPT_CHARS = 500;
const PROVIDER = 'openai-compatible';

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

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The server settings resolved once per summarizer. */
export interface ChatClientConfig {
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  timeoutMs: number;
  temperature?: number;
}

export interface ChatParams {
  messages: ChatMessage[];
  model?: string;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /** what the request is for, named in every error ("history summary", "complete: …") */
  operation: string;
}

interface ChatCompletionReply {
  model?: unknown;
  choices?: { message?: { content?: unknown } }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown };
}

/** A POSTed request's response and body text. */
interface ChatResponse {
  url: string;
  ok: boolean;
  status: number;
  text: string;
}

export async function postChatCompletion(config: ChatClientConfig, params: ChatParams): Promise<LlmCompleteResult> {
  const { url, model } = resolveEndpoint(config, params);
  const response = await sendRequest(url, requestInit(config, params, model), config.timeoutMs, params);
  return readReply(response, model, params.operation);
}

function failure(operation: string, what: string): string {
  return `OpenAI-compatible summarizer (${operation}): ${what}`;
}

function resolveEndpoint(config: ChatClientConfig, params: ChatParams): { url: string; model: string } {
  const { baseUrl } = config;
  if (!baseUrl) {
    throw new LlmRequestError(
      failure(params.operation, 'no server configured. Set CONTEXTSCOPE_LLM_BASE_URL or pass baseUrl.'),
      '',
    );
  }
  const url = chatCompletionsUrl(baseUrl);
  const model = params.model ?? config.model;
  if (!model) {
    throw new LlmRequestError(
      failure(params.operation, 'no model configured. Set CONTEXTSCOPE_LLM_MODEL or pass model.'),
      url,
    );
  }
  return { url, model };
}

function requestInit(config: ChatClientConfig, params: ChatParams, model: string): RequestInit {
  const body: Record<string, unknown> = { model, messages: params.messages };
  if (params.maxTokens !== undefined) body.max_tokens = params.maxTokens;
  const temperature = params.temperature ?? config.temperature;
  if (temperature !== undefined) body.temperature = temperature;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  return { method: 'POST', headers, body: JSON.stringify(body) };
}

async function sendRequest(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  params: ChatParams,
): Promise<ChatResponse> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = params.signal ? AbortSignal.any([params.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal });
  } catch (error) {
    if (params.signal?.aborted) throw params.signal.reason instanceof Error ? params.signal.reason : error;
    if (timeout.aborted) {
      throw new LlmRequestError(
        failure(
          params.operation,
          `POST ${url} timed out after ${timeoutMs} ms. Check that the server is up, or raise timeoutMs.`,
        ),
        url,
      );
    }
    const reason =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new LlmRequestError(
      failure(params.operation, `POST ${url} failed: ${reason}. Check CONTEXTSCOPE_LLM_BASE_URL.`),
      url,
    );
  }
  return { url, ok: response.ok, status: response.status, text: await response.text() };
}

function readReply(response: ChatResponse, model: string, operation: string): LlmCompleteResult {
  const { url, status, text } = response;
  const fail = (what: string) => new LlmRequestError(failure(operation, `POST ${url} ${what}`), url, status);
  if (!response.ok) throw fail(`returned HTTP ${status}: ${excerpt(text)}`);
  let reply: ChatCompletionReply;
  try {
    reply = JSON.parse(text) as ChatCompletionReply;
  } catch {
    throw fail(`returned a body that is not JSON: ${excerpt(text)}`);
  }
  const content = replyText(reply.choices?.[0]?.message?.content);
  if (content === undefined) throw fail(`returned no choices[0].message.content: ${excerpt(text)}`);
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

function excerpt(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS)}…` : flat || '(empty body)';
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
