/**
 * Session families from a state dir copied elsewhere (test/fixtures/transcripts/moved-family: sessions.json names
 * every transcript by an absolute path of the old machine; subagents/runs.json links the second child), which
 * session a folder names, and the family/pairing figures of `sessions` and `session`.
 */
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli';
import { openReplaySession, replaySession } from '../../../src/replay';
import { discoverSessions, storeEntryFile } from '../../../src/transcripts';
import { SessionBuilder, tempDir } from './sessionBuilder';

const MOVED = resolve(import.meta.dirname, '../../fixtures/transcripts/moved-family/state');
const SESSIONS = join(MOVED, 'agents/main/sessions');
const TRAJECTORY_SESSIONS = resolve(
  import.meta.dirname,
  '../../fixtures/transcripts/trajectory/state/agents/main/sessions',
);
const PARENT_ID = '1a2b3c4d-0000-4000-8000-000000000001';
const CHILD_KEYS = [
  'agent:main:subagent:5d1e0a77-aaaa-4bbb-8ccc-000000000001',
  'agent:main:subagent:5d1e0a77-aaaa-4bbb-8ccc-000000000002',
];

const run = runCli;

describe('subagent families from a moved state dir', () => {
  it('finds each transcript in the sessions folder when the absolute sessionFile is gone', () => {
    const missing = '/home/olduser/.openclaw/agents/main/sessions/x.jsonl';
    expect(storeEntryFile(SESSIONS, { sessionId: PARENT_ID, sessionFile: `/nowhere/${PARENT_ID}.jsonl` })).toBe(
      join(SESSIONS, `${PARENT_ID}.jsonl`),
    );
    expect(storeEntryFile(SESSIONS, { sessionId: PARENT_ID, sessionFile: missing })).toBe(
      join(SESSIONS, `${PARENT_ID}.jsonl`),
    );
    const present = join(SESSIONS, `${PARENT_ID}.jsonl`);
    expect(storeEntryFile('/elsewhere', { sessionId: 'other', sessionFile: present })).toBe(present);
    expect(storeEntryFile(SESSIONS, { sessionId: 'a', sessionFile: 'b.jsonl' })).toBe(join(SESSIONS, 'b.jsonl'));
  });

  it('links the child sessions.json does not (no spawnedBy) through subagents/runs.json', async () => {
    const found = await discoverSessions({ stateDir: MOVED, scanSpawns: false });
    expect(found.subagentRunsFile).toEqual({ path: join(MOVED, 'subagents/runs.json'), runs: 2 });
    const parent = found.sessions.find((s) => s.sessionKey === 'agent:main:main')!;
    expect(parent.exists).toBe(true);
    expect(parent.childKeys.sort()).toEqual(CHILD_KEYS);
    for (const key of CHILD_KEYS) {
      const child = found.sessions.find((s) => s.sessionKey === key)!;
      expect([child.exists, child.parentSessionKey]).toEqual([true, 'agent:main:main']);
    }
  });

  it('replays the parent with both children', async () => {
    const { loaded } = await openReplaySession({ stateDir: MOVED, session: 'agent:main:main' });
    const recording = await replaySession({
      session: loaded,
      lanes: [{ engine: { kind: 'legacy' }, contextWindow: 32_000 }],
      transcriptFiles: 'none',
    });
    const children = recording.lanes.filter((l) => l.parentLane === 'legacy');
    expect(children.map((l) => [l.childSessionKey, l.spawnedAtTurn, l.turnCount])).toEqual([
      [CHILD_KEYS[0], 0, 1],
      [CHILD_KEYS[1], 0, 1],
    ]);
    expect(Object.keys(recording.childSessions)).toHaveLength(2);
  });

  it('sessions --state-dir lists the family with compactions, size and last update', async () => {
    const listed = await run(['sessions', '--state-dir', MOVED, '--json']);
    const report = JSON.parse(listed.out) as { sessions: Record<string, unknown>[] };
    const parent = report.sessions.find((s) => s.sessionKey === 'agent:main:main')!;
    expect(parent).toMatchObject({ compactions: 0, entries: 7, messages: 7, childSessionKeys: CHILD_KEYS });
    expect(parent.size).toBeGreaterThan(1000);
    const text = await run(['sessions', '--state-dir', MOVED]);
    const lines = text.out.split('\n');
    const at = lines.findIndex((l) => l.includes('agent:main:main'));
    expect(lines[at]).toContain('2 child(ren)');
    // the children are printed under their parent, one level deeper
    expect(lines[at + 1]).toMatch(new RegExp(`^    ${CHILD_KEYS[0]}`));
    expect(lines[at + 2]).toMatch(new RegExp(`^    ${CHILD_KEYS[1]}`));
  });
});

describe('which session a folder names', () => {
  it("takes OpenClaw's main session among several, and lists them when there is none (never the newest)", async () => {
    const dir = tempDir();
    cpSync(TRAJECTORY_SESSIONS, dir, { recursive: true });
    const other = new SessionBuilder({
      type: 'session',
      version: 3,
      id: 'zz-newer',
      timestamp: '2026-12-01T00:00:00.000Z',
      cwd: '/w',
    });
    await other.turn('newest session').write(dir); // written last: the newest by mtime
    const chosen = await openReplaySession(dir);
    expect(chosen.loaded.header.id).toBe('7f3c2a10-5b8e-4d21-9c44-2e6f1a9b0c35');
    expect(chosen.note).toContain("OpenClaw's main session agent:main:main");

    // --state-dir alone names the folder by the same rule
    const byStateDir = await run(['replay', '--state-dir', MOVED, '--no-progress', '--json', '-']);
    expect(byStateDir.code).toBe(0);
    const replayed = JSON.parse(byStateDir.out) as { lanes: { sessionKey: string | null }[] };
    expect(replayed.lanes.map((l) => l.sessionKey)).toEqual(['agent:main:main', ...CHILD_KEYS]);

    rmSync(join(dir, 'sessions.json'));
    await expect(openReplaySession(dir)).rejects.toThrow(/2 sessions in .* none is OpenClaw's main session/);
    const cli = await run(['replay', dir, '--no-progress']);
    expect(cli.code).toBe(2);
    expect(cli.err).toContain('zz-newer.jsonl');
    expect(cli.err).toContain('--state-dir <dir> --session <key or id>');
  });
});

describe('session counts orphan tool results', () => {
  it('reports tool results without a call and calls without a result on the active branch', async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const b = new SessionBuilder();
    b.user('go');
    b.assistant('calling', { toolCalls: [{ type: 'toolCall', id: 'c1', name: 'read', arguments: {} }] });
    b.toolResult('c1', 'read', 'ok');
    const orphan = b.toolResult('gone-call', 'read', 'a result whose call was compacted away');
    b.assistant('calling again', { toolCalls: [{ type: 'toolCall', id: 'c2', name: 'read', arguments: {} }] });
    await b.write(dir);
    const file = join(dir, 'sess-1.jsonl');
    const json = await run(['session', file, '--json']);
    expect(JSON.parse(json.out).toolPairing).toEqual({
      orphanToolResults: 1,
      unansweredToolCalls: 1,
      firstOrphanResult: { index: 3, toolCallId: 'gone-call' },
      firstOrphanResultEntryId: orphan.id,
    });
    const text = await run(['session', file]);
    expect(text.out).toContain(
      `Tool pairs   1 orphan tool result(s) (first: entry ${orphan.id}, toolCallId gone-call), 1 tool call(s) without a result`,
    );
  });
});
