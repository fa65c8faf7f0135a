import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../src/contract';
import {
  DEFAULT_HEARTBEAT_PROMPT_2026_9,
  HEARTBEAT_TRANSCRIPT_PROMPT,
  MISSING_TOOL_RESULT_TEXT,
  runHistoryPipeline,
} from '../../../src/engines/legacy';
import { assistantCall, assistantText, toolResult, user } from './helpers';

describe('runHistoryPipeline — heartbeat artifacts', () => {
  it('removes a heartbeat poll answered with a bare HEARTBEAT_OK', () => {
    const messages: AgentMessage[] = [
      user('hi'),
      assistantText('hello'),
      user(HEARTBEAT_TRANSCRIPT_PROMPT),
      assistantText('HEARTBEAT_OK'),
      user('next'),
    ];
    const out = runHistoryPipeline(messages);
    expect(out.messages).toEqual([messages[0], messages[1], messages[4]]);
    expect(out.removed).toEqual([
      { index: 2, reason: 'heartbeat-artifact' },
      { index: 3, reason: 'heartbeat-artifact' },
    ]);
  });

  it('treats a short reply around the token as an ack, a long one (over ackMaxChars) as real output', () => {
    const prompt = DEFAULT_HEARTBEAT_PROMPT_2026_9; // the default filter is 2026.9's
    const acked = runHistoryPipeline([user(prompt), assistantText('**HEARTBEAT_OK** all quiet')]);
    expect(acked.messages).toEqual([]);
    const long = 'x'.repeat(40);
    const kept = runHistoryPipeline([user(prompt), assistantText(`HEARTBEAT_OK ${long}`)], {
      heartbeat: { ackMaxChars: 39 },
    });
    expect(kept.messages).toHaveLength(2);
    expect(kept.removed).toEqual([]);
  });

  it('keeps a heartbeat turn in which the assistant reported something', () => {
    const messages = [user(HEARTBEAT_TRANSCRIPT_PROMPT), assistantText('Your build failed at 10:02.')];
    expect(runHistoryPipeline(messages).messages).toEqual(messages);
  });

  it('removes helper tool calls and results inside an acked heartbeat span', () => {
    const messages: AgentMessage[] = [
      user(HEARTBEAT_TRANSCRIPT_PROMPT),
      assistantCall('h1', 'read', { path: 'HEARTBEAT.md' }),
      toolResult('h1', 'read', '# nothing'),
      assistantText('HEARTBEAT_OK'),
      user('real question'),
    ];
    const out = runHistoryPipeline(messages);
    expect(out.messages).toEqual([messages[4]]);
    expect(out.removed.map((r) => r.index)).toEqual([0, 1, 2, 3]);
  });

  it('honours a configured heartbeat prompt and can be disabled', () => {
    const messages = [user('PING-CHECK\ncontext'), assistantText('HEARTBEAT_OK')];
    expect(runHistoryPipeline(messages, { heartbeat: { prompt: 'PING-CHECK' } }).messages).toEqual([]);
    expect(runHistoryPipeline(messages).messages).toEqual(messages);
    expect(
      runHistoryPipeline([user(HEARTBEAT_TRANSCRIPT_PROMPT), assistantText('HEARTBEAT_OK')], { heartbeat: false })
        .messages,
    ).toHaveLength(2);
  });
});

describe('runHistoryPipeline — history limit', () => {
  it('keeps the last N user turns', () => {
    const messages = [user('1'), assistantText('a'), user('2'), assistantText('b'), user('3'), assistantText('c')];
    const out = runHistoryPipeline(messages, { historyLimit: 2 });
    expect(out.messages).toEqual(messages.slice(2));
    expect(out.removed).toEqual([
      { index: 0, reason: 'history-limit' },
      { index: 1, reason: 'history-limit' },
    ]);
  });
  it('undefined or 0 is unlimited', () => {
    const messages = [user('1'), assistantText('a'), user('2')];
    expect(runHistoryPipeline(messages).messages).toEqual(messages);
    expect(runHistoryPipeline(messages, { historyLimit: 0 }).messages).toEqual(messages);
  });
});

describe('runHistoryPipeline — tool-call/result pairing repair', () => {
  it('drops a toolResult whose call is missing (e.g. cut by the history limit)', () => {
    const messages: AgentMessage[] = [toolResult('gone', 'read', 'old'), user('q'), assistantText('a')];
    const out = runHistoryPipeline(messages);
    expect(out.messages).toEqual([messages[1], messages[2]]);
    expect(out.removed).toEqual([{ index: 0, reason: 'orphan-tool-result' }]);
  });

  it('inserts OpenClaw’s synthetic error result for a call without a result', () => {
    const call = assistantCall('c1', 'bash', { command: 'ls' });
    const out = runHistoryPipeline([user('q'), call, user('next')]);
    expect(out.messages).toEqual([
      user('q'),
      call,
      {
        role: 'toolResult',
        toolCallId: 'c1',
        toolName: 'bash',
        content: [{ type: 'text', text: MISSING_TOOL_RESULT_TEXT }],
        isError: true,
        timestamp: call.timestamp,
      },
      user('next'),
    ]);
    expect(out.inserted).toEqual([{ afterIndex: 1, toolCallId: 'c1' }]);
  });

  it('moves a displaced result up to its call and drops a duplicate', () => {
    const call = assistantCall('c1', 'read', { path: 'a' });
    const result = toolResult('c1', 'read', 'A');
    const messages: AgentMessage[] = [user('q'), call, user('interjection'), result, toolResult('c1', 'read', 'again')];
    const out = runHistoryPipeline(messages);
    expect(out.messages).toEqual([user('q'), call, result, user('interjection')]);
    expect(out.removed).toEqual([{ index: 4, reason: 'duplicate-tool-result' }]);
  });

  it('leaves aborted assistant turns alone (no synthetic result)', () => {
    const aborted = { ...assistantCall('c9', 'bash', { command: 'sleep 100' }), stopReason: 'aborted' as const };
    expect(runHistoryPipeline([user('q'), aborted]).messages).toEqual([user('q'), aborted]);
  });
});

describe('runHistoryPipeline — turn validation', () => {
  it('anthropic merges consecutive user messages; removals name the merged one', () => {
    const out = runHistoryPipeline([user('a'), user('b'), assistantText('x')], { turnValidation: 'anthropic' });
    expect(out.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
      timestamp: 1,
    });
    expect(out.messages).toHaveLength(2);
    expect(out.removed).toEqual([{ index: 1, reason: 'merged-into-previous-user' }]);
  });
  it('gemini merges consecutive assistant messages', () => {
    const out = runHistoryPipeline([user('q'), assistantText('a'), assistantText('b')], { turnValidation: 'gemini' });
    expect(out.messages).toEqual([
      user('q'),
      {
        ...assistantText('b'),
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
  });
  it('none keeps consecutive roles', () => {
    const messages = [user('a'), user('b')];
    expect(runHistoryPipeline(messages).messages).toEqual(messages);
  });
});

describe('runHistoryPipeline — properties', () => {
  it('is pure: the input array and messages are not modified', () => {
    const messages: AgentMessage[] = [
      toolResult('x', 'read', 'o'),
      user('q'),
      assistantCall('c', 'read', { path: 'p' }),
    ];
    const snapshot = structuredClone(messages);
    runHistoryPipeline(messages, { historyLimit: 1, turnValidation: 'anthropic' });
    expect(messages).toEqual(snapshot);
  });

  it('handles a long session in one linear pass', () => {
    const messages: AgentMessage[] = [];
    for (let i = 0; i < 20000; i++)
      messages.push(
        user(`q${i}`),
        assistantCall(`c${i}`, 'read', { path: `f${i}` }),
        toolResult(`c${i}`, 'read', 'ok'),
      );
    const out = runHistoryPipeline(messages, { historyLimit: 10 });
    expect(out.messages).toHaveLength(30);
    expect(out.removed).toHaveLength(60000 - 30);
  });
});
