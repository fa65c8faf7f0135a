/**
 * A scripted OpenAI-compatible model on 127.0.0.1 for running real OpenClaw offline: it answers
 * `POST /v1/chat/completions` (streaming SSE, as OpenClaw asks for it) with the scenario's replies, in order, and
 * logs every request body. Requests are classified from their content: compaction summaries (OpenClaw's
 * summarization system prompt), the pre-compaction memory flush, heartbeats, and ordinary turns, whose reply is the
 * scenario turn the runner set (`setTurn`) at the step given by the assistant messages after the last user message.
 */
import http from 'node:http';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { ScenarioReply, Scenario } from './scenario';

export type RequestKind = 'turn' | 'compaction' | 'memory-flush' | 'heartbeat' | 'subagent';

export interface LoggedRequest {
  seq: number;
  /** the scenario turn the runner was on (0-based) */
  turn: number;
  kind: RequestKind;
  /** index of the tool-call round within the turn (0 = the prompt's first request) */
  step: number;
  body: ChatRequest;
  /** set in fixtures whose later requests leave out a system prompt / tool list equal to the first request's */
  systemSameAsFirst?: boolean;
  toolsSameAsFirst?: boolean;
}

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface ChatRequest {
  model?: string;
  stream?: boolean;
  messages: ChatMessage[];
  tools?: { function?: { name?: string } }[];
}

export interface ScriptedModel {
  url: string;
  setTurn(turn: number): void;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

const SUMMARY_SYSTEM = 'You are a context summarization assistant';
const MEMORY_FLUSH = 'Pre-compaction memory flush';

export function messageText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (typeof p === 'object' && p && 'text' in p ? String(p.text) : '')).join('');
  }
  return '';
}

function classify(body: ChatRequest, heartbeatPrompt: string | undefined): RequestKind {
  const system = body.messages.filter((m) => m.role === 'system' || m.role === 'developer').map(messageText);
  if (system.some((s) => s.includes(SUMMARY_SYSTEM))) return 'compaction';
  const users = body.messages.filter((m) => m.role === 'user').map(messageText);
  if (users.some((u) => u.includes(MEMORY_FLUSH))) return 'memory-flush';
  if (heartbeatPrompt && users.some((u) => u.includes(heartbeatPrompt))) return 'heartbeat';
  if (system.some((s) => s.includes('# Subagent Context') || s.includes('You are a subagent'))) return 'subagent';
  return 'turn';
}

/** Tool-call rounds already answered in this turn: assistant messages after the last user message. */
function stepOf(body: ChatRequest): number {
  let lastUser = -1;
  body.messages.forEach((m, i) => {
    if (m.role === 'user' && !messageText(m).includes('<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>')) lastUser = i;
  });
  return body.messages.slice(lastUser + 1).filter((m) => m.role === 'assistant').length;
}

/** A summary OpenClaw's compaction quality guard accepts (it looks for these headings). */
export function scriptedSummary(seq: number): string {
  return [
    `## Decisions\n- Summary ${seq}: the user asked for the scenario's steps and they were done.`,
    '## Open TODOs\n- none',
    '## Constraints/Rules\n- keep answers short',
    '## Pending user asks\n- none',
    `## Exact identifiers\n- summary-${seq}`,
  ].join('\n\n');
}

function replyFor(scenario: Scenario, kind: RequestKind, turn: number, step: number, seq: number): ScenarioReply {
  if (kind === 'compaction') return { text: scriptedSummary(seq) };
  if (kind === 'memory-flush') return { text: 'NO_REPLY' };
  if (kind === 'heartbeat') return { text: 'HEARTBEAT_OK' };
  if (kind === 'subagent') return scenario.subagentReply ?? { text: 'Subagent done: 3 files.' };
  const replies = scenario.turns[turn]?.replies ?? [];
  return replies[Math.min(step, replies.length - 1)] ?? { text: `Turn ${turn + 1} done.` };
}

/** Provider usage the way a real API reports it: prompt tokens ≈ request characters / 4 (deterministic). */
function usageOf(body: ChatRequest, completion: string): Record<string, number> {
  const chars = body.messages.reduce(
    (n, m) => n + messageText(m).length + JSON.stringify(m.tool_calls ?? []).length,
    0,
  );
  const toolChars = JSON.stringify(body.tools ?? []).length;
  const prompt = Math.ceil((chars + toolChars) / 4);
  const completionTokens = Math.max(1, Math.ceil(completion.length / 4));
  return { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens };
}

function writeStream(res: http.ServerResponse, reply: ScenarioReply, seq: number, body: ChatRequest): void {
  const id = `chatcmpl-${seq}`;
  const chunk = (delta: unknown, finish: string | null, extra: Record<string, unknown> = {}): string =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: body.model ?? 'm1', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: '' }, null));
  let completion: string;
  if (reply.toolCalls?.length) {
    const calls = reply.toolCalls.map((c, index) => ({
      index,
      id: `call_${seq}_${index}`,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.arguments) },
    }));
    completion = JSON.stringify(calls);
    if (reply.text) res.write(chunk({ content: reply.text }, null));
    res.write(chunk({ tool_calls: calls }, null));
    res.write(chunk({}, 'tool_calls'));
  } else {
    completion = (reply.text ?? '').repeat(reply.repeat ?? 1);
    res.write(chunk({ content: completion }, null));
    res.write(chunk({}, reply.finish ?? 'stop'));
  }
  const usage = usageOf(body, completion);
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}

export async function startScriptedModel(scenario: Scenario, logFile?: string): Promise<ScriptedModel> {
  const requests: LoggedRequest[] = [];
  let turn = 0;
  const server = http.createServer((req, res) => {
    // the body decoded whole: a character split between two chunks must not become U+FFFD in the log
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'GET' && req.url?.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: [{ id: 'm1', object: 'model' }] }));
        return;
      }
      let body: ChatRequest;
      try {
        body = JSON.parse(raw) as ChatRequest;
      } catch {
        res.writeHead(400).end('request body is not JSON');
        return;
      }
      const seq = requests.length;
      const kind = classify(body, scenario.heartbeat?.prompt);
      const step = kind === 'turn' ? stepOf(body) : 0;
      const logged: LoggedRequest = { seq, turn, kind, step, body };
      requests.push(logged);
      if (logFile) fs.appendFileSync(logFile, `${JSON.stringify(logged)}\n`);
      writeStream(res, replyFor(scenario, kind, turn, step, seq), seq, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    setTurn: (t) => (turn = t),
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
