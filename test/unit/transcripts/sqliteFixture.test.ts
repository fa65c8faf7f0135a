/**
 * Against a database OpenClaw 2026.9.6 wrote itself (test/fixtures/sqlite/README.md says how): native sessions
 * (version-4 headers, an idle rollover into a second generation, compressed rows) and a generated JSONL set it
 * imported (`generate --turns 6 --seed 7 --subagents --context-window 16000 --session-key agent:main:generated`).
 */
import { copyFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  discoverSessions,
  generateSession,
  getActivePath,
  loadSession,
  readSessionFile,
  readTrajectoryEvents,
  writeGeneratedSessions,
  type SqliteSessionStorage,
} from '../../../src/transcripts';
import { betterSqlite, FIXTURE_DB, FIXTURE_STATE_DIR, tmp } from './sqliteHelpers';

const IMPORTED = { turns: 6, seed: 7, subagents: 3, contextWindow: 16000, sessionKey: 'agent:main:generated' };
const NATIVE_FIRST = '3fa8064c-8554-4956-8e7e-022f91de7568';
const NATIVE_SECOND = '98fc45d8-b9a2-4ee7-aed8-d4ca754126a4';

function fixtureCopy(): string {
  const dir = tmp();
  cpSync(FIXTURE_STATE_DIR, dir, { recursive: true });
  return dir;
}

/** Rows of the fixture (read from a copy: opening the file itself would create -wal/-shm beside it). */
function fixtureRows(sql: string): Record<string, unknown>[] {
  const copy = join(tmp(), 'fixture.sqlite');
  copyFileSync(FIXTURE_DB, copy);
  const Database = betterSqlite();
  const db = new Database(copy, { readonly: true });
  try {
    return db.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('a state dir written by OpenClaw 2026.9.6', () => {
  it('reads the imported sessions, zstd rows included, into exactly the entries of their JSONL files', async () => {
    const state = fixtureCopy();
    const set = generateSession(IMPORTED);
    const jsonlDir = tmp();
    await writeGeneratedSessions(set, jsonlDir);
    const ids = set.sessions.map((s) => `'${s.sessionId}'`).join(',');
    const compressed = fixtureRows(
      `SELECT count(*) AS n FROM transcript_events WHERE session_id IN (${ids}) AND event_zstd IS NOT NULL`,
    );
    expect(Number(compressed[0]!.n)).toBeGreaterThan(10);
    for (const session of set.sessions) {
      const fromDb = await loadSession({ stateDir: state, session: session.sessionKey }, { mode: 'strict' });
      const fromFile = await readSessionFile(join(jsonlDir, 'agents/main/sessions', session.fileName));
      expect(fromDb.entries).toEqual(fromFile.entries);
      expect(fromDb.header).toEqual(fromFile.header);
      expect(fromDb.leafId).toBe(fromFile.leafId);
      expect(fromDb.problems).toEqual([]);
      expect(fromDb.entryLines).toEqual(fromFile.entryLines.map((line) => line - 1)); // seq = line - 1
      expect(fromDb.storage).toMatchObject({
        kind: 'sqlite',
        agentId: 'main',
        sessionKey: session.sessionKey,
        schemaVersion: 23,
      });
    }
  });

  it('reads a native session: version-4 headers, and an idle rollover as one logical session with its two generations marked', async () => {
    const loaded = await loadSession({ stateDir: fixtureCopy(), session: 'agent:main:main' }, { mode: 'strict' });
    const storage = loaded.storage as SqliteSessionStorage;
    expect(loaded.sourceVersion).toBe(4);
    expect(loaded.header).toMatchObject({ type: 'session', version: 4, id: NATIVE_SECOND });
    expect(loaded.problems).toEqual([]);
    expect(storage.windows.map((w) => [w.sessionId, w.firstEntryIndex, w.entryCount, w.sourceVersion])).toEqual([
      [NATIVE_FIRST, 0, 12, 4],
      [NATIVE_SECOND, 12, 15, 4],
    ]);
    // each generation starts a new tree; the leaf (and so the context) is the current generation's
    expect(loaded.entries[0]!.parentId).toBeNull();
    expect(loaded.entries[12]!.parentId).toBeNull();
    const active = getActivePath(loaded);
    expect(active[0]).toBe(loaded.entries[12]);
    expect(active).toHaveLength(15);
    // an earlier generation's id loads the session as it was then
    const earlier = await loadSession({ stateDir: fixtureCopy(), session: NATIVE_FIRST });
    expect(earlier.entries).toEqual(loaded.entries.slice(0, 12));
    expect((earlier.storage as SqliteSessionStorage).windows).toHaveLength(1);
  });

  it("reads the native session's trajectory rows, both generations, one run per turn with its context.compiled", async () => {
    const loaded = await loadSession({ stateDir: fixtureCopy(), session: 'agent:main:main' });
    const events = await readTrajectoryEvents(loaded);
    expect(events.map((e) => e.sessionId).filter((id, i, all) => all.indexOf(id) === i)).toEqual([
      NATIVE_FIRST,
      NATIVE_SECOND,
    ]);
    const runs = new Set(events.map((e) => e.runId));
    expect(runs.size).toBe(7);
    expect(events.filter((e) => e.type === 'context.compiled')).toHaveLength(7);
    expect(events.slice(0, 7).map((e) => e.type)).toEqual([
      'session.started',
      'trace.metadata',
      'context.compiled',
      'prompt.submitted',
      'model.completed',
      'trace.artifacts',
      'session.ended',
    ]);
    expect(events[3]!.event).toMatchObject({
      traceSchema: 'openclaw-trajectory',
      data: { prompt: 'Hello there, first turn' },
    });
  });

  it('lists the four sessions with their counts and the subagent family', async () => {
    const found = await discoverSessions({ stateDir: fixtureCopy() });
    expect(found.agents).toMatchObject([
      { agentId: 'main', schemaVersion: 23, openclawVersion: '2026.9.6', sessionCount: 4 },
    ]);
    const byKey = new Map(found.sessions.map((s) => [s.sessionKey, s]));
    expect(byKey.get('agent:main:main')).toMatchObject({
      storage: 'sqlite',
      entries: 27,
      messages: 14,
      parentSessionKey: null,
    });
    expect(byKey.get('agent:main:main')!.sqlite!.windows.map((w) => w.sessionId)).toEqual([
      NATIVE_FIRST,
      NATIVE_SECOND,
    ]);
    const parent = byKey.get('agent:main:generated')!;
    expect(parent.spawns.map((s) => s.status)).toEqual(['accepted', 'accepted', 'error']);
    const set = generateSession(IMPORTED);
    expect(parent.childKeys.sort()).toEqual(
      set.sessions
        .slice(1)
        .map((s) => s.sessionKey)
        .sort(),
    );
    for (const child of set.sessions.slice(1)) {
      const s = byKey.get(child.sessionKey)!;
      expect(s).toMatchObject({
        parentSessionKey: 'agent:main:generated',
        isSubagent: true,
        parentSessionId: set.sessions[0]!.sessionId,
      });
      expect(s.entries).toBe(child.entries.length);
      expect(s.messages).toBe(child.entries.filter((e) => e.type === 'message').length);
    }
  });
});

describe('the SQLite writer, cross-checked against the real import', () => {
  it('writes the same rows OpenClaw 2026.9.6 wrote for the same set: nodes, windows, events (which are compressed, and their navigation_json), identities, active branch, index, full text', async () => {
    const set = generateSession(IMPORTED);
    const out = tmp();
    const written = await writeGeneratedSessions(set, out, { storage: 'sqlite' });
    expect(written.compressedEvents).toBe(14);
    const ids = `(${set.sessions.map((s) => `'${s.sessionId}'`).join(',')})`;
    const keys = `(${set.sessions.map((s) => `'${s.sessionKey}'`).join(',')})`;
    const queries = [
      `SELECT * FROM session_nodes WHERE session_key IN ${keys} ORDER BY session_key`,
      `SELECT * FROM session_windows WHERE session_id IN ${ids} ORDER BY session_id`,
      `SELECT session_id, seq, event_json, created_at, event_zstd IS NOT NULL AS compressed, event_utf8_bytes, navigation_json FROM transcript_events WHERE session_id IN ${ids} ORDER BY session_id, seq`,
      `SELECT * FROM transcript_event_identities WHERE session_id IN ${ids} ORDER BY session_id, seq`,
      `SELECT * FROM session_transcript_active_events WHERE session_id IN ${ids} ORDER BY session_id, active_position`,
      `SELECT session_id, indexed_seq, leaf_event_id, needs_rebuild, active_event_count, active_message_count FROM session_transcript_index_state WHERE session_id IN ${ids} ORDER BY session_id`,
      `SELECT text, session_id, message_id, role, timestamp FROM session_transcript_fts WHERE session_id IN ${ids} ORDER BY session_id, rowid`,
    ];
    const Database = betterSqlite();
    const ours = new Database(written.storePath, { readonly: true });
    try {
      for (const sql of queries) {
        const theirs = fixtureRows(sql);
        const mine = ours.prepare(sql).all() as Record<string, unknown>[];
        // the import stamps transcript_updated_at with the time it ran; everything else must be equal
        for (const row of [...theirs, ...mine]) delete row.transcript_updated_at;
        expect(mine, sql).toEqual(theirs);
        expect(mine.length, sql).toBeGreaterThan(2);
      }
    } finally {
      ours.close();
    }
  });
});
