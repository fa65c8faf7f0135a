/**
 * SQLite sessions are first-class replay inputs: the same seed written as a JSONL and as a SQLite state dir replays
 * to the same recording (subagent children included), through the library, the CLI (--state-dir --session, a
 * locator) and the service the app uses; the state dir is never changed.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProgram, type CliHost } from '../../../src/cli';
import type { Recording } from '../../../src/contract';
import { createReplayService, listSessions, openReplaySession, replaySession } from '../../../src/replay';
import { generateSession, writeGeneratedSessions } from '../../../src/transcripts';

const ROOT_KEY = 'agent:main:main';

async function bothStorages() {
  const set = generateSession({ turns: 12, seed: 'replay-both', subagents: 2, contextWindow: 32_000 });
  const jsonl = mkdtempSync(join(tmpdir(), 'cs-jsonl-'));
  const sqlite = mkdtempSync(join(tmpdir(), 'cs-sqlite-'));
  await writeGeneratedSessions(set, jsonl);
  await writeGeneratedSessions(set, sqlite, { storage: 'sqlite' });
  return { jsonl, sqlite };
}

/** What the storage must not change: everything but timings, paths and the creation time. */
function comparable(recording: Recording) {
  const copy = JSON.parse(JSON.stringify(recording)) as Recording;
  copy.createdAt = '';
  copy.stats.wallMs = 0;
  copy.session.path = '';
  for (const child of Object.values(copy.childSessions)) child.path = '';
  for (const turns of Object.values(copy.turns))
    for (const turn of turns) for (const call of turn.calls) Object.assign(call, { startedAtMs: 0, durationMs: 0 });
  for (const event of copy.events) Object.assign(event, { atMs: 0 });
  for (const turns of Object.values(copy.turns))
    for (const turn of turns) for (const e of turn.events) Object.assign(e, { atMs: 0 });
  return copy;
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}

const lanes = [{ engine: { kind: 'legacy' as const }, contextWindow: 200_000 }];

describe('replaying a SQLite session', () => {
  it('gives the recording the JSONL copy of the same seed gives, children included, and changes nothing on disk', async () => {
    const { jsonl, sqlite } = await bothStorages();
    const before = snapshot(sqlite);
    const fromJsonl = await openReplaySession({ stateDir: jsonl, session: ROOT_KEY });
    const fromSqlite = await openReplaySession({ stateDir: sqlite, session: ROOT_KEY });
    expect(fromSqlite.loaded.storage?.kind).toBe('sqlite');
    // each storage infers its own release (JSONL v3 → 2026.7.35, SQLite → 2026.9.6): pin one to compare storages
    const a = await replaySession({ session: fromJsonl.loaded, lanes, openclawVersion: '2026.9.6' });
    const b = await replaySession({ session: fromSqlite.loaded, lanes, openclawVersion: '2026.9.6' });
    expect(b.lanes.filter((l) => l.parentLane).length).toBeGreaterThan(0); // the children were found and replayed
    expect(b.lanes[0]!.sessionKey).toBe(ROOT_KEY);
    expect(comparable(b)).toEqual(comparable(a));
    expect(snapshot(sqlite)).toEqual(before);
    const inferred = await replaySession({ session: fromSqlite.loaded, lanes });
    expect(inferred.options.openclawVersionChoice).toEqual({
      how: 'inferred',
      from: 'SQLite storage (OpenClaw 2026.8+)',
    });
  });

  it('is listed by the Sessions view with a locator that replay.start takes', async () => {
    const { sqlite } = await bothStorages();
    const listed = await listSessions(sqlite);
    const root = listed.sessions.find((s) => s.key === ROOT_KEY)!;
    expect(root.storage).toBe('sqlite');
    expect(root.file).toMatch(/openclaw-agent\.sqlite#agent:main:main$/);
    expect(root.turns).toBe(12);
    const service = createReplayService();
    const { replayId } = await service.start({ sessionPath: root.file, lanes: ['legacy'], window: 16_000 });
    const done = await service.wait(replayId);
    expect(done.status).toBe('done');
    expect(done.recording!.lanes[0]!.turnCount).toBe(12);
  });

  it('replays from the CLI by --state-dir --session and by locator; an unknown key names what is there', async () => {
    const { sqlite } = await bothStorages();
    const run = async (args: string[]) => {
      let out = '';
      let err = '';
      const host = { out: (t: string) => (out += t), err: (t: string) => (err += t) } as unknown as CliHost;
      process.exitCode = 0;
      await createProgram(host).parseAsync(['node', 'contextscope', ...args]);
      const code = process.exitCode;
      process.exitCode = 0;
      return { out, err, code };
    };
    const byKey = await run([
      'replay',
      '--state-dir',
      sqlite,
      '--session',
      ROOT_KEY,
      '--json',
      '-',
      '--window',
      '16000',
    ]);
    expect(byKey.code).toBe(0);
    const recording = JSON.parse(byKey.out) as Recording;
    expect(recording.lanes[0]!.turnCount).toBe(12);
    const listed = await listSessions(sqlite);
    const locator = listed.sessions.find((s) => s.key === ROOT_KEY)!.file;
    const byLocator = await run(['replay', locator, '--json', '-', '--window', '16000']);
    expect((JSON.parse(byLocator.out) as Recording).session.sessionId).toBe(recording.session.sessionId);
    const unknown = await run(['replay', '--state-dir', sqlite, '--session', 'agent:main:nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('No session "agent:main:nope"');
    const both = await run(['replay', locator, '--session', ROOT_KEY]);
    expect(both.err).toContain('Give either a session argument or --session');
  });
});
