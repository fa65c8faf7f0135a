/** `contextscope session <file>`: load one transcript and report its header, entries, branches and problems. */
import type { Command } from 'commander';
import {
  buildSessionContext,
  describeSessionTree,
  readSessionFile,
  SessionFileError,
  type LoadedSession,
  type SessionProblem,
} from '../../transcripts';
import type { CliHost } from '../cliHost';

export interface SessionReport {
  path: string;
  header: LoadedSession['header'];
  sourceVersion: number;
  headerSynthesized: boolean;
  lines: number;
  entries: number;
  entriesByType: Record<string, number>;
  messagesByRole: Record<string, number>;
  branch: { leafId: string | null; activePathLength: number; branches: number; forkPoints: string[] };
  context: { messages: number; thinkingLevel: string; model: { provider: string; modelId: string } | null };
  problems: SessionProblem[];
}

export function buildSessionReport(session: LoadedSession, leafId?: string): SessionReport {
  const tree = describeSessionTree(session);
  const context = buildSessionContext(session, leafId);
  return {
    path: session.path,
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
    problems: session.problems,
  };
}

function counts(record: Record<string, number>): string {
  const parts = Object.entries(record)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`);
  return parts.length ? parts.join(', ') : '(none)';
}

export function formatSessionReport(r: SessionReport): string {
  const h = r.header;
  const lines = [
    `Session ${h.id}${r.headerSynthesized ? ' (no valid header; made up from the file name)' : ''}`,
    `  file       ${r.path} (${r.lines} lines)`,
    `  version    ${r.sourceVersion === 3 ? '3' : `${r.sourceVersion} (migrated to 3 in memory)`}`,
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
  if (r.problems.length === 0) lines.push('Problems     none');
  else {
    lines.push(`Problems     ${r.problems.length}`);
    for (const p of r.problems) lines.push(`  ${r.path}:${p.line}: ${p.severity} ${p.code}: ${p.message}`);
  }
  return `${lines.join('\n')}\n`;
}

export function register(program: Command, host: CliHost): void {
  program
    .command('session')
    .description('load an OpenClaw session transcript (JSONL) and report its header, entries, branches and problems')
    .argument('<file>', 'path of the .jsonl transcript')
    .option('--json', 'print the report as JSON')
    .option('--tolerant', 'skip bad lines and list every problem instead of stopping at the first one')
    .option('--leaf <id>', 'build the context for this leaf instead of the current one')
    .action(async (file: string, options: { json?: boolean; tolerant?: boolean; leaf?: string }) => {
      let session: LoadedSession;
      try {
        session = await readSessionFile(file, { mode: options.tolerant ? 'tolerant' : 'strict' });
      } catch (error) {
        if (!(error instanceof SessionFileError)) throw error;
        const hint =
          error.code === 'read_error'
            ? 'Check the path.'
            : 'Run with --tolerant to load what can be loaded and list every problem.';
        // Thrown, not command.error(): the shell prints it on stderr and exits 1 without a usage hint.
        throw new Error(`${error.message}\n${hint}`, { cause: error });
      }
      if (options.leaf && !session.entries.some((e) => e.id === options.leaf)) {
        throw new Error(
          `--leaf ${options.leaf}: no entry with that id in ${file}. Run without --leaf to see the current leaf.`,
        );
      }
      const report = buildSessionReport(session, options.leaf);
      host.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatSessionReport(report));
    });
}
