/**
 * Behaviour §14.52–54: subagent spawn preparation, rollback and end reasons, as the replay drives them from the
 * `sessions_spawn` calls recorded in a session.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PrepareSubagentSpawnParams, SubagentEndedParams } from '../../src/contract';
import { FORK_REQUIRES_TRANSCRIPT_ERROR, replaySession, type ReplayLaneConfig } from '../../src/replay';
import { recordingEngine, SessionBuilder, tempDir } from '../unit/replay/sessionBuilder';

const lane = (engineId: string, factory: () => unknown): ReplayLaneConfig => ({
  engine: { kind: 'in-process', engineId, factory: factory as never },
  contextWindow: 32000,
});

const forkSession = () =>
  new SessionBuilder()
    .turn('start')
    .spawnTurn(
      'fork a helper',
      { context: 'fork' },
      { status: 'accepted', childSessionKey: 'agent:main:subagent:f1' },
      'call-f',
    );

describe('§14 subagent lifecycle (replay)', () => {
  it("§14.52 a fork spawn without an existing parent transcript fails with OpenClaw's text and prepareSubagentSpawn is not called", async () => {
    const engine = recordingEngine(
      { id: 'sub' },
      {
        async prepareSubagentSpawn() {
          return { rollback() {} };
        },
      },
    );
    const rec = await replaySession({
      session: forkSession().loaded(),
      transcriptFiles: 'none',
      lanes: [lane('sub', engine.factory)],
    });
    const spawn = rec.turns.sub[1].events.find((e) => e.type === 'subagentSpawn');
    expect(spawn).toMatchObject({ contextMode: 'fork', prepared: false, error: FORK_REQUIRES_TRANSCRIPT_ERROR });
    expect(FORK_REQUIRES_TRANSCRIPT_ERROR).toBe(
      'context="fork" requires requester session metadata with an existing transcript file.',
    );
    expect(engine.callsOf('prepareSubagentSpawn')).toEqual([]);

    // with the parent's transcript on disk the hook runs, with the parent's file
    const withFiles = recordingEngine(
      { id: 'sub' },
      {
        async prepareSubagentSpawn() {
          return undefined;
        },
      },
    );
    await replaySession({
      session: forkSession().loaded(),
      sessionKey: 'agent:main:main',
      lanes: [lane('sub', withFiles.factory)],
    });
    const [call] = withFiles.callsOf('prepareSubagentSpawn');
    const params = call.params as PrepareSubagentSpawnParams;
    expect(params).toMatchObject({
      parentSessionKey: 'agent:main:main',
      childSessionKey: 'agent:main:subagent:f1',
      contextMode: 'fork',
      parentSessionId: 'sess-1',
    });
    expect(params.parentSessionFile).toMatch(/sessions[\\/]sess-1\.jsonl$/);
  });

  it('§14.53 a spawn that fails after preparation invokes the rollback once and swallows its error', async () => {
    let rollbacks = 0;
    const engine = recordingEngine(
      { id: 'sub' },
      {
        async prepareSubagentSpawn() {
          return {
            rollback() {
              rollbacks++;
              throw new Error('rollback broke');
            },
          };
        },
      },
    );
    const b = new SessionBuilder()
      .spawnTurn(
        'spawn',
        {},
        { status: 'error', childSessionKey: 'agent:main:subagent:x', error: 'gateway timeout' },
        'call-1',
      )
      .turn('carry on');
    const rec = await replaySession({ session: b.loaded(), lanes: [lane('sub', engine.factory)] });
    expect(rollbacks).toBe(1);
    const events = rec.turns.sub[0].events.filter((e) => e.type === 'subagentSpawn' || e.type === 'subagentRollback');
    expect(events).toEqual([
      expect.objectContaining({
        type: 'subagentSpawn',
        prepared: true,
        error: 'gateway timeout',
        childSessionKey: 'agent:main:subagent:x',
      }),
      expect.objectContaining({ type: 'subagentRollback', ok: false, error: 'rollback broke' }),
    ]);
    expect(rec.turns.sub.map((t) => t.status)).toEqual(['ok', 'ok']);
    expect(engine.callsOf('onSubagentEnded')).toEqual([]);
  });

  it('§14.54 onSubagentEnded: cleanup "delete" → deleted, "keep" → completed, never finished → swept at the end', async () => {
    const dir = tempDir();
    const child = (id: string, finished: boolean) => {
      const s = new SessionBuilder({
        type: 'session',
        version: 3,
        id,
        timestamp: '2026-03-02T09:00:00.000Z',
        cwd: '/work',
      });
      s.user('[Subagent Task]: help');
      if (finished) s.assistant('done');
      else s.assistant('working', { toolCalls: [{ type: 'toolCall', id: 'c', name: 'exec', arguments: {} }] });
      return s;
    };
    await child('child-del', true).write(dir);
    await child('child-keep', true).write(dir);
    await child('child-busy', false).write(dir);
    const parent = new SessionBuilder({
      type: 'session',
      version: 3,
      id: 'parent',
      timestamp: '2026-03-02T09:00:00.000Z',
      cwd: '/work',
    })
      .spawnTurn('a', { cleanup: 'delete' }, { status: 'accepted', childSessionKey: 'agent:main:subagent:del' }, 'c1')
      .spawnTurn('b', { cleanup: 'keep' }, { status: 'accepted', childSessionKey: 'agent:main:subagent:keep' }, 'c2')
      .spawnTurn('c', {}, { status: 'accepted', childSessionKey: 'agent:main:subagent:busy' }, 'c3')
      .spawnTurn('d', {}, { status: 'accepted', childSessionKey: 'agent:main:subagent:lost' }, 'c4')
      .turn('wrap up');
    const loaded = await parent.write(dir);
    writeFileSync(
      join(dir, 'sessions.json'),
      JSON.stringify({
        'agent:main:main': { sessionId: 'parent' },
        'agent:main:subagent:del': { sessionId: 'child-del', sessionFile: 'child-del.jsonl' },
        'agent:main:subagent:keep': { sessionId: 'child-keep' },
        'agent:main:subagent:busy': { sessionId: 'child-busy', sessionFile: join(dir, 'child-busy.jsonl') },
      }),
    );
    const engine = recordingEngine({ id: 'sub' }, { async onSubagentEnded() {} });
    const rec = await replaySession({ session: loaded, lanes: [lane('sub', engine.factory)] });

    expect(engine.callsOf('onSubagentEnded').map((c) => c.params as SubagentEndedParams)).toEqual([
      { childSessionKey: 'agent:main:subagent:del', reason: 'deleted' },
      { childSessionKey: 'agent:main:subagent:keep', reason: 'completed' },
      { childSessionKey: 'agent:main:subagent:busy', reason: 'swept' },
      { childSessionKey: 'agent:main:subagent:lost', reason: 'swept' },
    ]);
    expect(rec.lanes.map((l) => [l.id, l.parentLane ?? null, l.sessionId])).toEqual([
      ['sub', null, 'parent'],
      ['sub/del', 'sub', 'child-del'],
      ['sub/keep', 'sub', 'child-keep'],
      ['sub/busy', 'sub', 'child-busy'],
    ]);
    expect(rec.turns['sub/del']).toHaveLength(1);
    expect(
      rec.events
        .filter((e) => e.type === 'subagentEnded')
        .map((e) => [e.lane, e.turn, (e as { reason: string }).reason]),
    ).toEqual([
      ['sub', null, 'swept'],
      ['sub', null, 'swept'],
    ]);
    expect(rec.childSessions['child-busy'].messageKeys).toHaveLength(2);
  });
});
