/** Schema versions, mixed state dirs, bad rows and files: each gets a clear answer saying what and where. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  agentDatabasePath,
  discoverSessions,
  generateSession,
  loadSession,
  readSessionFile,
  SessionFileError,
  writeGeneratedSessions,
} from '../../../src/transcripts';
import { betterSqlite, tmp } from './sqliteHelpers';

async function sqliteDir(options = { turns: 4, seed: 2 }, schemaVersion: 19 | 23 = 23) {
  const dir = tmp();
  const set = generateSession(options);
  await writeGeneratedSessions(set, dir, { storage: 'sqlite', schemaVersion });
  return { dir, set, db: agentDatabasePath(dir, 'main') };
}

function change(db: string, sql: string): void {
  const Database = betterSqlite();
  const conn = new Database(db);
  try {
    conn.exec(sql);
  } finally {
    conn.close();
  }
}

describe('schema versions', () => {
  it('refuses an agent schema newer than 23, saying what it found and what it reads; discovery reports it on the agent and lists the others', async () => {
    const { dir, db } = await sqliteDir();
    change(db, 'PRAGMA user_version = 25');
    await writeGeneratedSessions(generateSession({ turns: 2, seed: 3, agentId: 'ops' }), dir);
    await expect(loadSession({ stateDir: dir, session: 'agent:main:main' })).rejects.toThrow(
      /uses agent schema version 25 \(written by OpenClaw contextscope.*\); ContextScope reads agent schemas 14-23 \(OpenClaw 2026\.8\.1 to 2026\.9\.6\)/,
    );
    const found = await discoverSessions({ stateDir: dir });
    expect(found.agents.find((a) => a.agentId === 'main')!.databaseError).toMatch(/schema version 25/);
    expect(found.sessions.map((s) => [s.agentId, s.storage])).toEqual([['ops', 'jsonl']]);
  });

  it('an agent database at schema 1 (no transcript tables) keeps its JSONL sessions', async () => {
    const dir = tmp();
    const set = generateSession({ turns: 3, seed: 4 });
    await writeGeneratedSessions(set, dir);
    const db = agentDatabasePath(dir, 'main');
    mkdirSync(join(dir, 'agents/main/agent'), { recursive: true });
    const Database = betterSqlite();
    const conn = new Database(db);
    conn.exec("CREATE TABLE schema_meta (meta_key TEXT PRIMARY KEY, role TEXT, schema_version INTEGER, agent_id TEXT, app_version TEXT, created_at INTEGER, updated_at INTEGER); INSERT INTO schema_meta VALUES ('primary', 'agent', 1, 'main', '2026.7.35', 0, 0); PRAGMA user_version = 1;"); // prettier-ignore
    conn.close();
    const found = await discoverSessions({ stateDir: dir });
    expect(found.agents[0]).toMatchObject({
      agentId: 'main',
      database: db,
      schemaVersion: 1,
      openclawVersion: '2026.7.35',
    });
    expect(found.agents[0]!.databaseError).toBeUndefined();
    expect(found.sessions.map((s) => s.storage)).toEqual(['jsonl']);
    const loaded = await loadSession({ stateDir: dir, session: 'agent:main:main' });
    expect(loaded.entries).toEqual(set.sessions[0]!.entries);
  });

  it('a state dir with one agent migrated and one not lists both, each tagged with its storage', async () => {
    const { dir } = await sqliteDir();
    await writeGeneratedSessions(generateSession({ turns: 2, seed: 5, agentId: 'ops', subagents: 1 }), dir);
    const found = await discoverSessions({ stateDir: dir });
    const rows = found.sessions.map((s) => [s.agentId, s.storage, s.parentSessionKey === null]).sort();
    expect(rows).toEqual([
      ['main', 'sqlite', true],
      ['ops', 'jsonl', false],
      ['ops', 'jsonl', true],
    ]);
  });

  it('reads the schema-19 layout of OpenClaw 2026.8.1 (no compressed rows) to the same entries', async () => {
    const { dir, set, db } = await sqliteDir({ turns: 5, seed: 6 }, 19);
    const Database = betterSqlite();
    const conn = new Database(db, { readonly: true });
    const columns = (
      conn.prepare("SELECT name FROM pragma_table_info('transcript_events')").all() as { name: string }[]
    ).map((c) => c.name);
    conn.close();
    expect(columns).toEqual(['session_id', 'seq', 'event_json', 'created_at']);
    const loaded = await loadSession({ stateDir: dir, session: 'agent:main:main' }, { mode: 'strict' });
    expect(loaded.entries).toEqual(set.sessions[0]!.entries);
    expect(loaded.storage).toMatchObject({ schemaVersion: 19 });
  });

  it('refuses a 2026.7.2-beta layout (transcripts without session windows) and says how to migrate it', async () => {
    const dir = tmp();
    const db = agentDatabasePath(dir, 'main');
    mkdirSync(join(dir, 'agents/main/agent'), { recursive: true });
    change(
      db,
      'CREATE TABLE transcript_events (session_id TEXT, seq INTEGER, event_json TEXT, created_at INTEGER); PRAGMA user_version = 9;',
    );
    const found = await discoverSessions({ stateDir: dir });
    expect(found.agents[0]!.databaseError).toBe(
      `${db} uses agent schema version 9, which keeps transcripts without session windows; ContextScope reads agent schemas 14-23. Migrate it with a current OpenClaw (openclaw doctor --fix).`,
    );
  });

  it('a file that is not a database is named; zero-byte lock files beside it are never read as databases', async () => {
    const { dir, db } = await sqliteDir();
    writeFileSync(`${db}.reindex-lock.sqlite`, '');
    mkdirSync(join(dir, 'tmp/openclaw-0'), { recursive: true });
    writeFileSync(join(dir, 'tmp/openclaw-0/gateway.state.lock.sqlite'), '');
    const ok = await discoverSessions({ stateDir: dir });
    expect(ok.sessions).toHaveLength(1);
    expect(ok.agents[0]!.databaseError).toBeUndefined();
    writeFileSync(db, 'this is not sqlite at all, just text that is long enough to be a page header'.repeat(100));
    const bad = await discoverSessions({ stateDir: dir });
    expect(bad.agents[0]!.databaseError).toMatch(
      new RegExp(`^${db.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not a readable SQLite database \\(`),
    );
  });

  it('readSessionFile on a database says what it is and what to use instead', async () => {
    const { db } = await sqliteDir();
    await expect(readSessionFile(db)).rejects.toThrow(
      /is an SQLite database .* loadSession\(\{ stateDir, session \}\)/,
    );
  });
});

describe('bad rows', () => {
  async function compressedRow() {
    const { dir, db, set } = await sqliteDir({ turns: 4, seed: 2 });
    const Database = betterSqlite();
    const conn = new Database(db, { readonly: true });
    const row = conn
      .prepare('SELECT seq FROM transcript_events WHERE session_id = ? AND event_zstd IS NOT NULL ORDER BY seq LIMIT 1')
      .get(set.sessions[0]!.sessionId) as { seq: number };
    conn.close();
    return { dir, db, set, seq: row.seq, id: set.sessions[0]!.sessionId };
  }

  it('a corrupt zstd frame fails strict loading with the database, session and seq; tolerant loading drops that row and lists it', async () => {
    const { dir, db, set, seq, id } = await compressedRow();
    change(
      db,
      `UPDATE transcript_events SET event_zstd = x'28b52ffd0400aabbccddeeff' WHERE session_id = '${id}' AND seq = ${seq}`,
    );
    const error = await loadSession({ stateDir: dir, session: 'agent:main:main' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionFileError);
    expect((error as SessionFileError).message).toMatch(
      new RegExp(
        `^Invalid SQLite session ${db.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}#${id}: seq ${seq}: corrupt zstd frame \\(.+\\) \\(the row cannot be read\\)$`,
      ),
    );
    const tolerant = await loadSession({ stateDir: dir, session: 'agent:main:main' }, { mode: 'tolerant' });
    expect(tolerant.problems[0]).toMatchObject({ line: seq, code: 'corrupt_row', severity: 'error', sessionId: id });
    expect(tolerant.entries.map((e) => e.id)).not.toContain(set.sessions[0]!.entries[seq - 1]!.id);
    expect(tolerant.entries).toHaveLength(set.sessions[0]!.entries.length - 1);
  });

  it('a frame whose size does not match event_utf8_bytes, and a blob that is not zstd, are named as such', async () => {
    const { dir, id, seq } = await compressedRow();
    const db = agentDatabasePath(dir, 'main');
    change(
      db,
      `UPDATE transcript_events SET event_utf8_bytes = event_utf8_bytes + 1 WHERE session_id = '${id}' AND seq = ${seq}`,
    );
    await expect(loadSession({ stateDir: dir, session: 'agent:main:main' })).rejects.toThrow(
      /: zstd frame decodes to (\d+) bytes, but the row records \d+ \(the row cannot be read\)$/,
    );
    change(
      db,
      `UPDATE transcript_events SET event_zstd = x'7b2274797065223a' WHERE session_id = '${id}' AND seq = ${seq}`,
    );
    await expect(loadSession({ stateDir: dir, session: 'agent:main:main' })).rejects.toThrow(
      `seq ${seq}: not a zstd frame (8 bytes starting 7b 22 74 79; expected 28 b5 2f fd) (the row cannot be read)`,
    );
  });

  it('a key with no transcript events (common in migrated state dirs) is listed as missing and loading it says so', async () => {
    const { dir, db } = await sqliteDir();
    change(
      db,
      "INSERT INTO session_nodes (session_key, current_session_id, entry_json, updated_at) VALUES ('agent:main:cron:nightly', 'none-yet', '{}', 5)",
    );
    const found = await discoverSessions({ stateDir: dir });
    expect(found.sessions.find((s) => s.sessionKey === 'agent:main:cron:nightly')).toMatchObject({
      exists: false,
      entries: 0,
    });
    await expect(loadSession({ stateDir: dir, session: 'agent:main:cron:nightly' })).rejects.toThrow(
      'session agent:main:cron:nightly has no transcript events',
    );
  });
});
