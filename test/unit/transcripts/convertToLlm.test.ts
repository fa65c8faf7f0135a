import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../src/contract';
import { bashExecutionToText, convertToLlm, isRuntimeContextCarrier } from '../../../src/transcripts';
import { assistant, result, user } from './entryBuilders';

describe('convertToLlm', () => {
  it('passes user, assistant and toolResult through unchanged (same objects)', () => {
    const input = [user('hi'), assistant('yo'), result('t1')];
    const out = convertToLlm(input);
    expect(out).toHaveLength(3);
    out.forEach((m, i) => expect(m).toBe(input[i]));
  });

  it('wraps a compaction summary as a synthetic user message with the exact prefix and suffix', () => {
    const out = convertToLlm([{ role: 'compactionSummary', summary: 'S1', tokensBefore: 10, timestamp: 42 }]);
    expect(out).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'The conversation history before this point was compacted into the following summary:\n\n<summary>\nS1\n</summary>',
          },
        ],
        timestamp: 42,
        synthetic: true,
      },
    ]);
  });

  it('normalizes an ISO compaction-summary timestamp to epoch ms (0 when invalid)', () => {
    const out = convertToLlm([
      { role: 'compactionSummary', summary: 'a', tokensBefore: 1, timestamp: '2026-01-05T10:00:00.000Z' },
      { role: 'compactionSummary', summary: 'b', tokensBefore: 1, timestamp: 'yesterday' },
    ]);
    expect(out.map((m) => m.timestamp)).toEqual([Date.UTC(2026, 0, 5, 10), 0]);
  });

  it('wraps a branch summary with its prefix and a suffix that has no leading newline', () => {
    const out = convertToLlm([{ role: 'branchSummary', summary: 'B', fromId: 'x', timestamp: 7 }]);
    expect(out).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'The following is a summary of a branch that this conversation came back from:\n\n<summary>\nB</summary>',
          },
        ],
        timestamp: 7,
        synthetic: true,
      },
    ]);
  });

  it('renders bash executions: output fence, no output, non-zero exit, cancelled, truncated with a saved file', () => {
    const base = { role: 'bashExecution' as const, timestamp: 1, cancelled: false, truncated: false };
    expect(bashExecutionToText({ ...base, command: 'ls', output: 'a\nb', exitCode: 0 })).toBe(
      'Ran `ls`\n```\na\nb\n```',
    );
    expect(bashExecutionToText({ ...base, command: 'true', output: '', exitCode: 0 })).toBe('Ran `true`\n(no output)');
    expect(bashExecutionToText({ ...base, command: 'false', output: 'x', exitCode: 2 })).toBe(
      'Ran `false`\n```\nx\n```\n\nCommand exited with code 2',
    );
    expect(bashExecutionToText({ ...base, command: 'sleep 9', output: '', exitCode: 2, cancelled: true })).toBe(
      'Ran `sleep 9`\n(no output)\n\n(command cancelled)',
    );
    expect(
      bashExecutionToText({
        ...base,
        command: 'cat big',
        output: 'x',
        exitCode: null,
        truncated: true,
        fullOutputPath: '/tmp/o.txt',
      }),
    ).toBe('Ran `cat big`\n```\nx\n```\n\n[Output truncated. Full output: /tmp/o.txt]');
    const out = convertToLlm([{ ...base, command: 'ls', output: 'a', exitCode: 0 }]);
    expect(out).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Ran `ls`\n```\na\n```' }], timestamp: 1, synthetic: true },
    ]);
  });

  it('turns custom messages into user messages (string content becomes one text block; block arrays are kept)', () => {
    const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
    const out = convertToLlm([
      { role: 'custom', customType: 'note', content: 'plain', display: true, timestamp: 5 },
      {
        role: 'custom',
        customType: 'note',
        content: [{ type: 'text', text: 't' }, image],
        display: false,
        timestamp: 6,
      },
    ]);
    expect(out).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'plain' }], timestamp: 5, synthetic: true },
      { role: 'user', content: [{ type: 'text', text: 't' }, image], timestamp: 6, synthetic: true },
    ]);
  });

  it("marks runtime-context carriers as OpenClaw's convertToLlm does: details.runtimeContextCarrier", () => {
    // the shape OpenClaw 2026.7.35 / 2026.9.6 build (buildRuntimeContextCustomMessage)
    const real: AgentMessage = {
      role: 'custom',
      customType: 'openclaw.runtime-context',
      content: 'ctx',
      display: false,
      details: { source: 'openclaw-runtime-context', runtimeContextCarrier: true },
      timestamp: 9,
    };
    const typeOnly: AgentMessage = {
      role: 'custom',
      customType: 'openclaw.runtime-context',
      content: 'typed',
      display: false,
      timestamp: 10,
    };
    const misspelled: AgentMessage = {
      role: 'custom',
      customType: 'openclaw-runtime-context',
      content: 'not',
      display: false,
      details: { source: 'openclaw-runtime-context' },
      timestamp: 11,
    };
    const out = convertToLlm([real, typeOnly, misspelled]);
    expect(out[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'ctx' }],
      timestamp: 9,
      runtimeContextCarrier: true,
    });
    expect(out[1]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'typed' }],
      timestamp: 10,
      synthetic: true,
    });
    expect(out[2]).toEqual({ role: 'user', content: [{ type: 'text', text: 'not' }], timestamp: 11, synthetic: true });
    // estimates and compaction leave out every custom message of OpenClaw's carrier type (stripRuntimeContextCustomMessages)
    expect([real, typeOnly, misspelled].map((m) => isRuntimeContextCarrier(m))).toEqual([true, true, false]);
  });

  it('drops excluded bash/custom messages and unknown roles', () => {
    const out = convertToLlm([
      {
        role: 'bashExecution',
        command: 'x',
        output: '',
        exitCode: 0,
        cancelled: false,
        truncated: false,
        timestamp: 1,
        excludeFromContext: true,
      },
      { role: 'custom', customType: 'c', content: 'x', display: true, timestamp: 2, excludeFromContext: true },
      { role: 'hookMessage', content: 'x', timestamp: 3 } as unknown as AgentMessage,
      user('kept'),
    ]);
    expect(out).toEqual([user('kept')]);
  });
});
