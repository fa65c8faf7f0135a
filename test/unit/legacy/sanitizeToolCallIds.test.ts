/**
 * Tool-call id rewrite before the engine (OpenClaw's strict mode for providers of an openai/anthropic/google api).
 * The expected ids are what openclaw@2026.9.6's own `sanitizeToolCallIdsForCloudCodeAssist(messages, "strict")`
 * (dist/tool-call-id-*.mjs) returned for the same history; the real sessions in test/fixtures/openclaw-real check
 * the common case end to end (test/differential/fixtures.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../src/contract';
import { HistorySanitizer } from '../../../src/engines/legacy';

const call = (api: string | undefined, ...ids: string[]): AgentMessage =>
  ({
    role: 'assistant',
    ...(api ? { api } : {}),
    content: ids.map((id) => ({ type: 'toolCall', id, name: 'exec', arguments: {} })),
  }) as unknown as AgentMessage;
const result = (id: string): AgentMessage =>
  ({
    role: 'toolResult',
    toolCallId: id,
    toolName: 'exec',
    content: [],
    details: { exitCode: 0 },
  }) as unknown as AgentMessage;

const idsOf = (messages: readonly AgentMessage[]) =>
  messages.map((m) =>
    m.role === 'assistant'
      ? (m.content as { id: string }[]).map((b) => b.id)
      : (m as { toolCallId: string }).toolCallId,
  );

const long = 'call_' + 'a1'.repeat(25);
const history = (api: string | undefined) => [
  call(api, 'call_1', 'call1'),
  result('call_1'),
  result('call1'),
  call(api, 'call_x'),
  result('call_x'),
  call(api, 'call_x'),
  result('call_x'),
  result('abc-1'),
  call(api, long, 'functions.read:3'),
  result(long),
  result('functions.read:3'),
];

describe('tool-call id rewrite (strict mode)', () => {
  it('keeps letters and digits, caps at 40, resolves collisions, repeats and orphans as OpenClaw does', () => {
    const out = new HistorySanitizer().sanitize(history('openai-completions'));
    expect(idsOf(out)).toEqual([
      ['call1', 'call178d66c1f'],
      'call1',
      'call178d66c1f',
      ['callx'],
      'callx',
      ['callx2'],
      'callx2',
      'abc1toolresult1',
      ['calla1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1', 'functions.read:3'],
      'calla1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1',
      'functions.read:3',
    ]);
    expect(out.every((m) => !('details' in m))).toBe(true);
  });

  it('applies for the api the latest assistant message records, and not for other apis', () => {
    expect(idsOf(new HistorySanitizer().sanitize(history('anthropic-messages')))[0]).toEqual([
      'call1',
      'call178d66c1f',
    ]);
    expect(idsOf(new HistorySanitizer().sanitize(history('ollama')))[0]).toEqual(['call_1', 'call1']);
    expect(idsOf(new HistorySanitizer().sanitize(history(undefined)))[0]).toEqual(['call_1', 'call1']);
  });

  it('gives the same copy back for the same message on the next turn', () => {
    const sanitizer = new HistorySanitizer();
    const messages = history('openai-completions');
    const first = sanitizer.sanitize(messages);
    const second = sanitizer.sanitize([...messages, result('late')]);
    first.forEach((m, i) => expect(second[i]).toBe(m));
    expect(first[0]).not.toBe(messages[0]);
  });

  it('rewrites a growing history turn by turn exactly as one pass over it, and starts over when the history changes', () => {
    const sanitizer = new HistorySanitizer();
    const messages = [...history('openai-completions'), ...history('openai-completions')];
    for (let n = 1; n <= messages.length; n++) {
      expect(idsOf(sanitizer.sanitize(messages.slice(0, n)))).toEqual(
        idsOf(new HistorySanitizer().sanitize(messages.slice(0, n))),
      );
    }
    // a compaction replaced the start: the ids are resolved over the new history, not continued
    const rewritten = [call('openai-completions', 'call_x'), ...messages.slice(4)];
    expect(idsOf(sanitizer.sanitize(rewritten))).toEqual(idsOf(new HistorySanitizer().sanitize(rewritten)));
    expect(idsOf(sanitizer.sanitize(rewritten))[0]).toEqual(['callx']);
  });
});
