import { cpSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProgram, type CliHost } from '../../../src/cli';
import {
  agentDatabasePath,
  discoverSessions,
  generateSession,
  loadSession,
  readDatabaseSnapshot,
  writeGeneratedSessions,
} from '../../../src/transcripts';
import { FIXTURE_STATE_DIR, startWriter, tmp, treeFingerprint, type WriterProcess } from './sqliteHelpers';

let writer: WriterProcess | undefined;
afterEach(async () => {
  await writer?.kill('SIGKILL');
  writer = undefined;
});

async function generatedSqliteDir() {
  const dir = tmp();
  const set = generateSession({ turns: 3, seed: 1 });
  await writeGeneratedSessions(set, dir, { storage: 'sqlite' });
  const parent = set.sessions[0]!;
  return { dir, set, db: agentDatabasePath(dir, 'main'), key: parent.sessionKey, leaf: parent.entries.at(-1)!.id };
}

const ticks = (entries: { id: string }[]) => entries.filter((e) => e.id.startsWith('tick')).map((e) => e.id);

describe('reading a database another process is writing', () => {
  it('every read while a WAL writer appends (and checkpoints) is a consistent prefix, and sees what was committed', async () => {
    const { dir, db, key, leaf, set } = await generatedSqliteDir();
    const base = set.sessions[0]!.entries.length;
    writer = startWriter(db, set.sessions[0]!.sessionId, leaf, { count: 150, delayMs: 5, checkpoint: 'often' });
    let previous = 0;
    for (let i = 0; i < 20; i++) {
      const committedBefore = writer.last();
      const loaded = await loadSession({ stateDir: dir, session: key }, { mode: 'strict' });
      const seen = ticks(loaded.entries);
      // a consistent prefix: ticks 1..n in order, chained, nothing torn or missing in between
      expect(seen).toEqual(Array.from({ length: seen.length }, (_, j) => `tick${String(j + 1).padStart(4, '0')}`));
      expect(loaded.entries.length).toBe(base + seen.length);
      expect(loaded.problems).toEqual([]);
      expect(seen.length).toBeGreaterThanOrEqual(Math.max(previous, committedBefore));
      previous = seen.length;
      await writer.committed(Math.min(150, committedBefore + 4));
    }
    expect(previous).toBeGreaterThan(10);
  });

  it('sees commits that are only in a non-empty -wal, and leaves -wal and -shm byte for byte as they were', async () => {
    const { dir, db, key, leaf, set } = await generatedSqliteDir();
    writer = startWriter(db, set.sessions[0]!.sessionId, leaf, { count: 5, delayMs: 1, checkpoint: 'never' });
    await writer.committed(5);
    expect(statSync(`${db}-wal`).size).toBeGreaterThan(5 * 3000);
    const before = treeFingerprint(dir);
    const loaded = await loadSession({ stateDir: dir, session: key });
    expect(ticks(loaded.entries)).toEqual(['tick0001', 'tick0002', 'tick0003', 'tick0004', 'tick0005']);
    expect(treeFingerprint(dir)).toEqual(before);
    // the writer "crashes": -wal and -shm stay behind with the only copy of the commits
    await writer.kill('SIGKILL');
    const crashed = treeFingerprint(dir);
    expect(Object.keys(crashed)).toEqual(expect.arrayContaining(['agents/main/agent/openclaw-agent.sqlite-wal']));
    const again = await loadSession({ stateDir: dir, session: key });
    expect(ticks(again.entries)).toHaveLength(5);
    expect(treeFingerprint(dir)).toEqual(crashed);
  });
});

function quietHost(): CliHost {
  return {
    startServe: async () => {
      throw new Error('not used');
    },
    waitForStop: async () => {},
    out: () => {},
    err: () => {},
  };
}

describe('reads never change a state dir', () => {
  it('discovery, every load and the sessions/session commands leave the real 2026.9.6 state dir byte for byte unchanged', async () => {
    const dir = tmp();
    cpSync(FIXTURE_STATE_DIR, dir, { recursive: true });
    const before = treeFingerprint(dir);
    const found = await discoverSessions({ stateDir: dir });
    expect(found.sessions.length).toBe(4);
    for (const s of found.sessions) await loadSession(s.ref, { mode: 'tolerant' });
    await loadSession({ stateDir: dir, session: '3fa8064c-8554-4956-8e7e-022f91de7568' });
    const program = createProgram(quietHost()).exitOverride();
    await program.parseAsync(['node', 'cs', 'sessions', '--state-dir', dir, '--json']);
    await program.parseAsync(['node', 'cs', 'session', '--state-dir', dir, '--session', 'agent:main:main', '--json']);
    expect(treeFingerprint(dir)).toEqual(before);
    expect(existsSync(join(dir, 'agents/main/agent/openclaw-agent.sqlite-shm'))).toBe(false);
  });

  it('a private copy and an immutable open give the same answer (where the runtime can open immutable)', async () => {
    const { db } = await generatedSqliteDir();
    const count = (strategy: 'private-copy' | 'immutable') =>
      readDatabaseSnapshot(db, (conn) => Number(conn.prepare('SELECT count(*) AS n FROM transcript_events').get()!.n), {
        strategy,
      });
    const copy = await count('private-copy');
    expect(copy).toMatchObject({ strategy: 'private-copy', copies: 1 });
    expect(copy.value).toBeGreaterThan(20);
    const immutable = await count('immutable').catch((error: Error) => error);
    if (immutable instanceof Error) expect(immutable.message).toMatch(/cannot open .* immutable; use a private copy/);
    else expect(immutable).toMatchObject({ strategy: 'immutable', copies: 0, value: copy.value });
  });
});
