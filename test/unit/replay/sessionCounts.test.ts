import { appendFileSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBridgeDispatcher } from '../../../src/bridge';
import { createHandlers } from '../../../main/handlers';
import { countSessionFile, createSessionCountCache, defaultDemoSessionsDir, listSessions } from '../../../src/replay';
import { tempDir } from './sessionBuilder';

const SESSIONS = join(defaultDemoSessionsDir()!, 'agents', 'main', 'sessions');
const SHORT = 'db2d2b3b-bb1a-4ede-9e05-ab6faed17fab';

describe('session counts', () => {
  it('counts entries (all branches) and the turns and messages of the active branch', async () => {
    // the short demo has an abandoned branch: 13 user messages in the file, 12 on the active branch; its messages are
    // src/view's sessionCounts (104 message entries, a custom message and a branch summary on the active branch)
    expect(await countSessionFile(join(SESSIONS, `${SHORT}.jsonl`))).toEqual({
      entries: 127,
      turns: 12,
      messages: 106,
    });
    expect(await countSessionFile(join(SESSIONS, '99b88506-a0d8-443e-bd84-2df2f90f0a3a.jsonl'))).toEqual({
      entries: 161,
      turns: 16,
      messages: 143,
    });
  });

  it('sessions.list returns the counts; listing again reads nothing, a changed file is read again', async () => {
    const stateDir = tempDir();
    const dir = join(stateDir, 'agents', 'main', 'sessions');
    mkdirSync(dir, { recursive: true });
    for (const name of [`${SHORT}.jsonl`, '7dedf8b0-a05d-4ed3-9acb-4c5e8df85542.jsonl'])
      copyFileSync(join(SESSIONS, name), join(dir, name));
    const counts = createSessionCountCache();

    const first = await listSessions(stateDir, { counts });
    const byId = (list: typeof first) =>
      Object.fromEntries(list.sessions.map((s) => [s.sessionId, [s.entries, s.turns, s.messages]]));
    expect(byId(first)).toEqual({ [SHORT]: [127, 12, 106], '7dedf8b0-a05d-4ed3-9acb-4c5e8df85542': [39, 6, 34] });
    expect(counts.reads).toBe(2);

    await listSessions(stateDir, { counts });
    expect(counts.reads).toBe(2);

    const line = JSON.stringify({
      type: 'custom',
      customType: 'note',
      id: 'zz-extra',
      parentId: null,
      timestamp: '2026-03-02T12:00:00.000Z',
      data: {},
    });
    appendFileSync(join(dir, `${SHORT}.jsonl`), `${line}\n`);
    const third = await listSessions(stateDir, { counts });
    expect(counts.reads).toBe(3);
    expect(byId(third)[SHORT]?.[0]).toBe(128);
  });

  it('a transcript that cannot be read is listed without counts, saying why', async () => {
    const counts = createSessionCountCache({
      count: async (file) => {
        throw new Error(`cannot read ${file}`);
      },
    });
    const why = { problem: 'Could not read the transcript: cannot read /nowhere.jsonl' };
    expect(await counts.get('/nowhere.jsonl', 1, 1)).toEqual(why);
    // failures are not cached
    expect(await counts.get('/nowhere.jsonl', 1, 1)).toEqual(why);
    expect(counts.reads).toBe(2);
  });

  it('the bridge serves the counts within the response schema, and replay.start passes keepRecentTokens to every lane', async () => {
    const d = createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node' }), {
      validateResponses: true,
    });
    const listed = await d.call('sessions.list', {});
    expect(listed.ok).toBe(true);
    const short = (
      listed as { result: { sessions: { sessionId: string; turns?: number; entries?: number; messages?: number }[] } }
    ).result.sessions.find((s) => s.sessionId === SHORT);
    expect(short).toMatchObject({ entries: 127, turns: 12, messages: 106 });

    const started = await d.call('replay.start', {
      sessionPath: join(SESSIONS, `${SHORT}.jsonl`),
      lanes: ['legacy'],
      window: 32000,
      keepRecentTokens: 6000,
    });
    const { replayId } = (started as { result: { replayId: string } }).result;
    let snapshot: {
      status: string;
      recording?: { lanes: { keepRecentTokens: number }[]; findings: { code: string }[] };
    };
    for (;;) {
      const got = await d.call('replay.get', { replayId });
      snapshot = (got as { result: typeof snapshot }).result;
      if (snapshot.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(snapshot.status).toBe('done');
    expect(snapshot.recording!.lanes.map((l) => l.keepRecentTokens)).toEqual([6000]);
    expect(snapshot.recording!.findings.filter((f) => f.code === 'keep-recent-exceeds-budget')).toEqual([]);
  });
});
