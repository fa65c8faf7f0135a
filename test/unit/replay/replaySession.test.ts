import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AssembleResult } from '../../../src/contract';
import { exportRecordingJson, importRecording, replaySession, type ReplayLaneConfig } from '../../../src/replay';
import { estimateRenderedPromptTokens } from '../../../src/tokens';
import { recordingEngine, SessionBuilder, tempDir } from './sessionBuilder';

function threeTurns(): SessionBuilder {
  return new SessionBuilder().turn('first question').turn('second question').turn('third question');
}

const legacy = (contextWindow = 32000): ReplayLaneConfig => ({ engine: { kind: 'legacy' }, contextWindow });

describe('replaySession', () => {
  it('replays a legacy lane: budget math, raw pass-through and the reference history per turn', async () => {
    const b = threeTurns();
    const rec = await replaySession({ session: b.loaded(), lanes: [legacy()] });
    const ids = b.entries.map((e) => e.id);
    expect(rec.session.messageKeys).toEqual(ids);
    expect(rec.session.turnStarts).toEqual([0, 2, 4]);
    const turns = rec.turns.legacy;
    expect(turns.map((t) => t.status)).toEqual(['ok', 'ok', 'ok']);
    expect(turns[0].assembled).toEqual([]);
    expect(turns[2].assembled.map((r) => [r.key, r.provenance])).toEqual([
      [ids[0], 'raw'],
      [ids[1], 'raw'],
      [ids[2], 'raw'],
      [ids[3], 'raw'],
    ]);
    expect(turns[2].historyCount).toBe(4);
    expect(turns[2].omitted).toEqual({
      dropped: [],
      summarized: [],
      droppedCount: 0,
      summarizedCount: 0,
      keptCount: 4,
    });
    // window 32000: OpenClaw's reserve floor 20000 applies, prompt budget 12000
    const rendered = estimateRenderedPromptTokens({ systemPrompt: '', prompt: 'third question' });
    expect(turns[2].budget).toEqual({
      contextWindow: 32000,
      reserveTokens: 20000,
      promptBudget: 12000,
      tokenBudget: 12000 - rendered,
      renderedPromptTokens: rendered,
    });
    expect(turns[2].engine).toEqual({
      requestedId: 'legacy',
      engineId: 'legacy',
      owner: 'core',
      quarantined: false,
      ownsCompaction: false,
    });
    expect(turns[2].calls.map((c) => c.method)).toEqual(['assemble', 'afterTurn']);
    expect(turns[2].newMessageKeys).toEqual([ids[4], ids[5]]);
    expect(rec.lanes[0]).toMatchObject({
      id: 'legacy',
      source: 'legacy',
      requestedEngineId: 'legacy',
      contextWindow: 32000,
      reserveTokens: 20000,
      turnCount: 3,
      host: { id: 'openclaw-embedded' },
    });
  });

  it('stores each message once however many lanes and turns reference it', async () => {
    const b = new SessionBuilder();
    for (let i = 0; i < 8; i++) b.turn(`question number ${i} with a unique marker ZQX${i}`, `ok ${i}`);
    const rec = await replaySession({ session: b.loaded(), lanes: [legacy(), legacy(64000)] });
    const json = exportRecordingJson(rec);
    expect(json.split('unique marker ZQX0').length - 1).toBe(1);
    expect(Object.keys(rec.messages).sort()).toEqual(b.entries.map((e) => e.id).sort());
    expect(rec.lanes.map((l) => l.id)).toEqual(['legacy', 'legacy#2']);
    expect(rec.turns['legacy#2'][7].assembled).toHaveLength(14);
  });

  it('appends the lane transcript line by line (earlier bytes never rewritten) and gives engines the real file', async () => {
    const workDir = tempDir();
    const snapshots: string[] = [];
    const files: string[] = [];
    const engine = recordingEngine(
      { id: 'reader' },
      {
        async afterTurn(params) {
          files.push(params.sessionFile);
          snapshots.push(readFileSync(params.sessionFile, 'utf8'));
        },
      },
    );
    const b = threeTurns();
    await replaySession({
      session: b.loaded(),
      workDir,
      keepWorkDir: true,
      lanes: [{ engine: { kind: 'in-process', engineId: 'reader', factory: engine.factory }, contextWindow: 32000 }],
    });
    expect(new Set(files).size).toBe(1);
    expect(files[0]).toBe(join(workDir, 'reader', 'sessions', 'sess-1.jsonl'));
    expect(snapshots.map((s) => s.trim().split('\n').length)).toEqual([3, 5, 7]);
    expect(snapshots[1].startsWith(snapshots[0])).toBe(true);
    expect(snapshots[2].startsWith(snapshots[1])).toBe(true);
    const lines = snapshots[2]
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'session', version: 3, id: 'sess-1' });
    expect(lines.slice(1).map((l) => l.message.content)).toEqual(
      b.entries.map((e) => (e as { message: { content: unknown } }).message.content),
    );
  });

  it('re-imports its JSON export, validated by the schema', async () => {
    const rec = await replaySession({ session: threeTurns().loaded(), lanes: [legacy()] });
    const back = importRecording(exportRecordingJson(rec));
    expect(back).toEqual(JSON.parse(JSON.stringify(rec)));
    expect(exportRecordingJson(back)).toBe(exportRecordingJson(rec));
  });

  it('records a throwing engine method as a quarantine and the rest of the lane on legacy', async () => {
    const engine = recordingEngine(
      { id: 'flaky' },
      {
        async afterTurn() {
          throw new Error('disk full');
        },
      },
    );
    const rec = await replaySession({
      session: threeTurns().loaded(),
      lanes: [
        {
          engine: { kind: 'in-process', engineId: 'flaky', factory: engine.factory, owner: 'plugin:flaky' },
          contextWindow: 32000,
        },
      ],
    });
    const [t0, t1] = rec.turns.flaky;
    const call = t0.calls.find((c) => c.method === 'afterTurn')!;
    expect(call).toMatchObject({ outcome: 'error', error: 'disk full', fellBack: true });
    expect(t0.events).toEqual([
      {
        type: 'quarantine',
        lane: 'flaky',
        turn: 0,
        seq: expect.any(Number),
        engineId: 'flaky',
        owner: 'plugin:flaky',
        operation: 'afterTurn',
        reason: 'disk full',
        failedAt: expect.any(Number),
      },
    ]);
    expect(t1.engine).toEqual({ requestedId: 'flaky', engineId: 'legacy', quarantined: true, ownsCompaction: false });
    expect(rec.findings.map((f) => [f.code, f.turn])).toEqual([
      ['keep-recent-exceeds-budget', null],
      ['quarantined', 0],
    ]);
    expect(engine.callsOf('afterTurn')).toHaveLength(1);
  });

  it('fails closed on a host without the capabilities the engine requires', async () => {
    const engine = recordingEngine({
      id: 'needs-prompt',
      hostRequirements: { 'agent-run': { requiredCapabilities: ['assemble-before-prompt'] } },
    });
    const rec = await replaySession({
      session: threeTurns().loaded(),
      lanes: [
        {
          engine: { kind: 'in-process', engineId: 'needs-prompt', factory: engine.factory },
          contextWindow: 32000,
          host: 'cli:claude',
        },
      ],
    });
    const t = rec.turns['needs-prompt'][1];
    expect(t.status).toBe('host_unsupported');
    expect(t.error).toBe(
      'Context engine "needs-prompt" cannot run operation "agent-run" on CLI backend "claude". Missing host capabilities: assemble-before-prompt. Required capabilities: assemble-before-prompt. Host capabilities: bootstrap, after-turn, maintain.',
    );
    expect(t.calls).toEqual([]);
    expect(t.events[0]).toMatchObject({
      type: 'hostRequirement',
      hostId: 'cli:claude',
      missing: ['assemble-before-prompt'],
    });
    expect(engine.calls).toEqual([]);
    expect(rec.findings.filter((f) => f.code === 'host-unsupported')).toHaveLength(3);
  });

  it('checkDeterminism assembles twice and flags an engine whose output changes', async () => {
    let flip = false;
    const engine = recordingEngine(
      { id: 'moody' },
      {
        async assemble(params): Promise<AssembleResult> {
          flip = !flip;
          const messages = flip ? params.messages : [...params.messages].reverse();
          return { messages, estimatedTokens: 0 };
        },
      },
    );
    const rec = await replaySession({
      session: threeTurns().loaded(),
      checkDeterminism: true,
      driftThreshold: 100,
      lanes: [{ engine: { kind: 'in-process', engineId: 'moody', factory: engine.factory }, contextWindow: 32000 }],
    });
    expect(rec.turns.moody[1].calls.filter((c) => c.method === 'assemble').map((c) => c.note ?? '')).toEqual([
      '',
      'determinism check',
    ]);
    const nd = rec.findings.filter((f) => f.code === 'non-deterministic').map((f) => f.turn);
    expect(nd).toEqual([1, 2]);
  });

  it('shows recorded compactions as markers, and replays them on every lane when asked to honour them', async () => {
    const b = new SessionBuilder().turn('one').turn('two');
    const kept = b.entries[2];
    const compaction = b.compaction('they said one', kept.id, 1234);
    b.turn('three');
    const markers = await replaySession({ session: b.loaded(), lanes: [legacy()] });
    expect(markers.session.recordedCompactions).toEqual([
      { entryId: compaction.id, turn: 1, summary: 'they said one', firstKeptEntryId: kept.id, tokensBefore: 1234 },
    ]);
    expect(markers.turns.legacy[2].assembled.every((r) => r.provenance === 'raw')).toBe(true);

    const honoured = await replaySession({ session: b.loaded(), honourRecordedCompactions: true, lanes: [legacy()] });
    const t1 = honoured.turns.legacy[1];
    expect(t1.events.find((e) => e.type === 'compaction')).toMatchObject({
      trigger: 'recorded',
      engineId: 'recorded',
      compacted: true,
      summary: 'they said one',
      firstKeptEntryId: kept.id,
    });
    const t2 = honoured.turns.legacy[2];
    const [summary, ...rest] = t2.assembled;
    expect(summary).toMatchObject({ provenance: 'summary', coversKeys: [b.entries[0].id, b.entries[1].id] });
    expect(rest.map((r) => r.key)).toEqual([b.entries[2].id, b.entries[3].id]);
    expect(honoured.messages[summary.key].covers).toEqual({ sessionId: 'sess-1', ranges: [[0, 2]] });
    expect(t2.omitted).toEqual({
      dropped: [],
      summarized: [[0, 2]],
      droppedCount: 0,
      summarizedCount: 2,
      keptCount: 2,
    });
  });

  it('the precheck truncate route cuts oversized tool results in the lane transcript and retries', async () => {
    const b = new SessionBuilder();
    b.user('read the log');
    b.assistant('reading', {
      toolCalls: [{ type: 'toolCall', id: 'big', name: 'read', arguments: { path: 'app.log' } }],
    });
    const log = 'GET /api/items 200 12ms\n'.repeat(12_500); // 300,000 chars
    const result = b.toolResult('big', 'read', log);
    b.assistant('the log is long');
    b.turn('and now?');
    const workDir = tempDir();
    const rec = await replaySession({ session: b.loaded(), workDir, keepWorkDir: true, lanes: [legacy(200_000)] });
    const t = rec.turns.legacy[1];
    expect(t.status).toBe('ok');
    expect(t.attempts).toBe(2);
    expect(t.precheck.route).toBe('fits');
    const ref = t.assembled.find((r) => r.provenance === 'modified')!;
    expect(ref.sourceKey).toBe(result.id);
    const text = (rec.messages[ref.key].message as unknown as { content: { text: string }[] }).content
      .map((c) => c.text)
      .join('');
    expect(log.length).toBe(300_000);
    expect(text).toBe(
      `${log.slice(0, 240_000)}\n\n[Tool result truncated: 60000 characters removed to fit the context window]`,
    );
    // append-only: the rewrite moved the leaf and re-appended the branch
    const lines = readFileSync(join(workDir, 'legacy', 'sessions', 'sess-1.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === 'leaf')).toHaveLength(1);
    expect(lines.filter((l) => l.type === 'message' && l.message.role === 'toolResult')).toHaveLength(2);
  });

  it('runs a requested /compact before a turn with forceReason "manual", and stops when cancelled', async () => {
    const engine = recordingEngine({ id: 'm' });
    const rec = await replaySession({
      session: threeTurns().loaded(),
      manualCompactions: [{ turn: 2, customInstructions: 'keep the API names' }],
      lanes: [{ engine: { kind: 'in-process', engineId: 'm', factory: engine.factory }, contextWindow: 32000 }],
    });
    expect(engine.callsOf('compact').map((c) => c.params)).toEqual([
      expect.objectContaining({
        force: true,
        forceReason: 'manual',
        customInstructions: 'keep the API names',
        tokenBudget: 32000,
        sessionId: 'sess-1',
      }),
    ]);
    expect(rec.turns.m[2].events[0]).toMatchObject({
      type: 'compaction',
      trigger: 'manual',
      engineId: 'm',
      compacted: false,
      reason: 'test engine',
    });
    expect(rec.findings.filter((f) => f.code !== 'estimate-drift').map((f) => [f.code, f.turn])).toEqual([
      ['keep-recent-exceeds-budget', null],
      ['noop-compaction', 2],
    ]);

    const controller = new AbortController();
    const run = replaySession({
      session: threeTurns().loaded(),
      signal: controller.signal,
      onTurn: (t) => t.turn === 0 && controller.abort(),
      lanes: [legacy()],
    });
    await expect(run).rejects.toThrow('The replay was cancelled.');
  });

  it('removes its temporary folders unless asked to keep them', async () => {
    const workDir = tempDir();
    await replaySession({ session: threeTurns().loaded(), workDir: join(workDir, 'w'), lanes: [legacy()] });
    expect(existsSync(join(workDir, 'w', 'legacy'))).toBe(true);
    let seen = '';
    const engine = recordingEngine(
      { id: 'x' },
      {
        async afterTurn(p) {
          seen = p.sessionFile;
        },
      },
    );
    await replaySession({
      session: threeTurns().loaded(),
      lanes: [{ engine: { kind: 'in-process', engineId: 'x', factory: engine.factory }, contextWindow: 32000 }],
    });
    expect(seen).not.toBe('');
    expect(existsSync(seen)).toBe(false);
  });
});
