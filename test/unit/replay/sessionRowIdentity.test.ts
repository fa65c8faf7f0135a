/**
 * A row of the Sessions list names one session: what the app sends back for it (the row's `file`, as
 * `replay.defaults` and `replay.start` take it) opens that session and no other — a SQLite session whose key also
 * names a JSONL session of the same agent, and a reset archive whose key names the live session, included.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReplayService, listSessions, openReplaySession } from '../../../src/replay';
import { replayDefaults } from '../../../src/replay/settings/replayDefaults';
import {
  agentDatabasePath,
  generateSession,
  serializeSessionEntries,
  writeAgentDatabase,
  writeGeneratedSessions,
} from '../../../src/transcripts';

const KEY = 'agent:main:main';

describe('a listed session is opened by its identity', () => {
  it('a JSONL and a SQLite session of agent main both keyed agent:main:main: each row defaults, counts and replays its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-twin-'));
    await writeGeneratedSessions(generateSession({ turns: 3, seed: 'twin-jsonl' }), dir);
    await writeGeneratedSessions(generateSession({ turns: 5, seed: 'twin-sqlite' }), dir, { storage: 'sqlite' });
    const { sessions } = await listSessions(dir);
    expect(sessions.map((s) => [s.storage, s.agentId, s.key, s.turns])).toEqual(
      expect.arrayContaining([
        ['jsonl', 'main', KEY, 3],
        ['sqlite', 'main', KEY, 5],
      ]),
    );
    expect(sessions).toHaveLength(2);
    const service = createReplayService();
    for (const row of sessions) {
      const { loaded } = await openReplaySession(row.file);
      expect([loaded.storage?.kind ?? 'jsonl', loaded.header.id]).toEqual([row.storage, row.sessionId]);
      const defaults = await replayDefaults({ sessionPath: row.file });
      expect(defaults.settings.contextWindow).toBeGreaterThan(0);
      const { replayId } = await service.start({ sessionPath: row.file, lanes: ['legacy'], window: 16_000 });
      const done = await service.wait(replayId);
      expect([done.status, done.recording?.session.sessionId, done.recording?.lanes[0]?.turnCount]).toEqual([
        'done',
        row.sessionId,
        row.turns,
      ]);
    }
  });

  it("a SQLite reset archive's row opens the archive, not the live session its key names", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-archive-'));
    const [live, gone] = [1, 2].map(
      (seed) => generateSession({ turns: 2, seed, baseTimestamp: `2026-03-0${seed}T09:00:00.000Z` }).sessions[0]!,
    );
    const at = Date.parse(live!.header.timestamp);
    writeAgentDatabase(agentDatabasePath(dir, 'main'), {
      agentId: 'main',
      createdAt: 0,
      sessions: [
        {
          sessionKey: KEY,
          entry: { sessionId: live!.header.id },
          windows: [{ header: live!.header, entries: live!.entries, createdAt: at, updatedAt: at }],
          updatedAt: at,
        },
      ],
      archives: [
        {
          sessionId: gone!.header.id,
          sessionKey: KEY,
          generation: 'g1',
          reason: 'reset',
          text: serializeSessionEntries(gone!.header, gone!.entries),
          encoding: 'identity',
          createdAt: 7,
        },
      ],
    });
    const { sessions } = await listSessions(dir);
    expect(sessions.map((s) => [s.archived, s.sessionId])).toEqual(
      expect.arrayContaining([
        [false, live!.header.id],
        [true, gone!.header.id],
      ]),
    );
    expect(new Set(sessions.map((s) => s.file)).size).toBe(sessions.length);
    for (const row of sessions) expect((await openReplaySession(row.file)).loaded.header.id).toBe(row.sessionId);
  });
});
