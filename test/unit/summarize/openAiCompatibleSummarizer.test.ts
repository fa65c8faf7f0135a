import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildSummaryRequest,
  chatCompletionsUrl,
  createOpenAiCompatibleSummarizer,
  SUMMARIZATION_SYSTEM_PROMPT,
} from '../../../src/summarize';
import { codingSession } from './fixtures';

interface Captured {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

let server: Server;
let baseUrl: string;
let captured: Captured[] = [];
let respond: (res: ServerResponse) => void = () => {};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      captured.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      respond(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  captured = [];
});

function replyJson(status: number, body: unknown) {
  respond = (res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

describe('OpenAI-compatible summarizer', () => {
  it('POSTs the rendered summary request to /v1/chat/completions and parses the reply', async () => {
    replyJson(200, {
      model: 'served-model-1',
      choices: [{ message: { role: 'assistant', content: '## Goal\n- fix login' } }],
      usage: { prompt_tokens: 321, completion_tokens: 12, total_tokens: 333 },
    });
    const summarizer = createOpenAiCompatibleSummarizer({ baseUrl, model: 'local-model', apiKey: 'sk-test', env: {} });
    const request = buildSummaryRequest({ messages: codingSession(), maxTokens: 777 });
    const out = await summarizer.summarize(request);

    expect(captured).toHaveLength(1);
    const call = captured[0]!;
    expect(call.method).toBe('POST');
    expect(call.url).toBe('/v1/chat/completions');
    expect(call.headers.authorization).toBe('Bearer sk-test');
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.body).toEqual({
      model: 'local-model',
      messages: [
        { role: 'system', content: SUMMARIZATION_SYSTEM_PROMPT },
        { role: 'user', content: request.prompt },
      ],
      max_tokens: 777,
    });
    expect(out).toEqual({
      summary: '## Goal\n- fix login',
      provider: 'openai-compatible',
      model: 'served-model-1',
      usage: { inputTokens: 321, outputTokens: 12, totalTokens: 333 },
    });
  });

  it('complete() sends systemPrompt first, then the messages, model override and temperature', async () => {
    replyJson(200, {
      choices: [
        {
          message: {
            content: [
              { type: 'text', text: 'short ' },
              { type: 'text', text: 'answer' },
            ],
          },
        },
      ],
    });
    const summarizer = createOpenAiCompatibleSummarizer({
      env: { CONTEXTSCOPE_LLM_BASE_URL: `${baseUrl}/v1/`, CONTEXTSCOPE_LLM_MODEL: 'env-model' },
    });
    const result = await summarizer.complete({
      systemPrompt: 'Be terse.',
      messages: [{ role: 'user', content: 'Summarize this.' }],
      model: 'override-model',
      maxTokens: 50,
      temperature: 0.2,
    });
    const call = captured[0]!;
    expect(call.url).toBe('/v1/chat/completions');
    expect(call.headers.authorization).toBeUndefined();
    expect(call.body).toEqual({
      model: 'override-model',
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'Summarize this.' },
      ],
      max_tokens: 50,
      temperature: 0.2,
    });
    expect(result).toEqual({
      text: 'short answer',
      provider: 'openai-compatible',
      model: 'override-model',
      usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
    });
  });

  it('reports an error status with the URL and an excerpt of the body', async () => {
    replyJson(503, { error: { message: 'model is loading' } });
    const summarizer = createOpenAiCompatibleSummarizer({ baseUrl, model: 'm', env: {} });
    await expect(summarizer.complete({ messages: [{ role: 'user', content: 'x' }], purpose: 'probe' })).rejects.toThrow(
      `OpenAI-compatible summarizer (complete: probe): POST ${baseUrl}/v1/chat/completions returned HTTP 503: {"error":{"message":"model is loading"}}`,
    );
    await expect(summarizer.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      status: 503,
    });
  });

  it('rejects a reply without content', async () => {
    replyJson(200, { choices: [] });
    const summarizer = createOpenAiCompatibleSummarizer({ baseUrl, model: 'm', env: {} });
    await expect(summarizer.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toThrow(
      'returned no choices[0].message.content: {"choices":[]}',
    );
  });

  it('stops when the caller aborts', async () => {
    respond = () => {
      /* never answers */
    };
    const summarizer = createOpenAiCompatibleSummarizer({ baseUrl, model: 'm', env: {} });
    const controller = new AbortController();
    const pending = summarizer.complete({ messages: [{ role: 'user', content: 'x' }], signal: controller.signal });
    // abort once the server has the request, so the abort cuts a live request
    while (captured.length === 0) await new Promise((r) => setImmediate(r));
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });

  it('says what to configure when no server or model is set', async () => {
    await expect(createOpenAiCompatibleSummarizer({ env: {} }).complete({ messages: [] })).rejects.toThrow(
      'no server configured. Set CONTEXTSCOPE_LLM_BASE_URL or pass baseUrl.',
    );
    await expect(createOpenAiCompatibleSummarizer({ baseUrl, env: {} }).complete({ messages: [] })).rejects.toThrow(
      'no model configured. Set CONTEXTSCOPE_LLM_MODEL or pass model.',
    );
  });

  it('builds the endpoint URL without doubling /v1', () => {
    expect(chatCompletionsUrl('http://h:1')).toBe('http://h:1/v1/chat/completions');
    expect(chatCompletionsUrl('http://h:1/')).toBe('http://h:1/v1/chat/completions');
    expect(chatCompletionsUrl('http://h:1/v1')).toBe('http://h:1/v1/chat/completions');
    expect(chatCompletionsUrl('http://h:1/proxy')).toBe('http://h:1/proxy/v1/chat/completions');
  });
});
