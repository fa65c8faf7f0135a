/**
 * What `contextscope replay <session>`, `replay.start {sessionPath}` and the Sessions view accept, and how it is
 * loaded: a transcript file; a SQLite session as `<agent database>#<session key or id>` (a session locator, what the
 * Sessions view lists for SQLite sessions); or a directory — a sessions directory (with or without sessions.json) or
 * an OpenClaw state dir. A directory names a session only when that is unambiguous: its one top-level
 * (non-subagent, non-archived) session, else OpenClaw's main session (`agent:main:main`, the key OpenClaw's
 * `resolveMainSessionKey` gives without agents or session.mainKey configured); otherwise the sessions are listed
 * in the error (never the newest by mtime). `openReplaySession` also takes `{stateDir, session}` (the CLI's
 * --state-dir --session).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import {
  discoverSessions,
  isSubagentSessionKey,
  isTrajectoryFileName,
  loadSession,
  readSessionStore,
  resolveStateDir,
  storeEntryFile,
  type LoadedSession,
  type SessionRef,
} from '../../transcripts';

export interface ResolvedSessionInput {
  /** a transcript file, or a SQLite session locator */
  file: string;
  /** what to pass to loadSession */
  ref: SessionRef;
  /** how the session was chosen, for a person */
  note?: string;
}

const LOCATOR = /^(.+\.sqlite)#(.+)$/;

/** The locator of a SQLite session: its agent database and the key (or id) that names it there. */
export function sqliteSessionLocator(database: string, name: string): string {
  return `${database}#${name}`;
}

/**
 * The session a locator (`<stateDir>/agents/<agentId>/agent/openclaw-agent.sqlite#name`) names: `name` among the
 * SQLite sessions of that agent only — a JSONL session of the same key (a state dir OpenClaw 2026.8+ migrated, or
 * one holding both storages) is not what a database locator means.
 */
export function parseSqliteSessionLocator(
  input: string,
): { stateDir: string; agentId: string; storage: 'sqlite'; session: string } | null {
  const match = LOCATOR.exec(input);
  if (!match) return null;
  const database = resolve(match[1]!);
  const agentDir = dirname(database);
  return {
    stateDir: dirname(dirname(dirname(agentDir))),
    agentId: basename(dirname(agentDir)),
    storage: 'sqlite',
    session: match[2]!,
  };
}

/**
 * The locator a discovered session is opened by, naming that session and no other: its file for JSONL;
 * `<database>#<key>` for a live SQLite session (a key names one live session of a database; its id when it has no
 * key), `<database>#<archive name>` for a reset or deleted archive (its key names the live session).
 */
export function locatorOf(session: {
  storage: 'jsonl' | 'sqlite';
  file: string;
  sessionKey: string | null;
  sessionId: string;
  sqlite?: { archive?: { name: string } };
}): string {
  if (session.storage !== 'sqlite') return session.file;
  const archive = session.sqlite?.archive?.name;
  return sqliteSessionLocator(session.file, archive ?? session.sessionKey ?? session.sessionId);
}

export async function resolveSessionInput(input: string): Promise<ResolvedSessionInput> {
  const locator = parseSqliteSessionLocator(input);
  if (locator) return { file: input, ref: locator };
  const path = resolve(input);
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new Error(
      `Session ${path} does not exist. Pass a session .jsonl file, <openclaw-agent.sqlite>#<session key>, or a folder holding sessions.`,
    );
  }
  if (stat.isFile()) return { file: path, ref: path };
  if (!stat.isDirectory()) throw new Error(`Session ${path} is neither a file nor a folder.`);
  const candidates = await stateDirCandidates(path);
  if (candidates.length === 0) {
    throw new Error(
      `No sessions found in ${path} (neither *.jsonl transcripts nor OpenClaw SQLite sessions). Pass a session file, a sessions folder or an OpenClaw state dir.`,
    );
  }
  if (candidates.length === 1) return { file: candidates[0]!.file, ref: candidates[0]!.ref };
  const main = candidates.find((c) => c.key === MAIN_SESSION_KEY);
  if (main) {
    return {
      file: main.file,
      ref: main.ref,
      note: `${candidates.length} sessions in ${path}; replaying OpenClaw's main session ${MAIN_SESSION_KEY} (${main.file}). Pass --session <key or id> for another (contextscope sessions --state-dir lists them).`,
    };
  }
  throw new Error(describeAmbiguousFolder(path, candidates));
}

/** OpenClaw's main session key without `agents.list` or `session.mainKey` configured. */
export const MAIN_SESSION_KEY = 'agent:main:main';

interface Candidate {
  file: string;
  ref: SessionRef;
  mtimeMs: number;
  key: string | null;
}

function describeAmbiguousFolder(path: string, candidates: Candidate[]): string {
  const listed = [...candidates]
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
    .slice(0, 10)
    .map((c) => `  ${c.key ?? '(no key)'}  ${c.file}  updated ${new Date(c.mtimeMs).toISOString()}`);
  const more = candidates.length > 10 ? [`  … and ${candidates.length - 10} more`] : [];
  return [
    `${candidates.length} sessions in ${path} and none is OpenClaw's main session (${MAIN_SESSION_KEY}); which one?`,
    ...listed,
    ...more,
    'Pass the transcript file, or --state-dir <dir> --session <key or id>.',
  ].join('\n');
}

/** Top-level sessions of a state dir (either storage), else the transcripts of a bare sessions folder. */
async function stateDirCandidates(path: string): Promise<Candidate[]> {
  const discovered = await discoverSessions({ stateDir: path, scanSpawns: false });
  const sessions = discovered.sessions.filter((s) => s.exists && !s.isSubagent && !s.archived);
  if (sessions.length > 0)
    return sessions.map((s) => ({ file: locatorOf(s), ref: s.ref, mtimeMs: s.mtimeMs, key: s.sessionKey }));
  // a bare sessions folder: leave out the children sessions.json marks as subagents
  const subagentFiles = new Set<string>();
  const keyOfFile = new Map<string, string>();
  try {
    const { store } = await readSessionStore(join(path, 'sessions.json'));
    for (const [key, entry] of Object.entries(store)) {
      const file = storeEntryFile(path, entry);
      if (isSubagentSessionKey(key)) subagentFiles.add(file);
      if (!keyOfFile.has(file)) keyOfFile.set(file, key);
    }
  } catch {
    // no store: every transcript is a candidate
  }
  const names = (await readdir(path)).filter(
    (n) => /\.jsonl$/.test(n) && !isTrajectoryFileName(n) && !subagentFiles.has(join(path, n)),
  );
  return names.map((name) => {
    const file = join(path, name);
    return { file, ref: file, mtimeMs: statSync(file).mtimeMs, key: keyOfFile.get(file) ?? null };
  });
}

/** The session a replay runs on, read tolerantly from either storage, with how it was chosen. */
export async function openReplaySession(
  input: string | { stateDir?: string; session: string; agentId?: string },
): Promise<{ loaded: LoadedSession; file: string; note?: string }> {
  if (typeof input !== 'string') {
    const stateDir = resolveStateDir(input.stateDir);
    const loaded = await loadSession(
      { stateDir, session: input.session, ...(input.agentId ? { agentId: input.agentId } : {}) },
      { mode: 'tolerant' },
    );
    return { loaded, file: loaded.path };
  }
  const resolved = await resolveSessionInput(input);
  const loaded = await loadSession(resolved.ref, { mode: 'tolerant' });
  const unreadable = describeUnreadableSession(loaded);
  if (unreadable) throw new Error(unreadable);
  return { loaded, file: resolved.file, ...(resolved.note ? { note: resolved.note } : {}) };
}

/**
 * Why a loaded input is not a session at all (no valid header and no entry survived: an empty file, binary data,
 * UTF-16 text …), or undefined. A replay of it would report "0 turns" and look like success. `where` names it
 * (default: its path; the Sessions list, whose row already shows the folder, names the file).
 */
export function describeUnreadableSession(
  loaded: LoadedSession,
  where = loaded.path || 'the session',
): string | undefined {
  if (!loaded.headerSynthesized || loaded.entries.length > 0) return undefined;
  const first = loaded.problems[0];
  const encoding = utf16Bom(loaded.path);
  if (encoding)
    return `${where} is ${encoding} text; OpenClaw writes transcripts as UTF-8 JSONL. Convert it (e.g. iconv -f UTF-16 -t UTF-8) and try again.`;
  if (!first) return `${where} is not an OpenClaw session transcript (no session header).`;
  if (first.line === 0) return `${where} is not an OpenClaw session transcript: ${first.message}.`;
  // counts and positions only: the file may hold anything, and none of it is echoed back
  const lines = loaded.lineCount;
  return (
    `${where} is not an OpenClaw session transcript: none of its ${lines} line(s) is a session header or entry ` +
    `(${loaded.problems.length} problem(s); the first, line ${first.line}: ${first.message}).`
  );
}

function utf16Bom(path: string): string | undefined {
  if (!path) return undefined;
  try {
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(2);
      readSync(fd, head, 0, 2, 0);
      if (head[0] === 0xff && head[1] === 0xfe) return 'UTF-16 (little-endian)';
      if (head[0] === 0xfe && head[1] === 0xff) return 'UTF-16 (big-endian)';
    } finally {
      closeSync(fd);
    }
  } catch {
    // not a readable file (a SQLite locator): no encoding to name
  }
  return undefined;
}
