/**
 * L statements: sessions replayed as the 2026.3 – 2026.6 releases that wrote them (profiles checked against the
 * openclaw@2026.3.31, 4.25, 5.2 and 6.11 dists; src/replay/lane/versionProfiles.ts), on the shapes issue 31 found
 * in real state dirs: an 8k window with a local model, heartbeat-heavy histories, an Ollama session with messages
 * OpenClaw wrote itself, and plugin engines.
 */
import { describe, expect, it } from 'vitest';
import type { AgentMessage, AssembleParams, AssistantMessage, SessionEntry } from '../../src/contract';
import type { Recording } from '../../src/contract/recording';
import { replaySession, type ReplayLaneConfig } from '../../src/replay';
import { recordingEngine, SessionBuilder } from '../unit/replay/sessionBuilder';

/** several replays in one statement: room for a loaded machine */
const SEVERAL_REPLAYS = 90_000;
const legacy = (contextWindow: number): ReplayLaneConfig => ({ engine: { kind: 'legacy' }, contextWindow });
const inProcess = (id: string, factory: () => unknown, contextWindow = 64_000): ReplayLaneConfig => ({
  engine: { kind: 'in-process', engineId: id, factory: factory as never },
  contextWindow,
});

const compactions = (rec: Recording) =>
  rec.turns[rec.lanes[0]!.id]!.map((t) =>
    t.events
      .filter((e) => e.type === 'compaction' && e.compacted)
      .map((e) => (e.type === 'compaction' ? e.trigger : '')),
  );

describe('L1 reserve: an 8k window with the default reserve', () => {
  const b = new SessionBuilder();
  for (let i = 0; i < 4; i++) b.turn(`question ${i} ${'word '.repeat(300)}`, `answer ${i} ${'detail '.repeat(300)}`);
  const session = b.loaded();

  it(
    'L1.1 2026.3.31 (reserve 20000, uncapped) and 2026.4.25 (16384: only the floor is capped) compact after every turn',
    async () => {
      for (const [version, reserve] of [
        ['2026.3.31', 20_000],
        ['2026.4.25', 16_384],
      ] as const) {
        const rec = await replaySession({ session, lanes: [legacy(8192)], openclawVersion: version });
        expect(rec.lanes[0]!.reserveTokens, version).toBe(reserve);
        expect(compactions(rec), version).toEqual([['auto'], ['auto'], ['auto'], ['auto']]);
      }
    },
    SEVERAL_REPLAYS,
  );

  it('L1.2 2026.7.35 caps the reserve at window − min(8000, window/2) = 4096: no compaction', async () => {
    const rec = await replaySession({ session, lanes: [legacy(8192)], openclawVersion: '2026.7.35' });
    expect(rec.lanes[0]!.reserveTokens).toBe(4096);
    expect(compactions(rec)).toEqual([[], [], [], []]);
  });
});

describe('L2 heartbeat turns', () => {
  const HEARTBEAT =
    'Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. Do not infer or repeat old tasks from prior chats. If nothing needs attention, reply HEARTBEAT_OK.';
  const b = new SessionBuilder();
  b.turn('deploy the api', 'deployed');
  b.turn(HEARTBEAT, 'HEARTBEAT_OK');
  b.user(HEARTBEAT);
  b.assistant('', { toolCalls: [{ type: 'toolCall', id: 'hb1', name: 'read', arguments: { path: 'HEARTBEAT.md' } }] });
  b.toolResult('hb1', 'read', '- nothing due');
  b.assistant('HEARTBEAT_OK');
  b.turn('what changed?', 'nothing');
  const session = b.loaded();
  const lastContext = (rec: Recording) => rec.turns.legacy!.at(-1)!.assembled.length;

  it(
    'L2.1 2026.3.31 filters nothing; 2026.4.25 removes the bare pair only; 2026.7.35 also the heartbeat that read a file',
    async () => {
      const sizes: Record<string, number> = {};
      for (const version of ['2026.3.31', '2026.4.25', '2026.7.35']) {
        const rec = await replaySession({ session, lanes: [legacy(200_000)], openclawVersion: version });
        sizes[version] = lastContext(rec);
      }
      // before the last prompt: 2 (deploy) + 2 (bare heartbeat) + 4 (heartbeat that read HEARTBEAT.md)
      expect(sizes).toEqual({ '2026.3.31': 8, '2026.4.25': 6, '2026.7.35': 2 });
    },
    SEVERAL_REPLAYS,
  );
});

describe("L3 tool-call ids: the model each turn called, never OpenClaw's own messages", () => {
  const ID = 'ollama_call_de80f714-9737-4c1e-9d2a-1f0e5b7c3a21';
  /** An Ollama session whose turn 2 is answered by OpenClaw itself (a `/status` reply, provider `openclaw`). */
  const session = () => {
    const b = new SessionBuilder();
    b.user('list the files');
    b.assistant('', { toolCalls: [{ type: 'toolCall', id: ID, name: 'exec', arguments: { command: 'ls' } }] });
    b.toolResult(ID, 'exec', 'a.txt');
    b.assistant('one file: a.txt');
    b.assistant('(sent to telegram)'); // OpenClaw's delivery mirror
    b.turn('/status', '(OpenClaw status: llama3:8b via ollama)');
    b.turn('and now?', 'still one');
    for (const entry of b.entries as (SessionEntry & { message?: AssistantMessage })[]) {
      if (entry.message?.role !== 'assistant') continue;
      const ownReply = entry.message.content.some((c) => c.type === 'text' && c.text.startsWith('('));
      Object.assign(
        entry.message,
        ownReply
          ? { provider: 'openclaw', api: 'openai-responses', model: 'delivery-mirror' }
          : { provider: 'ollama', api: 'ollama', model: 'llama3:8b' },
      );
    }
    return b.loaded();
  };
  /** The ids turn 2 (answered by OpenClaw itself) handed the engine, and what the recording shows for them. */
  const idsSeen = async (version: string) => {
    const engine = recordingEngine({ id: 'seer' });
    const rec = await replaySession({
      session: session(),
      lanes: [inProcess('seer', engine.factory)],
      openclawVersion: version,
    });
    const messages = (engine.callsOf('assemble')[1]!.params as AssembleParams).messages;
    const call = messages.find(
      (m: AgentMessage) => m.role === 'assistant' && m.content.some((c) => c.type === 'toolCall'),
    );
    const result = messages.find((m: AgentMessage) => m.role === 'toolResult') as { toolCallId: string };
    const sent = (call!.content as { type: string; id?: string }[]).find((c) => c.type === 'toolCall')!.id;
    const key = rec.turns.seer![1]!.assembled.find((a) => rec.messages[a.key]?.message.role === 'toolResult')!.key;
    const shown = (rec.messages[key]!.message as unknown as { toolCallId: string }).toolCallId;
    return { sent, result: result.toolCallId, shown };
  };

  it(
    'L3.1 2026.4.25 and 2026.6.11 send the Ollama id unchanged (no policy / the native Ollama policy), whatever OpenClaw wrote',
    async () => {
      for (const version of ['2026.4.25', '2026.6.11'])
        expect(await idsSeen(version), version).toEqual({ sent: ID, result: ID, shown: ID });
    },
    SEVERAL_REPLAYS,
  );

  it("L3.2 2026.5.2 gives Ollama's own api the openai-completions policy: strict ids", async () => {
    const strict = 'ollamacallde80f71497374c1e9d2a1f0e5b7c3a'; // letters and digits, capped at 40
    expect(await idsSeen('2026.5.2')).toEqual({ sent: strict, result: strict, shown: strict });
  });
});

describe('L4 plugin engines on releases before the E2 contract', () => {
  const picky = () =>
    recordingEngine({
      id: 'picky',
      hostRequirements: { 'agent-run': { requiredCapabilities: ['assemble-before-prompt'] } },
    });

  it(
    'L4.1 host requirements are not checked before 2026.5.22 (the turn runs); 2026.6.11 fails closed',
    async () => {
      const session = new SessionBuilder().turn('hi').loaded();
      const lane = (version: string) =>
        replaySession({
          session,
          lanes: [{ ...inProcess('picky', picky().factory, 32_000), host: 'cli:claude' }],
          openclawVersion: version,
        });
      expect((await lane('2026.5.2')).turns.picky![0]!.status).toBe('ok');
      expect((await lane('2026.6.11')).turns.picky![0]!.status).toBe('host_unsupported');
    },
    SEVERAL_REPLAYS,
  );

  it(
    'L4.2 an afterTurn that throws is only logged before 2026.5.28 (no quarantine); 2026.6.11 quarantines the engine',
    async () => {
      const b = new SessionBuilder();
      for (const p of ['a', 'b', 'c']) b.turn(p);
      const failing = () =>
        recordingEngine(
          { id: 'flaky' },
          {
            async afterTurn() {
              throw new Error('store offline');
            },
          },
        );
      const older = failing();
      const old = await replaySession({
        session: b.loaded(),
        lanes: [inProcess('flaky', older.factory)],
        openclawVersion: '2026.5.2',
      });
      expect(old.turns.flaky!.flatMap((t) => t.events).filter((e) => e.type === 'quarantine')).toEqual([]);
      expect(older.callsOf('afterTurn').length).toBe(3);
      expect(old.turns.flaky![0]!.events).toContainEqual(
        expect.objectContaining({ type: 'warning', message: expect.stringMatching(/afterTurn failed/) }),
      );
      const newer = failing();
      const rec = await replaySession({
        session: b.loaded(),
        lanes: [inProcess('flaky', newer.factory)],
        openclawVersion: '2026.6.11',
      });
      expect(rec.turns.flaky!.flatMap((t) => t.events).filter((e) => e.type === 'quarantine').length).toBe(1);
      expect(newer.callsOf('afterTurn').length).toBe(1);
    },
    SEVERAL_REPLAYS,
  );

  it(
    'L4.3 assemble gets the whole window before 2026.7.1, window − reserve − the rendered prompt from 2026.7.1',
    async () => {
      const session = new SessionBuilder().turn('hi').loaded();
      const budgetOn = async (version: string) => {
        const engine = recordingEngine({ id: 'seer' });
        await replaySession({ session, lanes: [inProcess('seer', engine.factory, 64_000)], openclawVersion: version });
        return (engine.callsOf('assemble')[0]!.params as AssembleParams).tokenBudget;
      };
      expect(await budgetOn('2026.6.11')).toBe(64_000);
      expect(await budgetOn('2026.7.35')).toBeLessThan(64_000 - 20_000);
    },
    SEVERAL_REPLAYS,
  );

  it('L4.4 2026.3.1 and 3.2 have no context-engine slot: a plugin lane says its engine could not have run', async () => {
    const session = new SessionBuilder().turn('hi').loaded();
    const rec = await replaySession({
      session,
      lanes: [inProcess('seer', recordingEngine({ id: 'seer' }).factory), legacy(64_000)],
      openclawVersion: '2026.3.2',
    });
    expect(rec.lanes.find((l) => l.id === 'seer')?.error).toMatch(/OpenClaw 2026\.3\.2 has no context-engine slot/);
    expect(rec.lanes.find((l) => l.id === 'legacy')?.error).toBeUndefined();
    expect(rec.options.openclawProfile?.changes).toContain(
      'no context-engine slot: only the built-in (legacy) pipeline runs',
    );
  });
});
