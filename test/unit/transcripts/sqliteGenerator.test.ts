/** The generator's SQLite storage and the CLI over both storages. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProgram, type CliHost } from '../../../src/cli';
import {
  discoverSessions,
  generateSession,
  loadSession,
  readStateDatabase,
  readTrajectoryEvents,
  writeGeneratedSessions,
  type LoadedSession,
} from '../../../src/transcripts';
import { tmp } from './sqliteHelpers';

const OPTIONS = { turns: 14, seed: 'both', subagents: 3, contextWindow: 32_000 };

async function bothStorages() {
  const set = generateSession(OPTIONS);
  const jsonl = tmp();
  const sqlite = tmp();
  await writeGeneratedSessions(set, jsonl);
  const written = await writeGeneratedSessions(set, sqlite, { storage: 'sqlite' });
  return { set, jsonl, sqlite, written };
}

/** What both storages must agree on (path, storage and line numbering name the medium, not the session). */
const comparable = (s: LoadedSession) => ({
  header: s.header,
  entries: s.entries,
  leafId: s.leafId,
  appendParentId: s.appendParentId,
  problems: s.problems,
  sourceVersion: s.sourceVersion,
  headerSynthesized: s.headerSynthesized,
});

describe('the same seed in JSONL and in SQLite', () => {
  it('loads to identical sessions, children included, with compressed rows in the database', async () => {
    const { set, jsonl, sqlite, written } = await bothStorages();
    expect(written.compressedEvents).toBeGreaterThan(20);
    for (const s of set.sessions) {
      const a = await loadSession({ stateDir: jsonl, session: s.sessionKey }, { mode: 'strict' });
      const b = await loadSession({ stateDir: sqlite, session: s.sessionKey }, { mode: 'strict' });
      expect(comparable(b)).toEqual(comparable(a));
      expect(b.entryLines).toEqual(a.entryLines.map((line) => line - 1));
      expect(a.storage?.kind).toBe('jsonl');
      expect(b.storage?.kind).toBe('sqlite');
    }
  });

  it('is discovered with the same keys, counts and family links', async () => {
    const { jsonl, sqlite } = await bothStorages();
    const view = async (dir: string) =>
      (await discoverSessions({ stateDir: dir })).sessions
        .map((s) => ({
          key: s.sessionKey,
          id: s.sessionId,
          entries: s.entries,
          messages: s.messages,
          parent: s.parentSessionKey,
          children: [...s.childKeys].sort(),
          spawns: s.spawns.map((x) => x.status),
          subagent: s.isSubagent,
        }))
        .sort((x, y) => String(x.key).localeCompare(String(y.key)));
    expect(await view(sqlite)).toEqual(await view(jsonl));
    expect((await view(sqlite)).filter((s) => s.parent === 'agent:main:main')).toHaveLength(2);
  });

  it("writes trajectory rows in OpenClaw's shape: one run of four events per user turn, with the turn's prompt and usage", async () => {
    const { set, sqlite } = await bothStorages();
    const loaded = await loadSession({ stateDir: sqlite, session: 'agent:main:main' });
    const events = await readTrajectoryEvents(loaded);
    const users = set.sessions[0]!.entries.filter((e) => e.type === 'message' && e.message.role === 'user');
    expect(events).toHaveLength(users.length * 4);
    expect(events.slice(0, 4).map((e) => e.type)).toEqual([
      'session.started',
      'prompt.submitted',
      'model.completed',
      'session.ended',
    ]);
    const first = users[0]!;
    expect(events[1]!.event).toMatchObject({
      traceSchema: 'openclaw-trajectory',
      sessionKey: 'agent:main:main',
      data: { prompt: (first as { message: { content: string } }).message.content },
    });
    expect(events[2]!.event.data).toMatchObject({ stopReason: 'stop', usage: { input: expect.any(Number) } });
    expect(
      await readTrajectoryEvents(await loadSession({ stateDir: sqlite, session: set.sessions[1]!.sessionKey })),
    ).not.toHaveLength(0);
  });

  it('registers the database and the accepted subagent runs in state/openclaw.sqlite', async () => {
    const { set, sqlite, written } = await bothStorages();
    const state = await readStateDatabase(written.files[1]!);
    expect(state).toMatchObject({
      schemaVersion: 18,
      agentDatabases: [{ agentId: 'main', path: 'agents/main/agent/openclaw-agent.sqlite', schemaVersion: 23 }],
    });
    expect(state!.subagentRuns.map((r) => [r.childSessionKey, r.requesterSessionKey])).toEqual(
      set.sessions.slice(1).map((s) => [s.sessionKey, 'agent:main:main']),
    );
    expect(written.files[0]).toBe(join(sqlite, 'agents/main/agent/openclaw-agent.sqlite'));
  });

  it('a second set under a key the database already holds gets a fresh key, and its children follow', async () => {
    const dir = tmp();
    await writeGeneratedSessions(generateSession({ turns: 2, seed: 1 }), dir, { storage: 'sqlite' });
    const second = generateSession({ turns: 3, seed: 2, subagents: 1 });
    const written = await writeGeneratedSessions(second, dir, { storage: 'sqlite' });
    const renamed = `agent:main:generated:${second.sessions[0]!.sessionId.slice(0, 8)}`;
    expect(written.sessionKeys[0]).toBe(renamed);
    const found = await discoverSessions({ stateDir: dir });
    expect(found.sessions.map((s) => s.sessionKey).sort()).toEqual(
      ['agent:main:main', renamed, second.sessions[1]!.sessionKey].sort(),
    );
    expect(found.sessions.find((s) => s.sessionKey === second.sessions[1]!.sessionKey)!.parentSessionKey).toBe(renamed);
  });
});

function fakeHost() {
  const out: string[] = [];
  const host: CliHost = {
    startServe: async () => {
      throw new Error('not used');
    },
    waitForStop: async () => {},
    out: (t) => out.push(t),
    err: () => {},
  };
  return { host, out };
}

async function run(args: string[]): Promise<string> {
  const { host, out } = fakeHost();
  const program = createProgram(host).exitOverride();
  for (const command of program.commands) command.exitOverride();
  await program.parseAsync(['node', 'contextscope', ...args]);
  return out.join('');
}

describe('contextscope over SQLite state dirs', () => {
  it('generate --storage sqlite writes the databases; the same seed writes the same bytes', async () => {
    const a = tmp();
    const b = tmp();
    const text = await run([
      'generate',
      '--turns',
      '6',
      '--seed',
      '3',
      '--subagents',
      '--storage',
      'sqlite',
      '--out',
      a,
    ]);
    expect(text).toMatch(
      /^Wrote 3 session\(s\) to .*agents\/main\/agent\/openclaw-agent\.sqlite \(\d+ events, \d+ zstd-compressed\) and .*state\/openclaw\.sqlite\n/,
    );
    await run(['generate', '--turns', '6', '--seed', '3', '--subagents', '--storage', 'sqlite', '--out', b]);
    for (const f of ['agents/main/agent/openclaw-agent.sqlite', 'state/openclaw.sqlite'])
      expect(readFileSync(join(b, f)).equals(readFileSync(join(a, f)))).toBe(true);
    const old = JSON.parse(
      await run([
        'generate',
        '--turns',
        '2',
        '--seed',
        '3',
        '--storage',
        'sqlite',
        '--agent-schema',
        '19',
        '--out',
        tmp(),
        '--json',
      ]),
    );
    expect(old).toMatchObject({ storage: 'sqlite', compressedEvents: 0 });
  });

  it('sessions --json lists both storages with agent, key, id, storage, entries, messages and parent', async () => {
    const dir = tmp();
    await run(['generate', '--turns', '4', '--seed', '8', '--subagents', '2', '--storage', 'sqlite', '--out', dir]);
    await run(['generate', '--turns', '3', '--seed', '9', '--agent', 'ops', '--out', dir]);
    const report = JSON.parse(await run(['sessions', '--state-dir', dir, '--json']));
    expect(report.agents.map((a: { agentId: string; storage: string[] }) => [a.agentId, a.storage])).toEqual([
      ['main', ['sqlite']],
      ['ops', ['jsonl']],
    ]);
    for (const s of report.sessions) {
      expect(Object.keys(s)).toEqual(
        expect.arrayContaining([
          'agentId',
          'sessionKey',
          'sessionId',
          'storage',
          'entries',
          'messages',
          'parentSessionKey',
        ]),
      );
      expect(s.entries).toBeGreaterThan(0);
      expect(s.messages).toBeGreaterThan(0);
    }
    const roots = report.sessions.filter((s: { parentSessionKey: string | null }) => s.parentSessionKey === null);
    expect(roots.map((s: { sessionKey: string }) => s.sessionKey).sort()).toEqual([
      'agent:main:main',
      'agent:ops:main',
    ]);
    const text = await run(['sessions', '--state-dir', dir]);
    expect(text).toMatch(
      /\nAgent main: 2 session\(s\), sqlite, database schema 23 .*\n {2}agent:main:main {2}\S+ {2}sqlite {2}\d+ turns, \d+ messages, \d+ entries, [\d.]+ KB, updated \S+, 1 child\(ren\)\n {4}agent:main:subagent:/,
    );
  });

  it('session --state-dir --session prints the same report as for the transcript file', async () => {
    const set = generateSession({ turns: 5, seed: 4 });
    const jsonl = tmp();
    const sqlite = tmp();
    await writeGeneratedSessions(set, jsonl);
    await writeGeneratedSessions(set, sqlite, { storage: 'sqlite' });
    const file = join(jsonl, 'agents/main/sessions', set.sessions[0]!.fileName);
    const fromFile = JSON.parse(await run(['session', file, '--json']));
    const fromDb = JSON.parse(
      await run(['session', '--state-dir', sqlite, '--session', set.sessions[0]!.sessionId, '--json']),
    );
    expect(fromDb.storage).toMatchObject({
      kind: 'sqlite',
      sessionKey: 'agent:main:main',
      windows: [{ sessionId: set.sessions[0]!.sessionId }],
    });
    expect(fromFile.storage).toEqual({ kind: 'jsonl', file });
    // the generator writes trajectory rows only into the database (no trajectory file for JSONL)
    expect(fromFile.trajectory).toBeNull();
    expect(fromDb.trajectory).toMatchObject({ contexts: 0 });
    for (const r of [fromFile, fromDb]) {
      delete r.path;
      delete r.storage;
      delete r.trajectory;
    }
    expect(fromDb.lines).toBe(fromFile.lines);
    expect(fromDb).toEqual(fromFile);
  });
});
