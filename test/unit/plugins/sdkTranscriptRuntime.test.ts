/**
 * openclaw/plugin-sdk/session-transcript-runtime (+ the transcript reads of session-store-runtime, sqlite-runtime)
 * over real JSONL transcript files, as the engine host's SDK serves them. Expected values of the visible-branch
 * cases are OpenClaw 2026.9.6's own results for the same events (its `selectVisibleTranscriptEventEntries` and
 * `readVisibleSessionTranscriptMessageEntries`, run on Node 24); the delta and raw pages follow its limits.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenClawPluginSdk, type OpenClawPluginSdk } from '../../../src/plugins/sdk/pluginSdk';

type Event = Record<string, unknown>;

const header: Event = { type: 'session', version: 3, id: 'sess-a', timestamp: '2026-12-01T10:00:00.000Z', cwd: '/w' };
const msg = (id: string, parentId: string | null, role: string, text: string, extra: Event = {}): Event => ({
  type: 'message',
  id,
  parentId,
  timestamp: `2026-12-01T10:00:0${id.length}.000Z`,
  message: { role, content: [{ type: 'text', text }], ...extra },
});

/** A branch moved with a leaf row, then a side append the next message hangs off (OpenClaw re-hangs it on the leaf). */
const BRANCHED: Event[] = [
  header,
  msg('u1', null, 'user', 'a', { idempotencyKey: 'k1' }),
  msg('a1', 'u1', 'assistant', 'b'),
  msg('u2', 'a1', 'user', 'c'),
  { type: 'leaf', id: 'L1', parentId: 'u2', targetId: 'a1' },
  msg('u3', 'L1', 'user', 'd'),
  { type: 'custom', id: 'c1', parentId: 'u3', appendMode: 'side', timestamp: '2026-12-01T10:00:06.000Z' },
  msg('a3', 'c1', 'assistant', 'e'),
];

/** A reset, a leaf row pointing before it (ignored), a missing parent and an entry without a parentId key. */
const RESET: Event[] = [
  header,
  msg('u1', null, 'user', 'a'),
  { type: 'reset', id: 'r1', parentId: 'u1', timestamp: '2026-12-01T10:00:02.000Z' },
  msg('u2', null, 'user', 'b'),
  { type: 'leaf', id: 'L1', parentId: 'u2', targetId: 'u1' },
  msg('a2', 'ghost', 'assistant', 'c'),
  { type: 'message', id: 'u4', timestamp: '2026-12-01T10:00:05.000Z', message: { role: 'user', content: 'np' } },
];

/** A leaf row naming an unknown entry (ignored), a message without a role, and a compaction. */
const INVALID_LEAF: Event[] = [
  header,
  msg('u1', null, 'user', 'a'),
  { type: 'leaf', id: 'L1', parentId: 'u1', targetId: 'nope' },
  { type: 'message', id: 'x', parentId: 'u1', message: { content: 'no role' } },
  { type: 'compaction', id: 'k1', parentId: 'x', summary: 's', firstKeptEntryId: 'u1', tokensBefore: 9 },
  msg('a1', 'k1', 'assistant', 'b'),
];

const jsonl = (events: Event[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';
const bytesOf = (e: Event) => Buffer.byteLength(JSON.stringify(e)) + 1;

let dir: string;
let sdk: OpenClawPluginSdk;
const rt = () => sdk.sessionTranscriptRuntime;

function writeTranscript(name: string, events: Event[]): string {
  const file = join(dir, name);
  writeFileSync(file, jsonl(events));
  return file;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cs-sdk-transcript-'));
  sdk = createOpenClawPluginSdk({ delegateCompaction: async () => ({ ok: true, compacted: false }) });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readVisibleSessionTranscriptMessageEntries', () => {
  it('returns the message entries of the visible branch with OpenClaw’s entryId, parentId, seq, role, createdAt and idempotencyKey', async () => {
    const sessionFile = writeTranscript('a.jsonl', BRANCHED);
    const entries = await rt().readVisibleSessionTranscriptMessageEntries({
      agentId: 'main',
      sessionId: 'sess-a',
      sessionFile,
    });
    expect(entries.map((e) => [e.entryId, e.parentId, e.seq])).toEqual([
      ['u1', null, 2],
      ['a1', 'u1', 3],
      ['u3', 'a1', 6],
      ['a3', 'u3', 8],
    ]);
    expect(entries[0]).toEqual({
      entryId: 'u1',
      parentId: null,
      seq: 2,
      message: BRANCHED[1]!.message,
      role: 'user',
      createdAt: BRANCHED[1]!.timestamp,
      idempotencyKey: 'k1',
    });
    expect(entries[1]).not.toHaveProperty('idempotencyKey');
  });

  it('follows OpenClaw’s reset, stale-parent, parentless and invalid-leaf rules (OpenClaw 2026.9.6’s results)', async () => {
    const read = async (events: Event[]) =>
      (
        await rt().readVisibleSessionTranscriptMessageEntries({
          agentId: 'main',
          sessionId: 'sess-a',
          sessionFile: writeTranscript(`${events.length}-${Math.random()}.jsonl`, events),
        })
      ).map((e) => [e.entryId, e.parentId, e.seq]);
    expect(await read(RESET)).toEqual([
      ['u1', null, 2],
      ['u2', 'r1', 4],
      ['a2', 'u2', 6],
      ['u4', 'a2', 7],
    ]);
    expect(await read(INVALID_LEAF)).toEqual([
      ['u1', null, 2],
      ['a1', 'k1', 6],
    ]);
  });

  it('returns copies: changing a result does not change the next read', async () => {
    const sessionFile = writeTranscript('a.jsonl', BRANCHED);
    const target = { agentId: 'main', sessionId: 'sess-a', sessionFile };
    const first = await rt().readVisibleSessionTranscriptMessageEntries(target);
    (first[0]!.message as Event).role = 'changed';
    expect((await rt().readVisibleSessionTranscriptMessageEntries(target))[0]!.role).toBe('user');
  });

  it('sees what was appended since the last read, and reads a session without a transcript as empty', async () => {
    const sessionFile = writeTranscript('a.jsonl', BRANCHED.slice(0, 3));
    const target = { agentId: 'main', sessionId: 'sess-a', sessionFile };
    expect((await rt().readVisibleSessionTranscriptMessageEntries(target)).length).toBe(2);
    appendFileSync(sessionFile, jsonl([msg('u2', 'a1', 'user', 'c')]));
    expect((await rt().readVisibleSessionTranscriptMessageEntries(target)).map((e) => e.entryId)).toEqual([
      'u1',
      'a1',
      'u2',
    ]);
    const missing = { agentId: 'main', sessionId: 'none', sessionFile: join(dir, 'none.jsonl') };
    expect(await rt().readVisibleSessionTranscriptMessageEntries(missing)).toEqual([]);
    expect(await rt().readSessionTranscriptEvents(missing)).toEqual([]);
    expect(await rt().readSessionTranscriptVisibleMessageDelta(missing)).toEqual({ kind: 'missing' });
    expect(await rt().readSessionTranscriptRawDelta(missing)).toEqual({ kind: 'missing' });
  });

  it('names the file and line of a line that is not JSON, and the function of a bad target', async () => {
    const sessionFile = join(dir, 'bad.jsonl');
    writeFileSync(sessionFile, `${JSON.stringify(header)}\n{"type":"message",\n`);
    await expect(
      rt().readVisibleSessionTranscriptMessageEntries({ agentId: 'main', sessionId: 's', sessionFile }),
    ).rejects.toThrow(`${sessionFile}:2: not a JSON line`);
    await expect(
      rt().readVisibleSessionTranscriptMessageEntries({ sessionKey: 'main', sessionId: 's' }),
    ).rejects.toThrow(
      /^openclaw\/plugin-sdk\/session-transcript-runtime readVisibleSessionTranscriptMessageEntries: session key "main" does not contain an agent id/,
    );
    await expect(rt().readSessionTranscriptEvents({ agentId: 'main', sessionId: '' })).rejects.toThrow(
      'openclaw/plugin-sdk/session-transcript-runtime readSessionTranscriptEvents: sessionId must be a non-empty string (got "")',
    );
  });
});

describe('readSessionTranscriptVisibleMessageDelta', () => {
  it('pages visible messages oldest first, resumes after appends, and keeps OpenClaw’s page facts', async () => {
    const sessionFile = writeTranscript('a.jsonl', BRANCHED);
    const target = { agentId: 'main', sessionKey: 'agent:main:x', sessionId: 'sess-a', sessionFile };
    const first = await rt().readSessionTranscriptVisibleMessageDelta({ ...target, maxMessages: 3 });
    if (first.kind !== 'page') throw new Error(first.kind);
    expect(first.entries.map((e) => [e.entryId, e.parentId, e.seq])).toEqual([
      ['u1', null, 1],
      ['a1', 'u1', 2],
      ['u3', 'a1', 3],
    ]);
    expect(first.hasMore).toBe(true);
    expect(first.serializedBytes).toBe(bytesOf(BRANCHED[1]!) + bytesOf(BRANCHED[2]!) + bytesOf(BRANCHED[5]!));
    const second = await rt().readSessionTranscriptVisibleMessageDelta({ ...target, cursor: first.cursor });
    if (second.kind !== 'page') throw new Error(second.kind);
    // the delta's parentId is the entry before it on the visible branch (u3: the side append c1 is not on it)
    expect(second.entries.map((e) => [e.entryId, e.parentId, e.seq])).toEqual([['a3', 'u3', 4]]);
    expect(second.hasMore).toBe(false);
    appendFileSync(sessionFile, jsonl([msg('u5', 'a3', 'user', 'f')]));
    const third = await rt().readSessionTranscriptVisibleMessageDelta({ ...target, cursor: second.cursor });
    expect(third.kind === 'page' && third.entries.map((e) => e.entryId)).toEqual(['u5']);
  });

  it('reports the bytes a message needs when it does not fit, and rejects limits outside OpenClaw’s range', async () => {
    const target = { agentId: 'main', sessionId: 'sess-a', sessionFile: writeTranscript('a.jsonl', BRANCHED) };
    expect(await rt().readSessionTranscriptVisibleMessageDelta({ ...target, maxBytes: 10 })).toMatchObject({
      kind: 'page',
      entries: [],
      hasMore: true,
      requiredBytes: bytesOf(BRANCHED[1]!),
      serializedBytes: 0,
    });
    await expect(rt().readSessionTranscriptVisibleMessageDelta({ ...target, maxMessages: 0 })).rejects.toThrow(
      new RangeError('maxMessages must be an integer between 1 and 10000'),
    );
    await expect(rt().readSessionTranscriptVisibleMessageDelta({ ...target, maxBytes: 2 ** 27 })).rejects.toThrow(
      'maxBytes must be an integer between 1 and 67108864',
    );
  });

  it('resets a cursor that is malformed, for another session, for a replaced transcript, or whose anchor left the branch', async () => {
    const sessionFile = writeTranscript('a.jsonl', BRANCHED.slice(0, 4));
    const target = { agentId: 'main', sessionId: 'sess-a', sessionFile };
    const page = await rt().readSessionTranscriptVisibleMessageDelta(target);
    if (page.kind !== 'page') throw new Error(page.kind);
    const reason = async (params: Record<string, unknown>) => {
      const result = await rt().readSessionTranscriptVisibleMessageDelta(params);
      return result.kind === 'reset' ? result.reason : result.kind;
    };
    expect(await reason({ ...target, cursor: 'not-a-cursor!' })).toBe('invalid_cursor');
    expect(await reason({ ...target, agentId: 'other', cursor: page.cursor })).toBe('scope_mismatch');
    // the leaf moves back to a1: the anchored u2 is no longer visible
    appendFileSync(sessionFile, jsonl([{ type: 'leaf', id: 'L1', parentId: 'u2', targetId: 'a1' }]));
    expect(await reason({ ...target, cursor: page.cursor })).toBe('anchor_missing');
    writeFileSync(sessionFile, jsonl([{ ...header, timestamp: '2026-12-02T00:00:00.000Z' }, ...BRANCHED.slice(1, 4)]));
    expect(await reason({ ...target, cursor: page.cursor })).toBe('generation_mismatch');
    const reset = await rt().readSessionTranscriptVisibleMessageDelta({ ...target, cursor: page.cursor });
    const fresh =
      reset.kind === 'reset' &&
      (await rt().readSessionTranscriptVisibleMessageDelta({ ...target, cursor: reset.cursor }));
    expect(fresh && fresh.kind === 'page' && fresh.entries.map((e) => e.entryId)).toEqual(['u1', 'a1', 'u2']);
  });
});

describe('readSessionTranscriptRawDelta and readSessionTranscriptEvents', () => {
  it('pages every stored event from the header (seq 0) and resumes after appends', async () => {
    const sessionFile = writeTranscript('a.jsonl', BRANCHED);
    const target = { agentId: 'main', sessionId: 'sess-a', sessionFile };
    expect(await rt().readSessionTranscriptEvents(target)).toEqual(BRANCHED);
    const first = await rt().readSessionTranscriptRawDelta({ ...target, maxEvents: 5 });
    if (first.kind !== 'page') throw new Error(first.kind);
    expect(first.events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(first.events[4]!.event).toEqual(BRANCHED[4]);
    expect(first.serializedBytes).toBe(BRANCHED.slice(0, 5).reduce((sum, e) => sum + bytesOf(e), 0));
    expect(first.hasMore).toBe(true);
    const rest = await rt().readSessionTranscriptRawDelta({ ...target, cursor: first.cursor });
    expect(rest.kind === 'page' && [rest.events.map((e) => e.seq), rest.hasMore]).toEqual([[5, 6, 7], false]);
    appendFileSync(sessionFile, jsonl([msg('u9', 'a3', 'user', 'z')]));
    const appended =
      rest.kind === 'page' && (await rt().readSessionTranscriptRawDelta({ ...target, cursor: rest.cursor }));
    expect(appended && appended.kind === 'page' && appended.events.map((e) => e.seq)).toEqual([8]);
    writeFileSync(sessionFile, jsonl(BRANCHED.slice(0, 3)));
    const shrunk = await rt().readSessionTranscriptRawDelta({ ...target, cursor: first.cursor });
    expect(shrunk.kind === 'reset' && shrunk.reason).toBe('invalid_cursor');
  });
});

describe('where the transcript of an identity is found', () => {
  it('storePath of a replay lane (<lane>/agent/openclaw-agent.sqlite) names <lane>/sessions/<sessionId>.jsonl', async () => {
    mkdirSync(join(dir, 'lane', 'sessions'), { recursive: true });
    writeFileSync(join(dir, 'lane', 'sessions', 'sess-a.jsonl'), jsonl(BRANCHED));
    const target = {
      agentId: 'main',
      sessionKey: 'agent:main:x',
      sessionId: 'sess-a',
      storePath: join(dir, 'lane', 'agent', 'openclaw-agent.sqlite'),
    };
    expect((await rt().readVisibleSessionTranscriptMessageEntries(target)).length).toBe(4);
  });

  it('the state dir: agents/<agentId>/sessions, with the sessionFile sessions.json records for the key', async () => {
    const sessions = join(dir, 'state', 'agents', 'ops', 'sessions');
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(sessions, 'elsewhere.jsonl'), jsonl(BRANCHED));
    writeFileSync(
      join(sessions, 'sessions.json'),
      JSON.stringify({ 'agent:ops:main': { sessionId: 'sess-a', sessionFile: 'elsewhere.jsonl', updatedAt: 1 } }),
    );
    const env = { OPENCLAW_STATE_DIR: join(dir, 'state') };
    const byKey = { sessionKey: 'agent:ops:main', sessionId: 'sess-a', env };
    expect((await rt().readVisibleSessionTranscriptMessageEntries(byKey)).map((e) => e.entryId)).toEqual([
      'u1',
      'a1',
      'u3',
      'a3',
    ]);
    expect(await rt().resolveSessionTranscriptTarget(byKey)).toEqual({
      agentId: 'ops',
      memoryKey: 'transcript:ops:sess-a',
      sessionId: 'sess-a',
      sessionKey: 'agent:ops:main',
      targetKind: 'runtime-session',
    });
    expect(sdk.sessionStoreRuntime.loadTranscriptEventsSync(byKey)).toEqual(BRANCHED);
    expect(sdk.sessionStoreRuntime.readTranscriptStatsSync(byKey)).toEqual({
      eventCount: BRANCHED.length,
      maxSeq: BRANCHED.length - 1,
      sizeBytes: Buffer.byteLength(jsonl(BRANCHED)) - 1,
    });
    expect(sdk.sessionStoreRuntime.readTranscriptStatsSync({ ...byKey, sessionId: 'gone' })).toEqual({
      eventCount: 0,
      maxSeq: 0,
      sizeBytes: 0,
    });
  });

  it('the transcript the engine host was given for a session in an engine call', async () => {
    const sessionFile = writeTranscript('noted.jsonl', BRANCHED);
    const target = {
      agentId: 'main',
      sessionKey: 'agent:main:x',
      sessionId: 'sess-a',
      env: { OPENCLAW_STATE_DIR: dir },
    };
    expect(await rt().readVisibleSessionTranscriptMessageEntries(target)).toEqual([]);
    sdk.transcripts.noteEngineCall({ sessionId: 'sess-a', sessionKey: 'agent:main:x', sessionFile, messages: [] });
    expect((await rt().readVisibleSessionTranscriptMessageEntries(target)).length).toBe(4);
  });
});

describe('memory hit keys and sqlite-runtime paths', () => {
  it('formats and parses transcript:<agentId>:<sessionId>', () => {
    expect(rt().formatSessionTranscriptMemoryHitKey({ agentId: 'My Agent', sessionId: 'a:b' })).toBe(
      'transcript:my-agent:a%3Ab',
    );
    expect(rt().parseSessionTranscriptMemoryHitKey('transcript:my-agent:a%3Ab')).toEqual({
      agentId: 'my-agent',
      key: 'transcript:my-agent:a%3Ab',
      sessionId: 'a:b',
    });
    expect(rt().parseSessionTranscriptMemoryHitKey('memory:x')).toBeNull();
  });

  it('resolveOpenClawAgentSqlitePath is <stateDir>/agents/<agentId>/agent/openclaw-agent.sqlite', () => {
    expect(
      sdk.sqliteRuntime.resolveOpenClawAgentSqlitePath({ agentId: 'Main', env: { OPENCLAW_STATE_DIR: '/srv/oc' } }),
    ).toBe('/srv/oc/agents/main/agent/openclaw-agent.sqlite');
    expect(sdk.sqliteRuntime.resolveOpenClawAgentSqlitePath({ path: '/x/y.sqlite' })).toBe('/x/y.sqlite');
  });
});
