/**
 * A current-style engine (the transcript-reader fixture: commitTurn, both transcriptSemantics) replayed as OpenClaw
 * 2026.9.6 in a real engine host reads the lane's own JSONL transcript through
 * openclaw/plugin-sdk/session-transcript-runtime: at every turn it reads exactly the lane transcript's visible
 * messages up to that turn. And outside a replay, in a real engine host whose state dir holds the session, it
 * reads the transcript OpenClaw's layout names for the identity.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { allowExecuteConsent } from '../../../src/plugins/consent';
import { loadPlugin } from '../../../src/plugins/loadPlugin';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';
import { createContextRuntime } from '../../../src/engines';
import { defaultDemoSessionsDir, replaySession, type Recording } from '../../../src/replay';
import { getActivePath, readSessionFile, serializeSessionEntries } from '../../../src/transcripts';
import type { SessionEntry } from '../../../src/contract';
import { tempDir } from '../replay/sessionBuilder';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/plugins/transcript-reader');
const SESSION = join(
  defaultDemoSessionsDir()!,
  'agents',
  'main',
  'sessions',
  'db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl',
);
const MARKER = 'transcript-reader read: ';
/** entry types that give the model a message (what a session's messageKeys count) */
const MESSAGE_TYPES = new Set(['message', 'custom_message', 'branch_summary']);
const stripIds = ({ id: _id, parentId: _parentId, timestamp: _ts, ...rest }: SessionEntry) => rest;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface EngineRead {
  sessionId: string;
  entries: [entryId: string, seq: number, role: string][];
}

function readOf(systemPromptAddition: string | null): EngineRead {
  if (!systemPromptAddition?.startsWith(MARKER)) throw new Error(`no read reported: ${String(systemPromptAddition)}`);
  return JSON.parse(systemPromptAddition.slice(MARKER.length)) as EngineRead;
}

function findFile(dir: string, name: string): string | undefined {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === name) return path;
    if (statSync(path).isDirectory()) {
      const found = findFile(path, name);
      if (found) return found;
    }
  }
  return undefined;
}

describe('session-transcript-runtime in a replay lane', () => {
  it('as 2026.9.6 the engine reads, at every turn, exactly the visible messages of the lane transcript so far', async () => {
    const workDir = tempDir('cs-transcript-reader-');
    dirs.push(workDir);
    const recording: Recording = await replaySession({
      session: SESSION,
      lanes: [{ engine: { kind: 'plugin', plugin: FIXTURE }, contextWindow: 200_000 }],
      plugins: { allowExecute: true },
      openclawVersion: '2026.9.6',
      workDir,
    });
    const [lane] = recording.lanes;
    expect(lane!.error).toBeUndefined();
    const turns = recording.turns[lane!.id]!;
    expect(turns.length).toBeGreaterThan(3);
    expect(turns.map((t) => t.turnPath?.engine)).toEqual(turns.map(() => 'configured'));

    const { sessionId, messageKeys, turnStarts } = recording.session;
    const laneFile = findFile(workDir, `${sessionId}.jsonl`);
    if (!laneFile) throw new Error(`no lane transcript for ${sessionId} under ${workDir}`);
    const lane_ = await readSessionFile(laneFile, { mode: 'strict' });
    // line numbers (OpenClaw's seq of a visible entry: its position in the transcript, the header being 1)
    const lineOf = new Map(lane_.entries.map((entry, i) => [entry.id, i + 2]));
    // the lane's branch entries that give the model a message, one for each of the session's messageKeys, in order
    const laneMessages = getActivePath(lane_).filter((e) => MESSAGE_TYPES.has(e.type));
    expect(laneMessages.length).toBe(messageKeys.length);
    const recorded = await readSessionFile(SESSION, { mode: 'strict' });
    const recordedById = new Map(recorded.entries.map((e) => [e.id, e]));
    laneMessages.forEach((entry, i) => expect(stripIds(entry)).toEqual(stripIds(recordedById.get(messageKeys[i]!)!)));

    turns.forEach((turn, t) => {
      const read = readOf(turn.systemPromptAddition);
      expect(read.sessionId).toBe(sessionId);
      const before = turnStarts[t]!;
      // OpenClaw's visible message entries are the `message` entries (not custom_message / branch_summary)
      const expected = laneMessages.slice(0, before).filter((e) => e.type === 'message');
      expect(
        read.entries.map(([id, seq]) => [id, seq]),
        `turn ${t}`,
      ).toEqual(expected.map((e) => [e.id, lineOf.get(e.id)]));
      expect(read.entries.map(([, , role]) => role)).toEqual(
        expected.map((e) => (e.type === 'message' ? e.message.role : '')),
      );
      // what it sent is those messages unchanged: the session's messages before this turn, as the same keys
      const sentKeys = messageKeys.slice(0, before).filter((_key, i) => laneMessages[i]!.type === 'message');
      expect(turn.assembled.map((m) => m.key)).toEqual(sentKeys);
      expect(turn.assembled.every((m) => m.provenance === 'raw')).toBe(true);
    });
  }, 120_000);
});

describe('session-transcript-runtime in an engine host outside a replay', () => {
  it('finds the session in <OPENCLAW_STATE_DIR>/agents/<agentId>/sessions through sessions.json', async () => {
    const root = tempDir('cs-transcript-state-');
    dirs.push(root);
    const stateDir = join(root, 'state');
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    mkdirSync(sessions, { recursive: true });
    const session = await readSessionFile(SESSION, { mode: 'strict' });
    writeFileSync(join(sessions, 'renamed.jsonl'), serializeSessionEntries(session.header, session.entries));
    writeFileSync(
      join(sessions, 'sessions.json'),
      JSON.stringify({
        'agent:main:demo': { sessionId: session.header.id, sessionFile: 'renamed.jsonl', updatedAt: 1 },
      }),
    );
    const runtime = createContextRuntime({ logger: quiet });
    const loaded = await loadPlugin(readPluginPackage(FIXTURE, 'linked'), {
      runtime,
      consent: allowExecuteConsent(),
      logger: quiet,
      laneDirs: { stateDir },
    });
    try {
      expect(loaded.status).toBe('running');
      const engine = await runtime.resolveContextEngine({ plugins: { slots: { contextEngine: 'transcript-reader' } } });
      const result = await engine.assemble({
        sessionId: session.header.id,
        sessionKey: 'agent:main:demo',
        messages: [],
        tokenBudget: 100_000,
      });
      const read = readOf(result.systemPromptAddition ?? null);
      const expected = getActivePath(session).filter((entry) => entry.type === 'message');
      expect(read.entries.map(([id]) => id)).toEqual(expected.map((entry) => entry.id));
      expect(result.messages).toEqual(expected.map((entry) => (entry.type === 'message' ? entry.message : null)));
    } finally {
      await loaded.close();
    }
  }, 60_000);
});
