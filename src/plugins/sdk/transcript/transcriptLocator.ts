/**
 * Which JSONL file holds the transcript an engine names by identity (`{agentId?, sessionKey?, sessionId,
 * storePath?}`), inside an engine host. OpenClaw resolves the same identity through its session store; here the
 * candidates are, in order:
 *
 * 1. `sessionFile` in the target (OpenClaw's file-backed transcript scope field);
 * 2. the transcript the engine host was given for that session id in an engine call (`noteSessionTranscript`);
 * 3. `storePath`: the agent's sessions folder it names — `<agent>/sessions/` for `<agent>/agent/openclaw-agent.sqlite`
 *    (the `sessionTarget.storePath` of a replay lane: its transcripts are in `<lane>/sessions/`) or the folder of a
 *    `sessions.json`;
 * 4. the state dir (`env.OPENCLAW_STATE_DIR`, else `~/.openclaw`): `agents/<agentId>/sessions/`.
 *
 * In a sessions folder the transcript is the `sessionFile` its `sessions.json` records for the session key (when
 * that entry is for this session id), else `<sessionId>.jsonl`. The first candidate that exists wins; none
 * existing means the session has no transcript yet (OpenClaw reads such a session as empty). SQLite session
 * stores are not read: a folder with only an agent database is reported in `notes`.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isRecord } from '../../../common/guards';

export interface TranscriptTarget {
  agentId: string;
  sessionId: string;
  sessionKey?: string;
  storePath?: string;
  sessionFile?: string;
  env?: Record<string, string | undefined>;
}

export interface LocatedTranscript {
  /** the existing transcript file, or undefined when no candidate exists */
  file: string | undefined;
  /** every file looked at, in order */
  tried: string[];
  notes: string[];
}

/** Session id → transcript file, as the engine host learned them from engine calls. */
export class SessionTranscriptRegistry {
  private readonly files = new Map<string, { sessionFile: string; sessionKey?: string }>();

  /** Remember the transcript of a session (the latest call wins). */
  note(sessionId: string, sessionFile: string, sessionKey?: string): void {
    if (!sessionId.trim() || !sessionFile.trim()) return;
    this.files.set(sessionId, { sessionFile, ...(sessionKey ? { sessionKey } : {}) });
  }

  /** Remember what an engine call's params say: `sessionId` with `sessionFile` (and `sessionKey`). */
  noteCallParams(params: unknown): void {
    if (!isRecord(params)) return;
    const { sessionId, sessionFile, sessionKey } = params;
    if (typeof sessionId === 'string' && typeof sessionFile === 'string')
      this.note(sessionId, sessionFile, typeof sessionKey === 'string' ? sessionKey : undefined);
  }

  fileOf(sessionId: string): string | undefined {
    return this.files.get(sessionId)?.sessionFile;
  }
}

/** Placeholders OpenClaw never treats as a concrete store path. */
function concreteStorePath(storePath: string | undefined): string | undefined {
  const trimmed = storePath?.trim();
  if (!trimmed || trimmed === '(multiple)' || trimmed.includes('{agentId}')) return undefined;
  return resolve(trimmed);
}

/** The sessions folder a store path stands for. */
export function sessionsDirOfStore(storePath: string): string {
  const name = basename(storePath);
  if (name === 'sessions.json') return dirname(storePath);
  if (name.endsWith('.sqlite') && basename(dirname(storePath)) === 'agent')
    return join(dirname(dirname(storePath)), 'sessions');
  try {
    if (statSync(storePath).isDirectory()) return storePath;
  } catch {
    // a store file that does not exist (yet): its folder
  }
  return dirname(storePath);
}

function stateDirOf(env: Record<string, string | undefined> | undefined): string {
  const fromEnv = env?.OPENCLAW_STATE_DIR?.trim() || process.env.OPENCLAW_STATE_DIR?.trim();
  if (fromEnv) return resolve(fromEnv.startsWith('~') ? join(homedir(), fromEnv.slice(1)) : fromEnv);
  return join(homedir(), '.openclaw');
}

/** The transcript a `sessions.json` in `dir` records for this session, when it has one. */
function storeEntryFile(dir: string, target: TranscriptTarget): string | undefined {
  if (!target.sessionKey) return undefined;
  const storeFile = join(dir, 'sessions.json');
  if (!existsSync(storeFile)) return undefined;
  let store: unknown;
  try {
    store = JSON.parse(readFileSync(storeFile, 'utf8'));
  } catch {
    return undefined;
  }
  const entry = isRecord(store) ? (store[target.sessionKey] ?? store[target.sessionKey.toLowerCase()]) : undefined;
  if (!isRecord(entry) || entry.sessionId !== target.sessionId || typeof entry.sessionFile !== 'string')
    return undefined;
  return isAbsolute(entry.sessionFile) ? entry.sessionFile : join(dir, entry.sessionFile);
}

function sessionsDirCandidates(dir: string, target: TranscriptTarget): string[] {
  const fromStore = storeEntryFile(dir, target);
  return [...(fromStore ? [fromStore] : []), join(dir, `${target.sessionId}.jsonl`)];
}

export function locateTranscript(target: TranscriptTarget, registry: SessionTranscriptRegistry): LocatedTranscript {
  const candidates: string[] = [];
  const notes: string[] = [];
  if (target.sessionFile?.trim()) candidates.push(resolve(target.sessionFile));
  const noted = registry.fileOf(target.sessionId);
  if (noted) candidates.push(noted);
  const storePath = concreteStorePath(target.storePath);
  if (storePath) candidates.push(...sessionsDirCandidates(sessionsDirOfStore(storePath), target));
  const agentDir = join(stateDirOf(target.env), 'agents', target.agentId);
  candidates.push(...sessionsDirCandidates(join(agentDir, 'sessions'), target));
  const tried = [...new Set(candidates)];
  const file = tried.find((candidate) => {
    try {
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
  if (!file && existsSync(join(agentDir, 'agent', 'openclaw-agent.sqlite')))
    notes.push(
      `${join(agentDir, 'agent', 'openclaw-agent.sqlite')} holds this agent's sessions in SQLite, which ContextScope's openclaw/plugin-sdk shims do not read`,
    );
  return { file, tried, notes };
}
