/**
 * Behaviour §14.47–50: how the replay finalizes a turn (afterTurn / ingestBatch / ingest, turn maintenance) and
 * when it bootstraps, as OpenClaw's embedded runner does.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentMessage, BootstrapParams, MaintainParams, SessionEntry } from '../../src/contract';
import { replaySession, type ReplayLaneConfig } from '../../src/replay';
import { recordingEngine, SessionBuilder } from '../unit/replay/sessionBuilder';

const lane = (engineId: string, factory: () => unknown): ReplayLaneConfig => ({
  engine: { kind: 'in-process', engineId, factory: factory as never },
  contextWindow: 32000,
});
const messagesOf = (entries: SessionEntry[]) => entries.map((e) => (e as { message: AgentMessage }).message);

describe('§14 finalizing a turn (replay)', () => {
  it('§14.47 an engine with afterTurn gets no ingest/ingestBatch; without afterTurn, ingestBatch runs once with snapshot.slice(prePromptMessageCount)', async () => {
    const b = new SessionBuilder().turn('one').turn('two');
    const withAfterTurn = recordingEngine(
      { id: 'after' },
      {
        async afterTurn() {},
        async ingestBatch() {
          return { ingestedCount: 0 };
        },
      },
    );
    const batchOnly = recordingEngine(
      { id: 'batch' },
      {
        async ingestBatch(p) {
          return { ingestedCount: (p as { messages: unknown[] }).messages.length };
        },
      },
    );
    const ingestOnly = recordingEngine({ id: 'single' });
    await replaySession({
      session: b.loaded(),
      lanes: [
        lane('after', withAfterTurn.factory),
        lane('batch', batchOnly.factory),
        lane('single', ingestOnly.factory),
      ],
    });

    expect(withAfterTurn.methods().filter((m) => m === 'ingest' || m === 'ingestBatch')).toEqual([]);
    const afterTurns = withAfterTurn
      .callsOf('afterTurn')
      .map((c) => c.params as { messages: AgentMessage[]; prePromptMessageCount: number });
    expect(afterTurns[1].prePromptMessageCount).toBe(2);
    expect(afterTurns[1].messages).toEqual(messagesOf(b.entries));

    const batches = batchOnly.callsOf('ingestBatch').map((c) => (c.params as { messages: AgentMessage[] }).messages);
    expect(batches).toEqual([messagesOf(b.entries.slice(0, 2)), messagesOf(b.entries.slice(2, 4))]);
    expect(batchOnly.callsOf('ingest')).toEqual([]);

    expect(ingestOnly.callsOf('ingest').map((c) => (c.params as { message: AgentMessage }).message)).toEqual(
      messagesOf(b.entries),
    );
  });

  it('§14.48 a turn that ended with a prompt error or an abort gets no maintain("turn")', async () => {
    const b = new SessionBuilder().turn('ok one');
    b.user('fails');
    b.assistant('', { stopReason: 'error', errorMessage: '529 overloaded' });
    b.user('stopped');
    b.assistant('partial', { stopReason: 'aborted' });
    b.turn('ok again');
    const engine = recordingEngine(
      { id: 'm' },
      {
        async maintain() {
          return { changed: false, bytesFreed: 0, rewrittenEntries: 0 };
        },
        async afterTurn() {},
      },
    );
    const rec = await replaySession({
      session: b.loaded(),
      transcriptFiles: 'none',
      lanes: [lane('m', engine.factory)],
    });
    expect(rec.turns.m.map((t) => t.status)).toEqual(['ok', 'prompt_error', 'aborted', 'ok']);
    expect(rec.turns.m[1].error).toBe('529 overloaded');
    const turnMaintains = rec.turns.m.map(
      (t) => t.calls.filter((c) => c.method === 'maintain' && c.note === 'reason=turn').length,
    );
    expect(turnMaintains).toEqual([1, 0, 0, 1]);
    expect(engine.callsOf('maintain').map((c) => (c.params as MaintainParams).reason)).toEqual(['turn', 'turn']);
    // afterTurn still ran for every turn
    expect(engine.callsOf('afterTurn')).toHaveLength(4);
  });

  it('§14.49 background turn maintenance with a session key is deferred and does not block the reply; bootstrap maintenance stays inline', async () => {
    const b = new SessionBuilder().turn('one').turn('two');
    const state = { started: 0, finished: 0 };
    let release: () => void = () => {};
    const engine = recordingEngine(
      { id: 'bg', turnMaintenanceMode: 'background' },
      {
        async afterTurn() {},
        async bootstrap() {
          return { bootstrapped: false, reason: 'nothing to import' };
        },
        async maintain(params) {
          if ((params as MaintainParams).reason !== 'turn')
            return { changed: false, bytesFreed: 0, rewrittenEntries: 0 };
          state.started++;
          await new Promise<void>((resolve) => (release = resolve));
          state.finished++;
          return { changed: false, bytesFreed: 0, rewrittenEntries: 0 };
        },
      },
    );
    const atReply: { turn: number; started: number; finished: number }[] = [];
    const rec = await replaySession({
      session: b.loaded(),
      sessionKey: 'agent:main:main',
      lanes: [lane('bg', engine.factory)],
      onTurn: (record) => {
        atReply.push({ turn: record.turn, ...state });
        release();
      },
    });
    expect(atReply).toEqual([
      { turn: 0, started: 1, finished: 0 },
      { turn: 1, started: 2, finished: 1 },
    ]);
    expect(state.finished).toBe(2);
    expect(rec.turns.bg[0].calls.map((c) => `${c.method}${c.note ? ` (${c.note})` : ''}`)).toEqual([
      'assemble',
      'afterTurn',
      'maintain (reason=turn, deferred (background))',
    ]);
    // turn 1: bootstrap + maintain("bootstrap") inline, before assemble
    expect(rec.turns.bg[1].calls.map((c) => `${c.method}${c.note ? ` (${c.note})` : ''}`).slice(0, 3)).toEqual([
      'bootstrap',
      'maintain (reason=bootstrap)',
      'assemble',
    ]);

    // without a session key the same engine's turn maintenance runs inline: done before the reply
    let done = 0;
    const inlineEngine = recordingEngine(
      { id: 'bg', turnMaintenanceMode: 'background' },
      {
        async maintain(params) {
          if ((params as MaintainParams).reason === 'turn') {
            await new Promise((resolve) => setImmediate(resolve));
            done++;
          }
          return { changed: false, bytesFreed: 0, rewrittenEntries: 0 };
        },
      },
    );
    const inline: number[] = [];
    await replaySession({
      session: b.loaded(),
      sessionKey: null,
      lanes: [lane('bg', inlineEngine.factory)],
      onTurn: () => inline.push(done),
    });
    expect(inline).toEqual([1, 2]);
  });

  it('§14.50 bootstrap is not called when the transcript file did not exist before the run', async () => {
    const b = new SessionBuilder().turn('one').turn('two').turn('three');
    const existedAtCall: boolean[] = [];
    const engine = recordingEngine(
      { id: 'boot' },
      {
        async bootstrap(p) {
          existedAtCall.push(existsSync((p as BootstrapParams).sessionFile));
          return { bootstrapped: true };
        },
        async afterTurn() {},
      },
    );
    const rec = await replaySession({ session: b.loaded(), lanes: [lane('boot', engine.factory)] });
    expect(rec.turns.boot.map((t) => t.calls.filter((c) => c.method === 'bootstrap').length)).toEqual([0, 1, 1]);
    expect(existedAtCall).toEqual([true, true]);

    const memoryOnly = recordingEngine(
      { id: 'boot' },
      {
        async bootstrap() {
          return { bootstrapped: true };
        },
      },
    );
    await replaySession({ session: b.loaded(), transcriptFiles: 'none', lanes: [lane('boot', memoryOnly.factory)] });
    expect(memoryOnly.callsOf('bootstrap')).toEqual([]);
  });
});
