import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  discoverSessions,
  generateSession,
  parseSessionKey,
  readSessionStore,
  resolveStateDir,
  writeGeneratedSessions,
} from '../../../src/transcripts';

const tmp = () => mkdtempSync(join(tmpdir(), 'cs-disc-'));

describe('state dir resolution', () => {
  it('uses the option, then OPENCLAW_STATE_DIR, then ~/.openclaw', () => {
    expect(resolveStateDir('/x/state', { OPENCLAW_STATE_DIR: '/y' })).toBe('/x/state');
    expect(resolveStateDir(undefined, { OPENCLAW_STATE_DIR: '/y/state' })).toBe('/y/state');
    expect(resolveStateDir(undefined, { HOME: '/home/u' }).endsWith('.openclaw')).toBe(true);
  });

  it('parses session keys', () => {
    expect(parseSessionKey('agent:main:subagent:0b16-aa')).toEqual({
      agentId: 'main',
      kind: 'subagent',
      rest: '0b16-aa',
    });
    expect(parseSessionKey('agent:ops:main')).toEqual({ agentId: 'ops', kind: 'main', rest: '' });
    expect(parseSessionKey('global')).toBeUndefined();
  });
});

describe('discoverSessions', () => {
  it('finds agents, sessions, sizes and parent/child links from sessions.json and sessions_spawn results', async () => {
    const state = tmp();
    const set = generateSession({ turns: 10, seed: 21, subagents: 3 });
    await writeGeneratedSessions(set, state);
    const result = await discoverSessions({ env: { OPENCLAW_STATE_DIR: state } });
    expect(result.stateDir).toBe(state);
    expect(result.agents.map((a) => [a.agentId, a.sessionCount, a.storeProblems])).toEqual([['main', 3, []]]);
    const parent = result.sessions.find((s) => s.key === 'agent:main:main')!;
    expect(parent).toMatchObject({
      sessionId: set.sessions[0]!.sessionId,
      isSubagent: false,
      exists: true,
      archived: false,
    });
    expect(parent.header?.id).toBe(set.sessions[0]!.sessionId);
    expect(parent.spawns.map((s) => s.status)).toEqual(['accepted', 'accepted', 'error']);
    expect(parent.childKeys.sort()).toEqual(
      set.sessions
        .slice(1)
        .map((s) => s.sessionKey)
        .sort(),
    );
    for (const child of set.sessions.slice(1)) {
      const found = result.sessions.find((s) => s.key === child.sessionKey)!;
      expect(found).toMatchObject({
        isSubagent: true,
        parentKey: 'agent:main:main',
        parentSessionId: parent.sessionId,
      });
      expect(found.spawnedByCall?.childSessionKey).toBe(child.sessionKey);
      expect(found.size).toBeGreaterThan(0);
    }
  });

  it('links a child through the sessions_spawn result even when sessions.json has no spawnedBy', async () => {
    const state = tmp();
    const set = generateSession({ turns: 8, seed: 22, subagents: 1 });
    for (const s of set.sessions) delete s.storeEntry.spawnedBy;
    await writeGeneratedSessions(set, state);
    const result = await discoverSessions({ stateDir: state });
    const child = result.sessions.find((s) => s.key === set.sessions[1]!.sessionKey)!;
    expect(child.parentKey).toBe('agent:main:main');
    expect(child.spawnedByCall?.status).toBe('accepted');
  });

  it('lists reset archives, store entries whose file is missing, and store problems', async () => {
    const state = tmp();
    const dir = join(state, 'agents', 'ops', 'sessions');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'aaa.jsonl.reset.2026-01-01T00-00-00Z'),
      '{"type":"session","version":3,"id":"aaa","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}\n',
    );
    writeFileSync(
      join(dir, 'sessions.json'),
      JSON.stringify({ 'agent:ops:main': { sessionId: 'gone' }, broken: { nope: 1 } }),
    );
    const result = await discoverSessions({ stateDir: state });
    expect(result.agents[0]!.storeProblems).toEqual([{ key: 'broken', message: 'entry has no sessionId' }]);
    const archived = result.sessions.find((s) => s.archived)!;
    expect(archived).toMatchObject({ sessionId: 'aaa', header: { id: 'aaa' } });
    expect(result.sessions.find((s) => s.key === 'agent:ops:main')).toMatchObject({
      sessionId: 'gone',
      exists: false,
      file: join(dir, 'gone.jsonl'),
    });
  });

  it('an absent state dir yields nothing instead of failing', async () => {
    expect(await discoverSessions({ stateDir: join(tmp(), 'none') })).toMatchObject({ agents: [], sessions: [] });
  });

  it('reads the shipped demo sessions as a state dir', async () => {
    const demo = resolve(import.meta.dirname, '../../../resources/sessions');
    const copy = tmp();
    cpSync(demo, copy, { recursive: true });
    const result = await discoverSessions({ stateDir: copy });
    expect(result.agents.map((a) => a.agentId)).toEqual(['main']);
    expect(result.sessions.filter((s) => !s.isSubagent).length).toBe(3);
    expect(result.sessions.filter((s) => s.isSubagent).every((s) => s.parentSessionId !== undefined)).toBe(true);
    const store = await readSessionStore(join(copy, 'agents', 'main', 'sessions', 'sessions.json'));
    expect(store.problems).toEqual([]);
  });
});
