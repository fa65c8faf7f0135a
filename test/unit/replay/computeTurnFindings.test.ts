import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../src/contract';
import { computeTurnFindings, findToolPairingProblems, type TurnFindingInput } from '../../../src/replay';

const user = (text: string): AgentMessage => ({ role: 'user', content: text, timestamp: 1 });
const call = (id: string): AgentMessage => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name: 'read', arguments: {} }],
  timestamp: 2,
});
const result = (id: string): AgentMessage => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'read',
  content: [{ type: 'text', text: 'r' }],
  isError: false,
  timestamp: 3,
});
const item = (message: AgentMessage, tokens = 10) => ({ message, estTokens: tokens, tiktokenTokens: tokens });

function input(overrides: Partial<TurnFindingInput> = {}): TurnFindingInput {
  return {
    lane: 'L',
    turn: 4,
    engineId: 'eng',
    isLegacy: false,
    ownsCompaction: false,
    assemblySucceeded: true,
    assembled: [item(user('hi'), 100)],
    estimatedTokens: 100,
    tokenBudget: 1000,
    driftThreshold: 0.5,
    compactions: [],
    voidResults: [],
    quarantines: [],
    ...overrides,
  };
}
const codes = (i: TurnFindingInput) => computeTurnFindings(i).map((f) => f.code);

describe('engine findings', () => {
  it('a clean turn has no findings', () => {
    expect(computeTurnFindings(input())).toEqual([]);
  });

  it('flags a no-op forced compaction on a non-owner, but not when it delegated or owns compaction', () => {
    const noop = {
      trigger: 'overflow' as const,
      byEngine: true,
      force: true,
      ok: true,
      compacted: false,
      reason: 'nothing',
      tokensBefore: null,
      tokensAfter: null,
    };
    const [f] = computeTurnFindings(input({ compactions: [noop] }));
    expect(f).toMatchObject({ code: 'noop-compaction', severity: 'error', lane: 'L', turn: 4 });
    expect(f.message).toContain('delegateCompactionToRuntime');
    expect(codes(input({ compactions: [{ ...noop, delegated: true }] }))).toEqual([]);
    expect(codes(input({ ownsCompaction: true, compactions: [noop] }))).toEqual(['compaction-refused']);
    expect(codes(input({ isLegacy: true, estimatedTokens: 0, compactions: [noop] }))).toEqual([]);
  });

  it('flags compacted:true with tokensBefore == tokensAfter', () => {
    const c = {
      trigger: 'manual' as const,
      byEngine: true,
      force: true,
      ok: true,
      compacted: true,
      tokensBefore: 500,
      tokensAfter: 500,
    };
    const [f] = computeTurnFindings(input({ compactions: [c] }));
    expect(f.code).toBe('compaction-no-effect');
    expect(f.message).toContain('tokensBefore == tokensAfter (500)');
  });

  it('flags estimate drift beyond the threshold of both counts, with the percentage', () => {
    const [f] = computeTurnFindings(input({ estimatedTokens: 151 }));
    expect(f.code).toBe('estimate-drift');
    expect(f.message).toContain('reported estimatedTokens 151, but the assembled messages count 100 tokens');
    expect(f.message).toContain('+51%');
    expect(codes(input({ estimatedTokens: 150 }))).toEqual([]);
    expect(codes(input({ estimatedTokens: 40, driftThreshold: 0.5 }))).toEqual(['estimate-drift']);
    // within range of the estimator count even though the tiktoken count differs
    expect(
      codes(input({ assembled: [{ message: user('x'), estTokens: 100, tiktokenTokens: 300 }], estimatedTokens: 120 })),
    ).toEqual([]);
  });

  it('0 is "no estimate" for every engine, as in the doctor (OpenClaw never reads it; legacy returns 0)', () => {
    expect(codes(input({ isLegacy: true, estimatedTokens: 0 }))).toEqual([]);
    expect(codes(input({ estimatedTokens: 0 }))).toEqual([]);
    // a value that is not a finite number ≥ 0 is a contract finding (found where the call returned), not a drift
    for (const bad of [-5, Number.NaN, Infinity]) expect(codes(input({ estimatedTokens: bad }))).toEqual([]);
    const invalid = computeTurnFindings({
      ...input({ estimatedTokens: Number.NaN }),
      invalidResults: [{ method: 'assemble', problem: 'estimatedTokens is number NaN, expected a finite number ≥ 0' }],
    });
    expect(invalid.map((f) => [f.code, f.severity])).toEqual([['invalid-result', 'warning']]);
    expect(invalid[0]!.message).toContain('assemble() returned a result that breaks the contract: estimatedTokens is');
    expect(invalid[0]!.message).not.toContain('%');
  });

  it('does not count tool calls of an assistant turn that ended error or aborted as orphaned (OpenClaw repairs those)', () => {
    const ended = (stopReason: 'error' | 'aborted', id: string): AgentMessage =>
      ({ ...call(id), stopReason, errorMessage: 'cut off' }) as AgentMessage;
    expect(findToolPairingProblems([user('a'), ended('aborted', 'c1'), user('b'), ended('error', 'c2')])).toEqual({
      orphanedCalls: [],
      orphanedResults: [],
    });
    // the false-alarm twin's true counterpart: a normal toolUse turn without its result still is one
    expect(findToolPairingProblems([user('a'), call('c3'), user('b')]).orphanedCalls).toEqual([
      { id: 'c3', name: 'read', index: 1 },
    ]);
  });

  it("judges compaction-no-effect by the measured assembled context, not the engine's own counts", () => {
    const compaction = {
      trigger: 'overflow' as const,
      byEngine: true,
      force: true,
      ok: true,
      compacted: true,
    };
    // claims 5000 → 1000 but the context did not shrink: flagged
    const fake = computeTurnFindings(
      input({
        compactions: [
          { ...compaction, tokensBefore: 5000, tokensAfter: 1000, measuredBefore: 900, measuredAfter: 900 },
        ],
      }),
    );
    expect(fake.map((f) => f.code)).toEqual(['compaction-no-effect']);
    expect(fake[0]!.message).toContain('~900 tokens before, ~900 at the next assemble');
    // reports equal counts but the context shrank: not flagged
    const honest = { ...compaction, tokensBefore: 700, tokensAfter: 700, measuredBefore: 900, measuredAfter: 200 };
    expect(codes(input({ compactions: [honest] }))).toEqual([]);
  });

  it('finds orphaned tool calls and results', () => {
    expect(findToolPairingProblems([user('a'), call('c1'), result('c1'), call('c2'), result('c9')])).toEqual({
      orphanedCalls: [{ id: 'c2', name: 'read', index: 3 }],
      orphanedResults: [{ toolCallId: 'c9', index: 4 }],
    });
    expect(codes(input({ assembled: [item(user('a')), item(call('c2')), item(result('c9'))] }))).toEqual([
      'orphaned-tool-call',
      'orphaned-tool-result',
      'estimate-drift',
    ]);
  });

  it('flags an assistant-first context and over-budget assembly', () => {
    expect(codes(input({ assembled: [item(call('c1'), 50), item(result('c1'), 50)] }))).toEqual(['assistant-first']);
    const [f] = computeTurnFindings(input({ tokenBudget: 99 }));
    expect(f).toMatchObject({ code: 'over-budget', severity: 'warning' });
    expect(f.message).toContain('~100 tokens (OpenClaw estimate; tiktoken 100) for a tokenBudget of 99');
  });

  it('flags non-determinism at the first differing message', () => {
    const [f] = computeTurnFindings(input({ determinism: { first: ['a', 'b', 'c'], second: ['a', 'x', 'c'] } }));
    expect(f.code).toBe('non-deterministic');
    expect(f.message).toContain('3 vs 3 messages, first difference at message 1');
    expect(codes(input({ determinism: { first: ['a'], second: ['a'] } }))).toEqual([]);
  });

  it('reports void results, quarantines, host failures and failed assembly', () => {
    const out = computeTurnFindings(
      input({
        voidResults: ['ingest'],
        quarantines: [{ engineId: 'eng', operation: 'afterTurn', reason: 'boom' }],
        hostFailure: 'Context engine "eng" cannot run operation "agent-run" on CLI backend "x". …',
        assemblySucceeded: false,
        assembleError: 'kaput',
        assembled: [],
      }),
    );
    expect(out.map((f) => [f.code, f.severity])).toEqual([
      ['host-unsupported', 'error'],
      ['quarantined', 'error'],
      ['assemble-failed', 'error'],
      ['void-result', 'warning'],
    ]);
    expect(out[1].message).toBe(
      'Context engine "eng" failed during afterTurn: boom. It is quarantined for the rest of the replay and the lane falls back to "legacy". Fix the afterTurn() failure and replay again.',
    );
    expect(out[3].message).toContain('ingest() returned undefined');
    expect(out[3].message).toContain('{ ingested: boolean }');
  });
});
