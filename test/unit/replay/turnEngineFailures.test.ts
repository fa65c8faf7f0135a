/**
 * An engine method that throws inside an agent turn, for an engine with the turn-commit contract (currentTurnFence +
 * turnAdvancementIdempotency + commitTurn), replayed as OpenClaw handles it (read in the dists):
 * - 2026.9.6 runs each logical turn on an engine created without the quarantine proxy (registry-*.mjs
 *   `resolveLogicalTurnContextEngines`): a throwing assemble is logged and the turn sends the pipeline messages
 *   (builtin-openclaw-*.mjs), a throwing maintain is logged (context-engine-maintenance-*.mjs), a failed commitTurn
 *   stays queued and is retried before the next turn, which runs on legacy if the retry fails too
 *   (context-engine-turn-attempt-*.mjs); nothing is quarantined and the next turn runs on the engine again.
 * - 2026.7.35 runs the turn on the engine behind the quarantine proxy (registry-*.js): the first throw quarantines it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentMessage, AssembleParams, AssembleResult, CommitTurnParams } from '../../../src/contract';
import type { Recording } from '../../../src/contract/recording';
import { laneConfigFromSpec, replaySession, type ReplayLaneConfig } from '../../../src/replay';
import { recordingEngine, SessionBuilder } from './sessionBuilder';

const DURABLE = {
  currentTurnFence: 'before-current-turn-entry-v1',
  turnAdvancementIdempotency: 'atomic-idempotent-v1',
} as const;
const lane = (engineId: string, factory: () => unknown): ReplayLaneConfig => ({
  engine: { kind: 'in-process', engineId, factory: factory as never },
  contextWindow: 64000,
});
// turn i has the prompt PROMPTS[i]
const PROMPTS = ['a', 'b', 'c', 'd'];
const session = () => {
  const b = new SessionBuilder();
  for (const p of PROMPTS) b.turn(p);
  return b.loaded();
};
const replay = (factory: () => unknown, openclawVersion: string) =>
  replaySession({
    session: session(),
    lanes: [lane('durable', factory)],
    sessionKey: 'agent:main:main',
    openclawVersion,
  });
const isTurn = (prompt: unknown, i: number) => prompt === PROMPTS[i];
const committedPrompt = (p: CommitTurnParams) =>
  p.messages.find((m: AgentMessage) => m.role === 'user')?.content as string | undefined;

/** A durable engine that assembles nothing (so the pipeline fallback shows) and commits every turn. */
function durableEngine(overrides: Parameters<typeof recordingEngine>[1] = {}) {
  return recordingEngine(
    { id: 'durable', transcriptSemantics: DURABLE },
    {
      async assemble(): Promise<AssembleResult> {
        return { messages: [], estimatedTokens: 0 };
      },
      async commitTurn() {
        return { status: 'committed' as const };
      },
      ...overrides,
    },
  );
}
const throwingAssemble = async (params: AssembleParams): Promise<AssembleResult> => {
  if (isTurn(params.prompt, 2)) throw new Error('index unavailable');
  return { messages: [], estimatedTokens: 0 };
};

const events = (rec: Recording, turn: number) => rec.turns.durable![turn]!.events;
const warnings = (rec: Recording, turn: number) =>
  events(rec, turn).flatMap((e) => (e.type === 'warning' ? [e.message] : []));
const quarantines = (rec: Recording) =>
  rec.turns.durable!.flatMap((t) => t.events).filter((e) => e.type === 'quarantine');
const findingTurns = (rec: Recording, code: string) => rec.findings.filter((f) => f.code === code).map((f) => f.turn);

describe('assemble() that throws on turn 2', () => {
  it('2026.9.6: logged, the pipeline messages are sent, no quarantine, a finding at turn 2, turn 3 on the engine', async () => {
    const engine = durableEngine({ assemble: throwingAssemble });
    const rec = await replay(engine.factory, '2026.9.6');
    const turns = rec.turns.durable!;
    expect(turns.map((t) => t.turnPath?.engine)).toEqual(Array(4).fill('configured'));
    expect(turns.map((t) => t.assemblySucceeded)).toEqual([true, true, false, true]);
    // the engine assembles nothing; the failed turn sent what the history pipeline gave it
    expect(turns[2]!.assembled).toHaveLength(turns[2]!.inputCount);
    expect(turns[2]!.inputCount).toBeGreaterThan(0);
    expect(turns[3]!.assembled).toEqual([]);
    expect(warnings(rec, 2)).toContain(
      'context engine assemble failed, using pipeline messages: Error: index unavailable',
    );
    expect(quarantines(rec)).toEqual([]);
    expect(findingTurns(rec, 'quarantined')).toEqual([]);
    expect(findingTurns(rec, 'assemble-failed')).toEqual([2]);
    expect(engine.callsOf('assemble').map((c) => (c.params as AssembleParams).prompt)).toEqual(PROMPTS);
    expect(turns[3]!.engine).toMatchObject({ engineId: 'durable', quarantined: false });
    // the turn still committed: OpenClaw's commit does not depend on the assembly
    expect(turns.map((t) => t.turnPath?.commit)).toEqual(Array(4).fill('committed'));
  });

  it('2026.7.35: quarantined at turn 2 with operation assemble, legacy from then on', async () => {
    const engine = durableEngine({ assemble: throwingAssemble });
    const rec = await replay(engine.factory, '2026.7.35');
    expect(events(rec, 2).filter((e) => e.type === 'quarantine')).toEqual([
      expect.objectContaining({ engineId: 'durable', operation: 'assemble', reason: 'index unavailable' }),
    ]);
    expect(findingTurns(rec, 'quarantined')).toEqual([2]);
    expect(engine.callsOf('assemble').map((c) => (c.params as AssembleParams).prompt)).toEqual(['a', 'b', 'c']);
    expect(rec.turns.durable![3]!.engine).toMatchObject({ engineId: 'legacy', quarantined: true });
  });
});

describe('afterTurn() that throws on turn 2', () => {
  const afterTurn = async (params: { messages: AgentMessage[] }) => {
    if (params.messages.some((m) => m.role === 'user' && m.content === PROMPTS[2])) throw new Error('disk full');
  };

  it('2026.9.6: not called at all, the logical turn commits with commitTurn instead (no quarantine)', async () => {
    const engine = durableEngine({ afterTurn });
    const rec = await replay(engine.factory, '2026.9.6');
    expect(engine.callsOf('afterTurn')).toEqual([]);
    expect(engine.callsOf('commitTurn').map((c) => committedPrompt(c.params as CommitTurnParams))).toEqual(PROMPTS);
    expect(quarantines(rec)).toEqual([]);
  });

  it('2026.7.35: quarantined at turn 2 with operation afterTurn, legacy from then on', async () => {
    const engine = durableEngine({ afterTurn });
    const rec = await replay(engine.factory, '2026.7.35');
    expect(events(rec, 2).filter((e) => e.type === 'quarantine')).toEqual([
      expect.objectContaining({ operation: 'afterTurn', reason: 'disk full' }),
    ]);
    expect(engine.callsOf('afterTurn')).toHaveLength(3);
    expect(rec.turns.durable![3]!.engine).toMatchObject({ engineId: 'legacy', quarantined: true });
  });
});

describe('maintain() that throws on turn 2 (2026.9.6)', () => {
  it('logged as OpenClaw logs it, an engine-call-failed finding at turn 2, maintain asked again at turn 3', async () => {
    let turn = -1;
    const engine = durableEngine({
      async commitTurn() {
        turn++;
        return { status: 'committed' as const };
      },
      async maintain(params: { reason?: string }) {
        if (params.reason === 'turn' && turn === 2) throw new Error('vacuum failed');
        return { changed: false, bytesFreed: 0, rewrittenEntries: 0 };
      },
    });
    const rec = await replay(engine.factory, '2026.9.6');
    expect(warnings(rec, 2)).toContain('context engine maintain failed (turn): Error: vacuum failed');
    expect(quarantines(rec)).toEqual([]);
    const failed = rec.findings.filter((f) => f.code === 'engine-call-failed');
    expect(failed.map((f) => [f.turn, f.severity])).toEqual([[2, 'error']]);
    expect(failed[0]!.message).toMatch(/^engine "durable" threw in this turn \(maintain\(\): Error: vacuum failed\)/);
    // maintain("turn") after each commit (turns 1-3 also maintain("bootstrap") first: their transcript existed)
    const reasons = engine.callsOf('maintain').map((c) => (c.params as { reason: string }).reason);
    expect(reasons.filter((r) => r === 'turn')).toHaveLength(4);
    expect(rec.turns.durable![3]!.turnPath?.engine).toBe('configured');
  });
});

describe('commitTurn() that throws on turn 2 (2026.9.6)', () => {
  it('stays queued and is retried before turn 3; turn 3 runs on the engine once it went through', async () => {
    const attempts: string[] = [];
    const engine = durableEngine({
      async commitTurn(params: CommitTurnParams) {
        const prompt = committedPrompt(params)!;
        attempts.push(prompt);
        if (prompt === PROMPTS[2] && attempts.filter((p) => p === prompt).length === 1) throw new Error('locked');
        return { status: 'committed' as const };
      },
    });
    const rec = await replay(engine.factory, '2026.9.6');
    const turns = rec.turns.durable!;
    expect(attempts).toEqual(['a', 'b', 'c', 'c', 'd']);
    expect(warnings(rec, 2)).toContainEqual(
      expect.stringMatching(/^\[context-engine\] durable turn advancement remains queued: .+: locked$/),
    );
    expect(turns.map((t) => t.turnPath?.commit)).toEqual(['committed', 'committed', 'failed', 'committed']);
    expect(turns[3]!.turnPath?.engine).toBe('configured');
    expect(findingTurns(rec, 'turn-commit-skipped')).toEqual([2]);
    expect(quarantines(rec)).toEqual([]);
  });

  it('when the retry fails too, turn 3 runs on legacy for that reason and the engine is not quarantined', async () => {
    const engine = durableEngine({
      async commitTurn(params: CommitTurnParams) {
        if (committedPrompt(params) === PROMPTS[2]) throw new Error('locked');
        return { status: 'committed' as const };
      },
    });
    const rec = await replay(engine.factory, '2026.9.6');
    const turn3 = rec.turns.durable![3]!;
    expect(turn3.turnPath).toMatchObject({
      engine: 'legacy-fallback',
      degradedReason: 'pending durable turn advancement could not be completed before the next turn',
    });
    expect(warnings(rec, 3)[0]).toMatch(/durable turn advancement remains queued: .+: locked$/);
    expect(quarantines(rec)).toEqual([]);
    expect(engine.callsOf('assemble').map((c) => (c.params as AssembleParams).prompt)).toEqual(['a', 'b', 'c']);
  });
});

describe('prepareSubagentSpawn() that throws (2026.9.6)', () => {
  it('is quarantined, as the spawn resolves the slot engine behind the proxy; the next logical turn still runs on the engine', async () => {
    const engine = durableEngine({
      async prepareSubagentSpawn() {
        throw new Error('no room for a child');
      },
    });
    const loaded = new SessionBuilder()
      .turn('a')
      .spawnTurn('b', {}, { status: 'accepted', childSessionKey: 'agent:main:subagent:s1' }, 'call-s')
      .turn('c')
      .loaded();
    const rec = await replaySession({
      session: loaded,
      lanes: [lane('durable', engine.factory)],
      sessionKey: 'agent:main:main',
      openclawVersion: '2026.9.6',
    });
    expect(quarantines(rec)).toEqual([
      expect.objectContaining({ operation: 'prepareSubagentSpawn', reason: 'no room for a child' }),
    ]);
    expect(events(rec, 1).filter((e) => e.type === 'quarantine')).toHaveLength(1);
    // the logical turn does not read the quarantine (registry-*.mjs `resolveLogicalTurnContextEngines`)
    expect(rec.turns.durable![2]!.turnPath?.engine).toBe('configured');
    expect(engine.callsOf('assemble').map((c) => (c.params as AssembleParams).prompt)).toContain('c');
  });
});

describe('through the engine host (2026.9.6)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-turn-failures-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a plugin engine whose assemble throws on turn 2: pipeline messages, no quarantine, turn 3 on the engine', async () => {
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'durable-plugin', version: '1.0.0', main: 'index.js' }),
    );
    writeFileSync(
      join(dir, 'openclaw.plugin.json'),
      JSON.stringify({ id: 'durable-plugin', kind: 'context-engine', configSchema: { type: 'object' } }),
    );
    writeFileSync(
      join(dir, 'index.js'),
      `module.exports = { id: 'durable-plugin', register(api) {
        api.registerContextEngine('durable', () => ({
          info: { id: 'durable', name: 'Durable', transcriptSemantics: ${JSON.stringify(DURABLE)} },
          async ingest() { return { ingested: true }; },
          async assemble(p) {
            if (p.prompt === ${JSON.stringify(PROMPTS[2])}) throw new Error('index unavailable');
            return { messages: [], estimatedTokens: 0 };
          },
          async compact() { return { ok: true, compacted: false, reason: 'none' }; },
          async commitTurn() { return { status: 'committed' }; },
        }));
      } };\n`,
    );
    const rec = await replaySession({
      session: session(),
      lanes: [{ ...laneConfigFromSpec(`plugin:${dir}`, { contextWindow: 64000 }), id: 'durable' }],
      plugins: { allowExecute: true },
      sessionKey: 'agent:main:main',
      openclawVersion: '2026.9.6',
    });
    const turns = rec.turns.durable!;
    expect(turns.map((t) => t.turnPath?.engine)).toEqual(Array(4).fill('configured'));
    expect(turns.map((t) => t.assemblySucceeded)).toEqual([true, true, false, true]);
    expect(warnings(rec, 2)).toContainEqual(
      expect.stringMatching(/^context engine assemble failed, using pipeline messages: .*index unavailable/),
    );
    expect(quarantines(rec)).toEqual([]);
    expect(findingTurns(rec, 'assemble-failed')).toEqual([2]);
    expect(turns[3]!.assembled).toEqual([]);
  }, 60_000);
});
