/**
 * JSONL sessions of one agent: `agents/<agentId>/sessions/*.jsonl` (and reset archives `*.jsonl.reset.<ts>`),
 * each with its header, merged with `sessions.json` (keys, store entries, `spawnedBy`, files it names that are
 * missing); then, in one pass per transcript, entry, message and compaction counts and the `sessions_spawn` records.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionEntry } from '../../contract';
import { errorMessage } from '../../common/errorText';
import { readLines } from '../readLines';
import { isSubagentSessionKey, readSessionStore, storeEntryFile } from '../sessionStore';
import { isTrajectoryFileName } from '../sessionTrajectory';
import { SpawnCollector, type SpawnRecord } from '../spawnRecords';
import type { DiscoveredAgent, DiscoveredSession } from './discoveryTypes';

const TRANSCRIPT_NAME = /^(.+)\.jsonl(\.reset\..+)?$/;
const MESSAGE_LINE = /^\s*\{\s*"type"\s*:\s*"message"/;
const COMPACTION_LINE = /^\s*\{\s*"type"\s*:\s*"compaction"/;

async function readHeader(file: string): Promise<Pick<DiscoveredSession, 'header' | 'headerError'>> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    const firstLine = text.split('\n').find((l) => l.trim() !== '');
    if (!firstLine) return { headerError: 'empty file' };
    const parsed = JSON.parse(firstLine) as Record<string, unknown>;
    if (parsed?.type !== 'session' || typeof parsed.id !== 'string')
      return { headerError: 'first line is not a session header' };
    return {
      header: {
        id: parsed.id,
        timestamp: String(parsed.timestamp ?? ''),
        cwd: String(parsed.cwd ?? ''),
        ...(typeof parsed.parentSession === 'string' ? { parentSession: parsed.parentSession } : {}),
        ...(typeof parsed.version === 'number' ? { version: parsed.version } : {}),
      },
    };
  } catch (error) {
    return { headerError: `first line is not a session header (${errorMessage(error).slice(0, 120)})` };
  } finally {
    await handle.close();
  }
}

function newSession(agentId: string, sessionId: string, file: string): DiscoveredSession {
  return {
    agentId,
    sessionId,
    storage: 'jsonl',
    sessionKey: null,
    parentSessionKey: null,
    entries: null,
    messages: null,
    compactions: null,
    ref: file,
    file,
    exists: false,
    size: 0,
    mtimeMs: 0,
    keys: [],
    isSubagent: false,
    archived: false,
    childKeys: [],
    childSessionIds: [],
    spawns: [],
  };
}

async function listTranscripts(
  agentId: string,
  sessionsDir: string,
  names: string[],
): Promise<Map<string, DiscoveredSession>> {
  const byFile = new Map<string, DiscoveredSession>();
  for (const name of names) {
    const match = TRANSCRIPT_NAME.exec(name);
    if (!match || isTrajectoryFileName(name)) continue;
    const file = join(sessionsDir, name);
    const info = await stat(file);
    if (!info.isFile()) continue;
    const session = newSession(agentId, match[1]!, file);
    Object.assign(session, { exists: true, size: info.size, mtimeMs: info.mtimeMs, archived: match[2] !== undefined });
    Object.assign(session, await readHeader(file));
    byFile.set(file, session);
  }
  return byFile;
}

async function mergeStore(agent: DiscoveredAgent, byFile: Map<string, DiscoveredSession>): Promise<void> {
  agent.storePath = join(agent.sessionsDir, 'sessions.json');
  try {
    const { store, problems } = await readSessionStore(agent.storePath);
    agent.storeProblems = problems;
    for (const [key, entry] of Object.entries(store)) {
      const file = storeEntryFile(agent.sessionsDir, entry);
      let session =
        byFile.get(file) ?? [...byFile.values()].find((s) => !s.archived && s.sessionId === entry.sessionId);
      if (!session) {
        session = newSession(agent.agentId, entry.sessionId, file);
        byFile.set(file, session);
      }
      session.keys.push(key);
      session.key ??= key;
      session.sessionKey ??= key;
      session.storeEntry ??= entry;
      if (isSubagentSessionKey(key)) session.isSubagent = true;
      if (typeof entry.spawnedBy === 'string' && !session.parentKey) session.parentKey = entry.spawnedBy;
    }
  } catch (error) {
    agent.storeError = errorMessage(error);
  }
}

/** The JSONL sessions of an agent, or null when it has no sessions directory. */
export async function discoverJsonlAgent(
  agentsDir: string,
  agentId: string,
): Promise<{ agent: DiscoveredAgent; sessions: DiscoveredSession[] } | null> {
  const sessionsDir = join(agentsDir, agentId, 'sessions');
  let names: string[];
  try {
    names = (await readdir(sessionsDir)).sort();
  } catch {
    return null;
  }
  const agent: DiscoveredAgent = { agentId, sessionsDir, storeProblems: [], sessionCount: 0 };
  const byFile = await listTranscripts(agentId, sessionsDir, names);
  if (names.includes('sessions.json')) await mergeStore(agent, byFile);
  const sessions = [...byFile.values()];
  agent.sessionCount = sessions.length;
  return { agent, sessions };
}

/**
 * One pass over a transcript: entries (non-blank lines after the header), message entries (lines starting
 * `{"type":"message"`, as OpenClaw writes them) and, when asked, the `sessions_spawn` records.
 */
export async function scanJsonlTranscript(
  file: string,
  wanted: { spawns: boolean; hasHeader: boolean },
): Promise<{ entries: number; messages: number; compactions: number; spawns: SpawnRecord[] }> {
  const collector = new SpawnCollector();
  let lines = 0;
  let messages = 0;
  let compactions = 0;
  await readLines(file, (line) => {
    if (line.trim() === '') return;
    lines += 1;
    const head = line.slice(0, 64);
    if (MESSAGE_LINE.test(head)) messages += 1;
    else if (COMPACTION_LINE.test(head)) compactions += 1;
    if (!wanted.spawns || !line.includes('sessions_spawn')) return;
    try {
      const entry = JSON.parse(line) as SessionEntry;
      if (entry && entry.type === 'message' && typeof entry.id === 'string') collector.addEntry(entry);
    } catch {
      // malformed lines are the loader's business, not discovery's
    }
  });
  return {
    entries: Math.max(0, lines - (wanted.hasHeader ? 1 : 0)),
    messages,
    compactions,
    spawns: collector.records,
  };
}
