/**
 * Which release a replay behaves as, from every place a state dir records it, most specific first: the session
 * trajectory's `trace.metadata` per run (`data.harness.version`; JSONL `<sessionId>.trajectory.jsonl`, SQLite
 * trajectory rows), the agent database's `schema_meta.app_version`, `openclaw.json` `meta.lastTouchedVersion`,
 * then the storage era. Sessions are real files in temp state dirs, written with the project's writers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AssembleParams, AssistantMessage, SessionEntry } from '../../../src/contract';
import { chooseReplayVersion, formatReplaySettingsLine, replaySession } from '../../../src/replay';
import { agentDatabasePath, loadSession, writeAgentDatabase, type LoadedSession } from '../../../src/transcripts';
import { recordingEngine, SessionBuilder, tempDir } from './sessionBuilder';

const ID = 'ollama_call_de80f714-9737-4c1e-9d2a-1f0e5b7c3a21';
const STRICT = 'ollamacallde80f71497374c1e9d2a1f0e5b7c3a';

/** Four turns of an Ollama session; the first one calls a tool. Returns the builder and each turn's user time. */
function ollamaSession(): { b: SessionBuilder; turnTimes: number[] } {
  const b = new SessionBuilder();
  const turnTimes: number[] = [];
  b.user('list the files');
  turnTimes.push(b.now());
  b.assistant('', { toolCalls: [{ type: 'toolCall', id: ID, name: 'exec', arguments: { command: 'ls' } }] });
  b.toolResult(ID, 'exec', 'a.txt');
  b.assistant('one file');
  for (const prompt of ['and now?', 'after the upgrade', 'still there?']) {
    b.user(prompt);
    turnTimes.push(b.now());
    b.assistant('yes');
  }
  for (const entry of b.entries as (SessionEntry & { message?: AssistantMessage })[])
    if (entry.message?.role === 'assistant')
      Object.assign(entry.message, { provider: 'ollama', api: 'ollama', model: 'llama3:8b' });
  return { b, turnTimes };
}

/** `trace.metadata` events as OpenClaw records them at the start of each run, plus a context event in between. */
function trajectoryEvents(sessionId: string, runs: { version: string; at: number }[]): Record<string, unknown>[] {
  return runs.flatMap((run, i) => {
    const base = {
      traceSchema: 'openclaw-trajectory',
      schemaVersion: 1,
      traceId: sessionId,
      source: 'runtime',
      ts: new Date(run.at).toISOString(),
      sessionId,
      runId: `run-${i}`,
      provider: 'ollama',
      modelId: 'llama3:8b',
      modelApi: 'ollama',
    };
    return [
      { ...base, type: 'session.started', seq: i * 3, sourceSeq: i * 3, data: { trigger: 'user' } },
      {
        ...base,
        type: 'trace.metadata',
        seq: i * 3 + 1,
        sourceSeq: i * 3 + 1,
        data: { harness: { type: 'openclaw', name: 'OpenClaw', version: run.version }, model: { provider: 'ollama' } },
      },
      { ...base, type: 'prompt.submitted', seq: i * 3 + 2, sourceSeq: i * 3 + 2, data: { prompt: 'x' } },
    ];
  });
}

/** A JSONL state dir: the transcript, optionally its trajectory beside it and an openclaw.json. */
async function jsonlStateDir(
  b: SessionBuilder,
  options: { runs?: { version: string; at: number }[]; lastTouchedVersion?: string } = {},
): Promise<LoadedSession> {
  const stateDir = tempDir('cs-infer-');
  const sessions = join(stateDir, 'agents', 'main', 'sessions');
  mkdirSync(sessions, { recursive: true });
  if (options.lastTouchedVersion)
    writeFileSync(
      join(stateDir, 'openclaw.json'),
      `{ meta: { lastTouchedVersion: '${options.lastTouchedVersion}' } }\n`,
    );
  if (options.runs) {
    const lines = trajectoryEvents(b.header.id, options.runs).map((e) => JSON.stringify(e));
    writeFileSync(join(sessions, `${b.header.id}.trajectory.jsonl`), `${lines.join('\n')}\n`);
  }
  return b.write(sessions);
}

describe('the session trajectory (trace.metadata per run)', () => {
  it('names the release of every run; it wins over openclaw.json, and says where it was read', async () => {
    const { b, turnTimes } = ollamaSession();
    const runs = turnTimes.map((t) => ({ version: '2026.4.25', at: t - 500 }));
    const session = await jsonlStateDir(b, { runs, lastTouchedVersion: '2026.7.35' });
    const choice = await chooseReplayVersion(session);
    expect(choice).toMatchObject({ version: '2026.4.25', how: 'inferred' });
    expect(choice.from).toMatch(/sess-1\.trajectory\.jsonl: trace\.metadata of 4 runs \(OpenClaw 2026\.4\.25\)$/);
    expect(choice.turnReleases).toBeUndefined();
  });

  it('a session that spans an upgrade is replayed as the latest release, each turn with its own run’s ids', async () => {
    const { b, turnTimes } = ollamaSession();
    const runs = turnTimes.map((t, i) => ({ version: i < 2 ? '2026.4.25' : '2026.5.2', at: t - 500 }));
    const session = await jsonlStateDir(b, { runs });
    const choice = await chooseReplayVersion(session);
    expect(choice.version).toBe('2026.5.2');
    expect(choice.turnReleases).toEqual([
      { firstTurn: 0, version: '2026.4.25' },
      { firstTurn: 2, version: '2026.5.2' },
    ]);
    expect(choice.from).toContain(
      'trace.metadata of 4 runs, spanning OpenClaw 2026.4.25..2026.5.2 (turns 1–2 ran 2026.4.25, turns 3–4 ran 2026.5.2)',
    );

    // 2026.4.25 sent Ollama's ids as they are; from 2026.4.26 its own api gets the strict rewrite
    const engine = recordingEngine({ id: 'seer' });
    const rec = await replaySession({
      session,
      lanes: [
        { engine: { kind: 'in-process', engineId: 'seer', factory: engine.factory as never }, contextWindow: 64_000 },
      ],
    });
    const idPerTurn = engine.callsOf('assemble').map((c) => {
      const messages = (c.params as AssembleParams).messages;
      return messages.find((m) => m.role === 'toolResult')?.toolCallId;
    });
    expect(idPerTurn).toEqual([undefined, ID, STRICT, STRICT]);
    expect(rec.options.openclawVersion).toBe('2026.5.2');
    expect(rec.options.openclawVersionChoice?.from).toContain('spanning OpenClaw 2026.4.25..2026.5.2');
    // the CLI's first line says the release and where it was found
    expect(formatReplaySettingsLine(rec)).toMatch(
      /^OpenClaw 2026\.5\.2 \(inferred from the session trajectory .*sess-1\.trajectory\.jsonl: trace\.metadata of 4 runs, spanning/,
    );
  }, 90_000);
});

describe('openclaw.json meta.lastTouchedVersion (no trajectory)', () => {
  it('a 2026.3 – 2026.6 release is used (it used to be dropped for the newest 2026.7)', async () => {
    const session = await jsonlStateDir(new SessionBuilder().turn('hi'), { lastTouchedVersion: '2026.5.2' });
    expect(await chooseReplayVersion(session)).toMatchObject({
      version: '2026.5.2',
      how: 'inferred',
      from: 'openclaw.json meta.lastTouchedVersion (session header version 3)',
    });
  });

  it('a release older than any profile is passed over for the storage era', async () => {
    const session = await jsonlStateDir(new SessionBuilder().turn('hi'), { lastTouchedVersion: '2026.2.19' });
    expect(await chooseReplayVersion(session)).toMatchObject({ version: '2026.7.35', how: 'inferred' });
  });
});

describe('SQLite sessions', () => {
  function sqliteStateDir(appVersion: string, runs?: { version: string; at: number }[]) {
    const dir = tempDir('cs-infer-sqlite-');
    const { b } = ollamaSession();
    writeAgentDatabase(agentDatabasePath(dir, 'main'), {
      agentId: 'main',
      appVersion,
      createdAt: 0,
      sessions: [
        {
          sessionKey: 'agent:main:main',
          entry: { sessionId: b.header.id },
          updatedAt: 1,
          windows: [
            {
              header: b.header,
              entries: b.entries,
              createdAt: 0,
              updatedAt: 1,
              trajectory: runs
                ? trajectoryEvents(b.header.id, runs).map((event) => ({
                    runId: event.runId as string,
                    event,
                    createdAt: Date.parse(event.ts as string),
                  }))
                : [],
            },
          ],
        },
      ],
    });
    return loadSession({ stateDir: dir, session: 'agent:main:main' }, { mode: 'strict' });
  }

  it("without trajectory rows: the agent database's schema_meta.app_version", async () => {
    const choice = await chooseReplayVersion(await sqliteStateDir('2026.8.3'));
    expect(choice).toMatchObject({
      version: '2026.8.3',
      how: 'inferred',
      from: "the agent database's schema_meta (OpenClaw 2026.8.3)",
    });
  });

  it('trajectory rows name the run’s release and win over app_version (the database may be newer than the session)', async () => {
    const at = Date.parse('2026-03-02T09:00:00.000Z');
    const choice = await chooseReplayVersion(await sqliteStateDir('2026.9.6', [{ version: '2026.8.3', at }]));
    expect(choice).toMatchObject({ version: '2026.8.3', how: 'inferred' });
    expect(choice.from).toBe("the agent database's trajectory rows: trace.metadata of 1 run (OpenClaw 2026.8.3)");
  });
});
