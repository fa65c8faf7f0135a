/**
 * `contextscope sessions [--state-dir <dir>] [--json]`: every session of an OpenClaw state dir, JSONL and SQLite
 * alike — agent, key, id, storage, entries, messages, compactions, size, last update, parent and children — with
 * subagent children under their parent (linked by sessions.json `spawnedBy`, the parent's `sessions_spawn` results,
 * `subagents/runs.json` and SQLite's `subagent_runs`).
 */
import type { Command } from 'commander';
import { createSessionCountCache, locatorOf } from '../../replay';
import {
  discoverSessions,
  type DiscoveredAgent,
  type DiscoveredSession,
  type DiscoveryResult,
} from '../../transcripts';
import { SESSION_COUNT_DEFINITIONS } from '../../view';
import type { CliHost } from '../cliHost';

export interface ListedSession {
  agentId: string;
  sessionKey: string | null;
  sessionId: string;
  storage: 'jsonl' | 'sqlite';
  /** counts as the Sessions list shows them (src/view sessionCounts); null when the transcript cannot be read */
  entries: number | null;
  turns: number | null;
  messages: number | null;
  compactions: number | null;
  /** bytes of the transcript (SQLite: of its events) */
  size: number;
  parentSessionKey: string | null;
  childSessionKeys: string[];
  isSubagent: boolean;
  archived: boolean;
  /** false when the store names a transcript that is not there, or a key has no events */
  exists: boolean;
  headerVersion: number | null;
  startedAt: string | null;
  updatedAt: number;
  /** JSONL: the transcript; SQLite: the agent database */
  file: string;
  /** SQLite: the generations, oldest first */
  windows?: { sessionId: string; reason: string | null; events: number; storage: string }[];
  /** SQLite: a reset/deleted archive */
  archive?: { name: string; reason: string };
  spawns: number;
  /** why the transcript is no session a replay can read (the replay's refusal: file and line); counts are null */
  problem?: string;
}

export interface SessionsReport {
  stateDir: string;
  agents: {
    agentId: string;
    storage: ('jsonl' | 'sqlite')[];
    sessions: number;
    database?: string;
    schemaVersion?: number;
    openclawVersion?: string | null;
    problems: string[];
  }[];
  sessions: ListedSession[];
}

function listed(s: DiscoveredSession): ListedSession {
  return {
    agentId: s.agentId,
    sessionKey: s.sessionKey,
    sessionId: s.sessionId,
    storage: s.storage,
    entries: s.entries,
    turns: null,
    messages: s.messages,
    compactions: s.compactions,
    size: s.size,
    parentSessionKey: s.parentSessionKey,
    childSessionKeys: [...s.childKeys],
    isSubagent: s.isSubagent,
    archived: s.archived,
    exists: s.exists,
    headerVersion: s.header?.version ?? null,
    startedAt: s.header?.timestamp ?? null,
    updatedAt: Math.round(s.mtimeMs),
    file: s.file,
    ...(s.sqlite && !s.sqlite.archive
      ? {
          windows: s.sqlite.windows.map((w) => ({
            sessionId: w.sessionId,
            reason: w.reason,
            events: w.events,
            storage: w.storage,
          })),
        }
      : {}),
    ...(s.sqlite?.archive ? { archive: { name: s.sqlite.archive.name, reason: s.sqlite.archive.reason } } : {}),
    spawns: s.spawns.length,
  };
}

function agentProblems(a: DiscoveredAgent): string[] {
  return [
    ...(a.databaseError ? [a.databaseError] : []),
    ...(a.storeError ? [a.storeError] : []),
    ...a.storeProblems.map((p) => `sessions.json ${p.key}: ${p.message}`),
  ];
}

export function buildSessionsReport(found: DiscoveryResult): SessionsReport {
  const sessions = found.sessions.map(listed);
  return {
    stateDir: found.stateDir,
    agents: found.agents.map((a) => ({
      agentId: a.agentId,
      storage: (['jsonl', 'sqlite'] as const).filter((k) =>
        sessions.some((s) => s.agentId === a.agentId && s.storage === k),
      ),
      sessions: a.sessionCount,
      ...(a.database
        ? { database: a.database, schemaVersion: a.schemaVersion, openclawVersion: a.openclawVersion }
        : {}),
      problems: agentProblems(a),
    })),
    sessions,
  };
}

/**
 * Each existing session's entries, turns and messages read as the Sessions list reads them (countSessionFile: the
 * active branch, src/view sessionCounts), or the reason it cannot be replayed instead of counts.
 */
export async function addSessionCounts(report: SessionsReport, found: DiscoveryResult): Promise<void> {
  const cache = createSessionCountCache();
  for (const [i, s] of found.sessions.entries()) {
    const row = report.sessions[i]!;
    if (!s.exists) continue;
    const counts = await cache.get(locatorOf(s), s.size, s.mtimeMs);
    if ('problem' in counts)
      Object.assign(row, { entries: null, turns: null, messages: null, problem: counts.problem });
    else Object.assign(row, { entries: counts.entries, turns: counts.turns, messages: counts.messages });
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function sessionLine(s: ListedSession, depth: number): string {
  const name = s.archive
    ? `${s.archive.name} (${s.archive.reason} archive of ${s.sessionKey})`
    : (s.sessionKey ?? '(no key)');
  const counts =
    s.entries === null ? '' : `  ${s.turns ?? '?'} turns, ${s.messages ?? '?'} messages, ${s.entries} entries`;
  const compactions = s.compactions ? `, ${s.compactions} compaction(s)` : '';
  const updated = s.updatedAt > 0 ? `, updated ${new Date(s.updatedAt).toISOString()}` : '';
  const size = s.exists ? `, ${formatBytes(s.size)}` : '';
  const children = s.childSessionKeys.length > 0 ? `, ${s.childSessionKeys.length} child(ren)` : '';
  const windows = s.windows && s.windows.length > 1 ? `, ${s.windows.length} generations` : '';
  const flags = [s.exists ? '' : 'missing', s.archived && !s.archive ? 'archived' : ''].filter(Boolean).join(', ');
  const line = `${'  '.repeat(depth + 1)}${name}  ${s.sessionId}  ${s.storage}${counts}${compactions}${windows}${size}${updated}${children}${flags ? `  [${flags}]` : ''}`;
  return s.problem ? `${line}\n${'  '.repeat(depth + 2)}cannot replay: ${s.problem}` : line;
}

export function formatSessionsReport(r: SessionsReport): string {
  const lines = [`State dir ${r.stateDir}: ${r.sessions.length} session(s) in ${r.agents.length} agent(s)`];
  for (const a of r.agents) {
    const db = a.database ? `, database schema ${a.schemaVersion} (${a.openclawVersion ?? 'unknown writer'})` : '';
    lines.push(`Agent ${a.agentId}: ${a.sessions} session(s), ${a.storage.join(' + ') || 'no sessions'}${db}`);
    for (const p of a.problems) lines.push(`  problem: ${p}`);
    const own = r.sessions.filter((s) => s.agentId === a.agentId);
    const printed = new Set<ListedSession>();
    const print = (s: ListedSession, depth: number) => {
      if (printed.has(s)) return;
      printed.add(s);
      lines.push(sessionLine(s, depth));
      const children = own.filter(
        (c) =>
          !c.archive && c.parentSessionKey !== null && c.parentSessionKey === s.sessionKey && c.storage === s.storage,
      );
      for (const c of children) print(c, depth + 1);
    };
    for (const s of own)
      if (!own.some((p) => p !== s && !p.archive && p.sessionKey === s.parentSessionKey && p.storage === s.storage))
        print(s, 0);
    for (const s of own) print(s, 0);
  }
  lines.push(`turns: ${SESSION_COUNT_DEFINITIONS.turns}; messages: ${SESSION_COUNT_DEFINITIONS.messages}`);
  return `${lines.join('\n')}\n`;
}

export function register(program: Command, host: CliHost): void {
  program
    .command('sessions')
    .description('list the sessions of an OpenClaw state dir (JSONL and SQLite), subagent children under their parent')
    .option('--state-dir <dir>', "OpenClaw's state directory (default $OPENCLAW_STATE_DIR, else ~/.openclaw)")
    .option('--json', 'print the list as JSON')
    .action(async (options: { stateDir?: string; json?: boolean }) => {
      const found = await discoverSessions({ stateDir: options.stateDir });
      const report = buildSessionsReport(found);
      await addSessionCounts(report, found);
      host.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatSessionsReport(report));
    });
}
