import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../src/contract';
import {
  checkAssembleResult,
  checkCompactProbe,
  checkLifecycleResult,
  findUnpairedToolMessages,
  isEstimateFar,
} from '../../../src/plugins/doctor/resultChecks';
import { doctorConversation } from '../../../src/plugins/doctor/doctorConversation';
import { smokeMessages } from '../../../src/plugins/doctor/smokeConversation';
import { estimateMessagesTokens } from '../../../src/tokens';

const ref = { pluginId: 'p', engineId: 'e' };
const codes = (findings: { code: string }[]) => findings.map((f) => f.code);

describe('doctor checks', () => {
  it('finds tool calls without results and results without calls', () => {
    const [user, assistant, result] = smokeMessages() as [AgentMessage, AgentMessage, AgentMessage];
    expect(findUnpairedToolMessages([user, assistant, result])).toEqual({ orphanedCalls: [], orphanedResults: [] });
    expect(findUnpairedToolMessages([user, assistant])).toEqual({
      orphanedCalls: ['doctor_call_1'],
      orphanedResults: [],
    });
    expect(findUnpairedToolMessages([user, result])).toEqual({ orphanedCalls: [], orphanedResults: ['doctor_call_1'] });
  });

  it('accepts the unchanged smoke conversation with an honest estimate', () => {
    const messages = smokeMessages();
    expect(checkAssembleResult(ref, { messages, estimatedTokens: estimateMessagesTokens(messages) })).toEqual([]);
    expect(checkAssembleResult(ref, { messages, estimatedTokens: 0 })).toEqual([]);
  });

  it('flags a malformed result, orphans, an assistant-first context and a far estimate', () => {
    expect(checkAssembleResult(ref, { messages: 'x', estimatedTokens: 'many' })[0]!.message).toBe(
      'invalid AssembleResult: messages is not an array, estimatedTokens is not a number',
    );
    const [, assistant] = smokeMessages() as [AgentMessage, AgentMessage];
    expect(codes(checkAssembleResult(ref, { messages: [assistant], estimatedTokens: 1 }))).toEqual([
      'orphaned-tool-calls',
      'assistant-first',
    ]);
    const messages = doctorConversation().history;
    const drift = checkAssembleResult(ref, { messages, estimatedTokens: 1 });
    expect(drift.map((f) => f.message)).toEqual([
      `estimatedTokens far from the assembled size: reported 1, the assembled ${messages.length} message(s) are about ${estimateMessagesTokens(messages)} tokens (chars/4)`,
    ]);
  });

  it('calls an estimate far only past half the size and 32 tokens', () => {
    expect(isEstimateFar(100, 140)).toBe(false);
    expect(isEstimateFar(10, 40)).toBe(false);
    expect(isEstimateFar(1, 150)).toBe(true);
    expect(isEstimateFar(400, 150)).toBe(true);
  });

  it('flags lifecycle methods resolving undefined', () => {
    expect(checkLifecycleResult(ref, 'ingest', { ingested: false })).toEqual([]);
    expect(checkLifecycleResult(ref, 'ingest', undefined)[0]!.message).toBe(
      'ingest() returned undefined instead of a result object {ingested: boolean}',
    );
  });

  it('flags a non-owning no-op compact only when it did not delegate', () => {
    const noop = { ok: true, compacted: false, reason: 'nothing to do' };
    expect(codes(checkCompactProbe(ref, { ownsCompaction: false, delegated: false, result: noop }))).toEqual([
      'noop-compact',
    ]);
    expect(checkCompactProbe(ref, { ownsCompaction: false, delegated: true, result: noop })).toEqual([]);
    expect(checkCompactProbe(ref, { ownsCompaction: true, delegated: false, result: noop })).toEqual([]);
  });

  it('flags compacted:true without a token change, invalid results and failures', () => {
    const same = { ok: true, compacted: true, result: { tokensBefore: 150, tokensAfter: 150 } };
    expect(checkCompactProbe(ref, { ownsCompaction: true, delegated: false, result: same })[0]!.message).toBe(
      'compacted:true while tokensBefore == tokensAfter (150)',
    );
    expect(codes(checkCompactProbe(ref, { ownsCompaction: true, delegated: false, result: undefined }))).toEqual([
      'invalid-compact-result',
    ]);
    expect(codes(checkCompactProbe(ref, { ownsCompaction: false, delegated: false, error: 'boom' }))).toEqual([
      'compact-probe-failed',
    ]);
  });
});
