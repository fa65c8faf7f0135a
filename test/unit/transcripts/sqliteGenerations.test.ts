/** Generations of one logical session (rollover, fork copies), cold archives and reset/deleted archives. */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../../src/contract';
import {
  agentDatabasePath,
  compressZstd,
  decompressZstd,
  discoverSessions,
  generateSession,
  loadSession,
  serializeSessionEntries,
  SessionFileError,
  writeAgentDatabase,
  type SqliteSessionSpec,
  type SqliteSessionStorage,
  type SqliteWindowSpec,
} from '../../../src/transcripts';
import { tmp } from './sqliteHelpers';

const KEY = 'agent:main:main';

function window(seed: number, patch: Partial<SqliteWindowSpec> = {}): SqliteWindowSpec {
  const parent = generateSession({ turns: 2, seed, baseTimestamp: `2026-03-0${seed}T09:00:00.000Z` }).sessions[0]!;
  const at = Date.parse(parent.header.timestamp);
  return { header: parent.header, entries: parent.entries, createdAt: at, updatedAt: at, ...patch };
}

function write(
  dir: string,
  sessions: SqliteSessionSpec[],
  archives: Parameters<typeof writeAgentDatabase>[1]['archives'] = [],
) {
  writeAgentDatabase(agentDatabasePath(dir, 'main'), { agentId: 'main', sessions, archives, createdAt: 0 });
}

const node = (windows: SqliteWindowSpec[]): SqliteSessionSpec => ({
  sessionKey: KEY,
  entry: { sessionId: windows.at(-1)!.header.id },
  windows,
  updatedAt: windows.at(-1)!.updatedAt,
});

describe('generations of one logical session', () => {
  it('joins a rollover chain in order (previous_session_id respected over creation time) with each boundary marked', async () => {
    const dir = tmp();
    const first = window(1);
    // created "earlier" than the first, but it names the first as its previous generation
    const second = window(2, {
      previousSessionId: first.header.id,
      reason: 'rollover',
      createdAt: first.createdAt - 1,
    });
    write(dir, [node([first, second])]);
    const loaded = await loadSession({ stateDir: dir, session: KEY }, { mode: 'strict' });
    const windows = (loaded.storage as SqliteSessionStorage).windows;
    expect(windows.map((w) => [w.sessionId, w.reason, w.firstEntryIndex, w.entryCount])).toEqual([
      [first.header.id, null, 0, first.entries.length],
      [second.header.id, 'rollover', first.entries.length, second.entries.length],
    ]);
    expect(loaded.entries).toEqual([...first.entries, ...second.entries]);
    expect(loaded.header.id).toBe(second.header.id);
    expect(loaded.leafId).toBe(second.entries.at(-1)!.id);
  });

  it('keeps entries a fork generation copied verbatim once, and reports an id reused with other content', async () => {
    const dir = tmp();
    const first = window(1);
    const copied = first.entries.slice(0, 4);
    const own = window(2).entries.map((e, i) => (i === 0 ? { ...e, parentId: copied[3]!.id } : e)) as SessionEntry[];
    const fork = window(2, { reason: 'fork', entries: [...copied, ...own], createdAt: first.createdAt + 1 });
    write(dir, [node([first, fork])]);
    const loaded = await loadSession({ stateDir: dir, session: KEY }, { mode: 'strict' });
    expect((loaded.storage as SqliteSessionStorage).windows[1]).toMatchObject({
      sharedEntries: 4,
      entryCount: own.length,
    });
    expect(loaded.entries).toEqual([...first.entries, ...own]);

    const clash = window(2, {
      entries: [{ ...copied[0]!, timestamp: '2026-04-01T00:00:00.000Z' }, ...copied.slice(1), ...own],
    });
    const dir2 = tmp();
    write(dir2, [node([first, { ...clash, createdAt: first.createdAt + 1 }])]);
    const error = await loadSession({ stateDir: dir2, session: KEY }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionFileError);
    expect((error as Error).message).toContain(
      `seq 1: reuses entry id "${copied[0]!.id}" of an earlier generation with other content`,
    );
    const tolerant = await loadSession({ stateDir: dir2, session: KEY }, { mode: 'tolerant' });
    expect(tolerant.problems.map((p) => [p.code, p.sessionId])).toEqual([['duplicate_id', clash.header.id]]);
  });

  it('links a fork to the session and entry it was forked from, and the source to its forks', async () => {
    const dir = tmp();
    const source = window(1);
    const forkPoint = source.entries[3]!.id;
    write(dir, [
      node([source]),
      {
        ...node([window(2)]),
        sessionKey: 'agent:main:fork-1',
        forkSource: { sessionKey: KEY, sessionId: source.header.id, entryId: forkPoint },
      },
    ]);
    const found = await discoverSessions({ stateDir: dir });
    const byKey = new Map(found.sessions.map((s) => [s.sessionKey, s]));
    expect(byKey.get('agent:main:fork-1')!.sqlite!.forkSource).toEqual({
      sessionKey: KEY,
      sessionId: source.header.id,
      entryId: forkPoint,
    });
    expect(byKey.get(KEY)!.sqlite!.forks).toEqual(['agent:main:fork-1']);
  });

  it('reads a cold-archived generation from sessions/cold/<sha256>.jsonl.zst, and refuses an archive that fails verification', async () => {
    const dir = tmp();
    const cold = window(1, { cold: true });
    const current = window(2, { createdAt: cold.createdAt + 1 });
    write(dir, [node([cold, current])]);
    const coldDir = join(dir, 'agents/main/sessions/cold');
    const [name] = readdirSync(coldDir);
    expect(name).toMatch(/^[0-9a-f]{64}\.jsonl\.zst$/);
    const loaded = await loadSession({ stateDir: dir, session: KEY }, { mode: 'strict' });
    expect(loaded.entries).toEqual([...cold.entries, ...current.entries]);
    expect((loaded.storage as SqliteSessionStorage).windows.map((w) => w.storage)).toEqual(['cold', 'rows']);
    const found = await discoverSessions({ stateDir: dir });
    expect(found.sessions[0]!.sqlite!.windows.map((w) => w.storage)).toEqual(['cold', 'rows']);
    // the same size with one byte changed fails on its sha256 alone
    const archived = readFileSync(join(coldDir, name!));
    const tampered = Buffer.from(archived);
    tampered[tampered.length - 1] ^= 0xff;
    writeFileSync(join(coldDir, name!), tampered);
    await expect(loadSession({ stateDir: dir, session: KEY })).rejects.toThrow(
      new RegExp(
        `cold transcript archive ${name} \\(session ${cold.header.id}\\) failed verification \\(${archived.length} bytes`,
      ),
    );
    writeFileSync(join(coldDir, name!), compressZstd(Buffer.from('{"kind":"header"}\n')));
    await expect(loadSession({ stateDir: dir, session: KEY })).rejects.toThrow(
      new RegExp(`cold transcript archive ${name} \\(session ${cold.header.id}\\) failed verification`),
    );
  });

  it('lists reset and deleted archives beside the live session, and opens them by archive name', async () => {
    const dir = tmp();
    const live = window(1);
    const gone = window(2);
    const text = serializeSessionEntries(gone.header, gone.entries);
    write(
      dir,
      [node([live])],
      [
        {
          sessionId: gone.header.id,
          sessionKey: KEY,
          generation: 'g1',
          reason: 'reset',
          text,
          encoding: 'zstd',
          createdAt: 7,
        },
        {
          sessionId: 'other',
          sessionKey: 'agent:main:gone',
          generation: 'g2',
          reason: 'deleted',
          text,
          encoding: 'identity',
          createdAt: 8,
          archiveName: 'gone.jsonl.deleted',
        },
      ],
    );
    const found = await discoverSessions({ stateDir: dir });
    const archived = found.sessions.filter((s) => s.archived);
    expect(archived.map((s) => [s.sessionKey, s.sqlite?.archive?.reason, s.sqlite?.archive?.name])).toEqual([
      [KEY, 'reset', `${gone.header.id}.jsonl.reset.7`],
      ['agent:main:gone', 'deleted', 'gone.jsonl.deleted'],
    ]);
    // the key still names the live session, not its archive
    expect((await loadSession({ stateDir: dir, session: KEY })).header.id).toBe(live.header.id);
    for (const name of [`${gone.header.id}.jsonl.reset.7`, 'gone.jsonl.deleted']) {
      const loaded = await loadSession({ stateDir: dir, session: name }, { mode: 'strict' });
      expect(loaded.entries).toEqual(gone.entries);
      expect(loaded.storage).toMatchObject({ kind: 'sqlite', archive: { name } });
    }
  });
});

describe('zstd frames', () => {
  it('round-trips, and a corrupt frame does not spoil the decoding of the next one', () => {
    const text = Buffer.from('{"type":"message"}'.repeat(200));
    const frame = compressZstd(text);
    expect(frame.subarray(0, 4).toString('hex')).toBe('28b52ffd');
    expect(() => decompressZstd(Buffer.from('28b52ffd0400aabbccddeeff', 'hex'), 'row 1')).toThrow(
      /^row 1: corrupt zstd frame \(/,
    );
    expect(decompressZstd(frame, 'row 2', text.length).equals(text)).toBe(true);
    expect(() => decompressZstd(frame, 'row 3', text.length + 1)).toThrow(
      `row 3: zstd frame decodes to ${text.length} bytes, but the row records ${text.length + 1}`,
    );
  });
});
