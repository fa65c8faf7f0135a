/** loadSession / findSession: one way to name a session in a state dir, whatever stores it. */
import { describe, expect, it } from 'vitest';
import {
  createChildSessionResolver,
  findSession,
  generateSession,
  loadSession,
  sessionKeyOf,
  writeGeneratedSessions,
} from '../../../src/transcripts';
import { tmp } from './sqliteHelpers';

async function stateDir() {
  const dir = tmp();
  const main = generateSession({ turns: 4, seed: 11, subagents: 2 });
  const ops = generateSession({ turns: 2, seed: 12, agentId: 'ops', sessionKey: 'agent:ops:main' });
  await writeGeneratedSessions(main, dir, { storage: 'sqlite' });
  await writeGeneratedSessions(ops, dir);
  return { dir, main, ops };
}

describe('findSession', () => {
  it('finds a session by key, session id, unique id prefix or file name, in either storage', async () => {
    const { dir, main, ops } = await stateDir();
    const child = main.sessions[1]!;
    expect(await findSession(dir, child.sessionKey)).toMatchObject({
      matchedBy: 'key',
      storage: 'sqlite',
      sessionId: child.sessionId,
    });
    expect(await findSession(dir, child.sessionId)).toMatchObject({
      matchedBy: 'sessionId',
      sessionKey: child.sessionKey,
    });
    expect(await findSession(dir, ops.sessions[0]!.sessionId.slice(0, 8))).toMatchObject({
      matchedBy: 'prefix',
      storage: 'jsonl',
      agentId: 'ops',
    });
    expect(await findSession(dir, ops.sessions[0]!.fileName)).toMatchObject({
      matchedBy: 'file',
      sessionKey: 'agent:ops:main',
    });
  });

  it('says what is there when nothing matches, and which sessions match when several do', async () => {
    const { dir } = await stateDir();
    await expect(findSession(dir, 'agent:main:nope')).rejects.toThrow(
      new RegExp(
        `^No session "agent:main:nope" in ${dir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: its sessions: agent:main:main, .*Run \`contextscope sessions --state-dir`,
      ),
    );
    // the same key in two agents
    await writeGeneratedSessions(
      generateSession({ turns: 1, seed: 13, agentId: 'ops2', sessionKey: 'agent:main:main' }),
      dir,
    );
    await expect(findSession(dir, 'agent:main:main')).rejects.toThrow(
      /"agent:main:main" names 2 sessions in .*main\/sqlite: agent:main:main .*ops2\/jsonl: agent:main:main .*Pass the agent id/,
    );
    expect(await findSession(dir, 'agent:main:main', { agentId: 'ops2' })).toMatchObject({
      storage: 'jsonl',
      agentId: 'ops2',
    });
  });
});

describe('loadSession and the family helpers', () => {
  it('loads a path or a state-dir reference to the same model, and resolves keys and children in both storages', async () => {
    const { dir, main, ops } = await stateDir();
    const parent = await loadSession({ stateDir: dir, session: 'agent:main:main' });
    expect(parent.entries).toEqual(main.sessions[0]!.entries);
    expect(await sessionKeyOf(parent)).toBe('agent:main:main');
    const resolve = createChildSessionResolver(parent);
    const child = await resolve(main.sessions[1]!.sessionKey);
    expect(child?.entries).toEqual(main.sessions[1]!.entries);
    expect(await resolve('agent:main:subagent:none')).toBeNull();

    const found = await findSession(dir, 'agent:ops:main');
    const byPath = await loadSession(found.file);
    expect(byPath.entries).toEqual(ops.sessions[0]!.entries);
    expect(await sessionKeyOf(byPath)).toBe('agent:ops:main');
    expect(await createChildSessionResolver(byPath)('agent:ops:subagent:none')).toBeNull();
  });

  it('a store entry whose transcript is missing is named', async () => {
    const { dir, ops } = await stateDir();
    const { rm } = await import('node:fs/promises');
    const found = await findSession(dir, 'agent:ops:main');
    await rm(found.file);
    await expect(loadSession({ stateDir: dir, session: 'agent:ops:main' })).rejects.toThrow(
      `Session agent:ops:main: sessions.json of agent ops names ${found.file}, which does not exist`,
    );
    expect(ops.sessions[0]!.fileName).toBe(found.file.split('/').pop());
  });
});
