/**
 * False alarms and missed alarms on sessions with the real shapes: aborted/errored assistant turns, a provider
 * 400 in the transcript, compactions that report an effect they do not have (and the honest twin), and tool
 * results an engine rewrote to a `[compacted: …]` placeholder.
 */
import { describe, expect, it } from 'vitest';
import type { AgentMessage, AssembleResult, CompactResult } from '../../../src/contract';
import { replaySession, type ReplayLaneConfig } from '../../../src/replay';
import { recordingEngine, SessionBuilder } from './sessionBuilder';

const PROVIDER_400 =
  '400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01"}}';

const legacy = (extra: Partial<ReplayLaneConfig> = {}): ReplayLaneConfig => ({
  engine: { kind: 'legacy' },
  contextWindow: 200_000,
  ...extra,
});
const inProcess = (engineId: string, factory: () => unknown, contextWindow = 16_000): ReplayLaneConfig => ({
  engine: { kind: 'in-process', engineId, factory: factory as never },
  contextWindow,
});
const codes = (findings: { code: string }[]) => findings.map((f) => f.code);

describe('recorded turns that ended in error or aborted', () => {
  it('a provider error in the transcript is flagged once, with its status and message', async () => {
    const b = new SessionBuilder().turn('hello');
    b.user('read the config');
    b.assistant('', { stopReason: 'error', errorMessage: PROVIDER_400 });
    b.turn('try again');
    const recording = await replaySession({
      session: b.loaded(),
      lanes: [legacy(), legacy({ label: 'second' })],
      transcriptFiles: 'none',
    });
    const errors = recording.findings.filter((f) => f.code === 'provider-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ lane: 'legacy', turn: 1, severity: 'warning' });
    expect(errors[0]!.message).toContain('failed at the provider (HTTP 400)');
    expect(errors[0]!.message).toContain('tool_use` ids were found without `tool_result` blocks');
    expect(recording.turns.legacy![1]!.status).toBe('prompt_error');

    const clean = await replaySession({
      session: new SessionBuilder().turn('hello').turn('read the config').loaded(),
      lanes: [legacy()],
      transcriptFiles: 'none',
    });
    expect(codes(clean.findings)).not.toContain('provider-error');
  });

  it('an aborted turn with an unanswered tool call is no orphaned-tool-call error for legacy', async () => {
    const b = new SessionBuilder().turn('hello');
    b.user('read the big file');
    b.assistant('reading', {
      toolCalls: [{ type: 'toolCall', id: 'call_aborted', name: 'read', arguments: { path: 'big.bin' } }],
      stopReason: 'aborted',
      errorMessage: 'Request was aborted',
    });
    b.turn('never mind');
    const recording = await replaySession({ session: b.loaded(), lanes: [legacy()], transcriptFiles: 'none' });
    // the aborted call is in what turn 3 assembled, unanswered ...
    const assembled = recording.turns.legacy![2]!.assembled.map(
      (a) => recording.messages[a.key]!.message as unknown as AgentMessage,
    );
    const calls = assembled.flatMap((m) =>
      m.role === 'assistant' ? (m.content as { type: string; id?: string }[]).filter((c) => c.type === 'toolCall') : [],
    );
    expect(calls.map((c) => c.id)).toContain('call_aborted');
    expect(assembled.some((m) => m.role === 'toolResult')).toBe(false);
    // ... and not an error finding
    expect(recording.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });
});

/** 3 turns; turn 2 answers with ~20k tokens of text, so turn 3's context overflows a 16k window. */
function overflowingSession(): SessionBuilder {
  return new SessionBuilder()
    .turn('hello')
    .turn('write the report', 'alpha beta gamma delta '.repeat(5000))
    .turn('thanks');
}

describe('compaction-no-effect judged by the assembled context', () => {
  it('flags an engine whose compactions report an effect its context never shows, not the honest twin', async () => {
    const fake = recordingEngine(
      { id: 'fake', ownsCompaction: true },
      {
        async compact(): Promise<CompactResult> {
          return { ok: true, compacted: true, result: { tokensBefore: 20_000, tokensAfter: 2_000 } };
        },
      },
    );
    let compacted = false;
    const honest = recordingEngine(
      { id: 'honest', ownsCompaction: true },
      {
        async assemble(params: { messages: AgentMessage[] }): Promise<AssembleResult> {
          // after its compaction it leaves out the long answer
          const kept = compacted ? params.messages.filter((m) => JSON.stringify(m).length < 2000) : params.messages;
          return { messages: kept, estimatedTokens: 0 };
        },
        async compact(): Promise<CompactResult> {
          compacted = true;
          // reports the same figure before and after: the counts say "no effect", the context shrank
          return { ok: true, compacted: true, result: { tokensBefore: 700, tokensAfter: 700 } };
        },
      },
    );
    const recording = await replaySession({
      session: overflowingSession().loaded(),
      lanes: [inProcess('fake', fake.factory), inProcess('honest', honest.factory)],
      transcriptFiles: 'none',
      // a release whose host compacts an owner in overflow recovery only: 2026.6 – 2026.7 also compact it after
      // every turn over the prompt budget (docs/openclaw-behaviour.md §7.2a), before the long answer overflows
      openclawVersion: '2026.5.2',
    });
    const noEffect = recording.findings.filter((f) => f.code === 'compaction-no-effect');
    expect(new Set(noEffect.map((f) => f.lane))).toEqual(new Set(['fake']));
    expect(noEffect[0]!.message).toMatch(/did not shrink: ~\d+ tokens before, ~\d+ at the next assemble/);
    expect(noEffect[0]!.message).toContain('tokensBefore 20000 → tokensAfter 2000');
    expect(honest.callsOf('compact')).toHaveLength(1);
    expect(recording.turns.honest![2]!.status).toBe('ok');
  });
});

describe('tool results rewritten to a placeholder', () => {
  it('are modified tool results, not summaries, and leave nothing "summarized"', async () => {
    const b = new SessionBuilder().turn('hello');
    b.user('build it');
    b.assistant('building', { toolCalls: [{ type: 'toolCall', id: 'call_b', name: 'exec', arguments: {} }] });
    b.toolResult('call_b', 'exec', 'compiling ... ok\n'.repeat(400));
    b.assistant('built');
    b.turn('thanks');
    const placeholder = recordingEngine(
      { id: 'placeholder' },
      {
        async assemble(params: { messages: AgentMessage[] }): Promise<AssembleResult> {
          const messages = params.messages.map((m) =>
            m.role === 'toolResult'
              ? { ...m, content: [{ type: 'text' as const, text: '[compacted: 6.8 KB of exec output]' }] }
              : m,
          );
          return { messages, estimatedTokens: 0 };
        },
      },
    );
    const recording = await replaySession({
      session: b.loaded(),
      lanes: [inProcess('placeholder', placeholder.factory, 200_000)],
      transcriptFiles: 'none',
    });
    const turn = recording.turns.placeholder![2]!;
    const rewritten = turn.assembled.find((a) => recording.messages[a.key]!.role === 'toolResult')!;
    expect(rewritten.provenance).toBe('modified');
    expect(turn.omitted).toMatchObject({ summarizedCount: 0, droppedCount: 0 });
  });
});
