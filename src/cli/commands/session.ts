/**
 * `contextscope session <file>` or `contextscope session --state-dir <dir> --session <key or id>`: load one
 * session (a JSONL transcript, or a session of a state dir in either storage) and report its header, entries,
 * branches and problems — the same report for both storages.
 */
import type { Command } from 'commander';
import {
  buildSessionContext,
  countToolPairing,
  describeSessionTree,
  getActivePath,
  readSessionTrajectory,
  loadSession,
  resolveStateDir,
  SessionFileError,
  SqliteSessionError,
  type LoadedSession,
  type SessionProblem,
  type SessionRef,
  type ToolPairing,
} from '../../transcripts';
import type { CliHost } from '../cliHost';

/** Where the session came from: the file, or the database, key and generations of a SQLite session. */
export type SessionReportStorage =
  | { kind: 'jsonl'; file: string }
  | {
      kind: 'sqlite';
      database: string;
      agentId: string;
      sessionKey: string | null;
      sessionId: string;
      schemaVersion: number;
      readStrategy: string;
      windows: {
        sessionId: string;
        reason: string | null;
        firstEntryIndex: number;
        entryCount: number;
        sourceVersion: number;
      }[];
      archive?: { name: string; reason: string };
    };

export interface SessionReport {
  path: string;
  storage: SessionReportStorage;
  header: LoadedSession['header'];
  sourceVersion: number;
  headerSynthesized: boolean;
  lines: number;
  entries: number;
  entriesByType: Record<string, number>;
  messagesByRole: Record<string, number>;
  branch: { leafId: string | null; activePathLength: number; branches: number; forkPoints: string[] };
  context: { messages: number; thinkingLevel: string; model: { provider: string; modelId: string } | null };
  /** tool results without a call and calls without a result on the active branch */
  toolPairing: ToolPairing & { firstOrphanResultEntryId?: string };
  /** the runtime trajectory OpenClaw recorded for the session (null: none; undefined: not looked up) */
  trajectory?: { location: string; events: number; contexts: number } | null;
  problems: SessionProblem[];
}

function activeBranchPairing(session: LoadedSession, leafId?: string): SessionReport['toolPairing'] {
  const entries = getActivePath(session, leafId).filter((e) => e.type === 'message');
  const pairing = countToolPairing(entries.map((e) => e.message));
  const first = pairing.firstOrphanResult ? entries[pairing.firstOrphanResult.index]?.id : undefined;
  return { ...pairing, ...(first ? { firstOrphanResultEntryId: first } : {}) };
}

function reportStorage(session: LoadedSession): SessionReportStorage {
  const s = session.storage;
  if (s?.kind !== 'sqlite') return { kind: 'jsonl', file: s?.file ?? session.path };
  return {
    kind: 'sqlite',
    database: s.database,
    agentId: s.agentId,
    sessionKey: s.sessionKey,
    sessionId: s.sessionId,
    schemaVersion: s.schemaVersion,
    readStrategy: s.readStrategy,
    windows: s.windows.map((w) => ({
      sessionId: w.sessionId,
      reason: w.reason,
      firstEntryIndex: w.firstEntryIndex,
      entryCount: w.entryCount,
      sourceVersion: w.sourceVersion,
    })),
    ...(s.archive ? { archive: { name: s.archive.name, reason: s.archive.reason } } : {}),
  };
}

export function buildSessionReport(session: LoadedSession, leafId?: string): SessionReport {
  const tree = describeSessionTree(session);
  const context = buildSessionContext(session, leafId);
  return {
    path: session.path,
    storage: reportStorage(session),
    header: session.header,
    sourceVersion: session.sourceVersion,
    headerSynthesized: session.headerSynthesized,
    lines: session.lineCount,
    entries: tree.entryCount,
    entriesByType: tree.entriesByType,
    messagesByRole: tree.messagesByRole,
    branch: {
      leafId: leafId ?? tree.leafId,
      activePathLength: tree.activePathLength,
      branches: tree.branchCount,
      forkPoints: tree.forkPoints,
    },
    context: { messages: context.messages.length, thinkingLevel: context.thinkingLevel, model: context.model },
    toolPairing: activeBranchPairing(session, leafId),
    problems: session.problems,
  };
}

function counts(record: Record<string, number>): string {
  const parts = Object.entries(record)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`);
  return parts.length ? parts.join(', ') : '(none)';
}

function versionLine(version: number): string {
  if (version === 3) return '3';
  if (version === 4) return '4 (v3 entries; escaped runtime context at the model boundary)';
  return `${version} (migrated to 3 in memory)`;
}

function storageLines(r: SessionReport): string[] {
  const s = r.storage;
  if (s.kind === 'jsonl') return [`  file       ${r.path} (${r.lines} lines)`];
  const lines = [
    `  database   ${s.database} (agent ${s.agentId}, schema ${s.schemaVersion}, read via ${s.readStrategy})`,
  ];
  if (s.archive) lines.push(`  archive    ${s.archive.name} (${s.archive.reason})`);
  else lines.push(`  key        ${s.sessionKey ?? '(none)'} (${r.lines} rows, ${s.windows.length} generation(s))`);
  if (s.windows.length > 1) {
    for (const w of s.windows)
      lines.push(
        `    ${w.sessionId}  entries ${w.firstEntryIndex}-${w.firstEntryIndex + w.entryCount - 1}${w.reason ? ` (${w.reason})` : ''}`,
      );
  }
  return lines;
}

export function formatSessionReport(r: SessionReport): string {
  const h = r.header;
  const where = r.storage.kind === 'sqlite' ? 'seq ' : '';
  const lines = [
    `Session ${h.id}${r.headerSynthesized ? ' (no valid header; made up from the file name)' : ''}`,
    ...storageLines(r),
    `  version    ${versionLine(r.sourceVersion)}`,
    `  started    ${h.timestamp}`,
    `  cwd        ${h.cwd || '(none)'}`,
  ];
  if (h.parentSession) lines.push(`  parent     ${h.parentSession}`);
  lines.push(
    `Entries      ${r.entries}: ${counts(r.entriesByType)}`,
    `Messages     ${counts(r.messagesByRole)}`,
    `Branches     ${r.branch.branches} (leaf ${r.branch.leafId ?? '(none)'}, active path ${r.branch.activePathLength} entries` +
      `${r.branch.forkPoints.length ? `, forks at ${r.branch.forkPoints.join(', ')}` : ''})`,
    `Context      ${r.context.messages} messages, thinking ${r.context.thinkingLevel}, model ${r.context.model ? `${r.context.model.provider}/${r.context.model.modelId}` : '(unknown)'}`,
  );
  const t = r.toolPairing;
  lines.push(
    `Tool pairs   ${t.orphanToolResults} orphan tool result(s)` +
      (t.firstOrphanResult
        ? ` (first: entry ${t.firstOrphanResultEntryId ?? '?'}, toolCallId ${t.firstOrphanResult.toolCallId})`
        : '') +
      `, ${t.unansweredToolCalls} tool call(s) without a result`,
  );
  if (r.trajectory !== undefined)
    lines.push(
      r.trajectory
        ? `Trajectory   ${r.trajectory.location}: ${r.trajectory.events} events, ${r.trajectory.contexts} context.compiled (replay --against-trajectory compares them)`
        : 'Trajectory   none recorded',
    );
  if (r.problems.length === 0) lines.push('Problems     none');
  else {
    lines.push(`Problems     ${r.problems.length}`);
    for (const p of r.problems) lines.push(`  ${r.path}:${where}${p.line}: ${p.severity} ${p.code}: ${p.message}`);
  }
  return `${lines.join('\n')}\n`;
}

interface SessionCommandOptions {
  json?: boolean;
  tolerant?: boolean;
  leaf?: string;
  stateDir?: string;
  session?: string;
  agent?: string;
}

function sessionRef(file: string | undefined, options: SessionCommandOptions): SessionRef {
  if (file && options.session) throw new Error('Give a transcript file or --session <key or id>, not both.');
  if (file) return file;
  if (!options.session) {
    throw new Error('Name the session: a transcript file, or --session <key or id> (with --state-dir <dir>).');
  }
  return { stateDir: resolveStateDir(options.stateDir), agentId: options.agent, session: options.session };
}

async function load(ref: SessionRef, tolerant: boolean): Promise<LoadedSession> {
  try {
    return await loadSession(ref, { mode: tolerant ? 'tolerant' : 'strict' });
  } catch (error) {
    if (error instanceof SqliteSessionError) throw new Error(error.message, { cause: error });
    if (!(error instanceof SessionFileError)) throw error;
    const hint =
      error.code === 'read_error'
        ? '\nCheck the path.'
        : error.code === 'unsupported_encoding'
          ? ''
          : '\nRun with --tolerant to load what can be loaded and list every problem.';
    // Thrown, not command.error(): the shell prints it on stderr and exits 2 (unreadable input), no usage hint.
    throw new Error(`${error.message}${hint}`, { cause: error });
  }
}

async function trajectoryFacts(session: LoadedSession): Promise<SessionReport['trajectory']> {
  const trajectory = await readSessionTrajectory(session);
  if (!trajectory) return null;
  const location = trajectory.source.storage === 'jsonl' ? trajectory.source.file : trajectory.source.database;
  const contexts = trajectory.events.filter((e) => e.type === 'context.compiled').length;
  return { location, events: trajectory.events.length, contexts };
}

export function register(program: Command, host: CliHost): void {
  program
    .command('session')
    .description(
      'load an OpenClaw session (a JSONL transcript, or a session of a state dir in JSONL or SQLite) and report its header, entries, branches and problems',
    )
    .argument('[file]', 'path of a .jsonl transcript')
    .option('--state-dir <dir>', "OpenClaw's state directory (default $OPENCLAW_STATE_DIR, else ~/.openclaw)")
    .option('--session <key or id>', 'a session of the state dir: key, session id, archive name or file name')
    .option('--agent <id>', 'only look at this agent (when a key or id is in several)')
    .option('--json', 'print the report as JSON')
    .option('--tolerant', 'skip bad lines and list every problem instead of stopping at the first one')
    .option('--leaf <id>', 'build the context for this leaf instead of the current one')
    .action(async (file: string | undefined, options: SessionCommandOptions) => {
      const ref = sessionRef(file, options);
      const session = await load(ref, options.tolerant === true);
      if (options.leaf && !session.entries.some((e) => e.id === options.leaf)) {
        throw new Error(
          `--leaf ${options.leaf}: no entry with that id in ${session.path}. Run without --leaf to see the current leaf.`,
        );
      }
      const report = buildSessionReport(session, options.leaf);
      report.trajectory = await trajectoryFacts(session);
      host.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatSessionReport(report));
    });
}
