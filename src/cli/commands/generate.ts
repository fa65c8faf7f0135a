/**
 * `contextscope generate`: seeded synthetic OpenClaw sessions written as a state dir — JSONL
 * (`agents/<agent>/sessions/`, OpenClaw up to 2026.7.x) or, with `--storage sqlite`, the databases of OpenClaw
 * 2026.8+ (`agents/<agent>/agent/openclaw-agent.sqlite` and `state/openclaw.sqlite`).
 */
import { InvalidArgumentError, type Command } from 'commander';
import {
  generateSession,
  SessionTreeIndex,
  writeGeneratedSessions,
  type GeneratedSessionSet,
  type WrittenSessionSet,
} from '../../transcripts';
import { sessionCounts, type SessionCounts } from '../../view';
import type { CliHost } from '../cliHost';

function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
      throw new InvalidArgumentError(`${name} must be a positive integer, got "${value}".`);
    }
    return n;
  };
}

function nonNegativeInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) {
      throw new InvalidArgumentError(`${name} must be a non-negative integer, got "${value}".`);
    }
    return n;
  };
}

function isoTimestamp(value: string): string {
  if (!Number.isFinite(Date.parse(value)))
    throw new InvalidArgumentError(`--base-timestamp must be an ISO date, got "${value}".`);
  return new Date(Date.parse(value)).toISOString();
}

export interface GenerateCommandOptions {
  turns: number;
  seed: string;
  out: string;
  agent: string;
  sessionKey?: string;
  subagents?: number | true;
  contextWindow?: number;
  reserveTokens?: number;
  keepRecentTokens?: number;
  compaction: boolean;
  branch?: boolean;
  images: boolean;
  baseTimestamp?: string;
  storage: 'jsonl' | 'sqlite';
  agentSchema?: 19 | 23;
  json?: boolean;
}

function storageChoice(value: string): 'jsonl' | 'sqlite' {
  if (value !== 'jsonl' && value !== 'sqlite')
    throw new InvalidArgumentError(`--storage must be jsonl or sqlite, got "${value}".`);
  return value;
}

function agentSchemaChoice(value: string): 19 | 23 {
  if (value !== '19' && value !== '23')
    throw new InvalidArgumentError(`--agent-schema must be 23 (OpenClaw 2026.9.6) or 19 (2026.8.1), got "${value}".`);
  return value === '19' ? 19 : 23;
}

function formatBytes(chars: number): string {
  return chars >= 1 << 20 ? `${(chars / (1 << 20)).toFixed(2)} MB` : `${Math.round(chars / 1024)} KB`;
}

export function register(program: Command, host: CliHost): void {
  program
    .command('generate')
    .description(
      'write seeded synthetic OpenClaw sessions (coding-assistant turns, tool calls, compactions, a branch, subagents)',
    )
    .requiredOption('--turns <n>', 'user turns on the main branch', positiveInt('--turns'))
    .requiredOption('--out <dir>', 'state directory to write (sessions go to <dir>/agents/<agent>/sessions/)')
    .option('--seed <seed>', 'PRNG seed (same seed + options = same bytes)', '1')
    .option('--agent <id>', 'agent id', 'main')
    .option('--session-key <key>', 'store key of the generated parent session (default agent:<agent>:main)')
    .option(
      '--subagents [count]',
      'add sessions_spawn calls and child sessions (default 3: fork, isolated, one failing)',
      nonNegativeInt('--subagents'),
    )
    .option(
      '--context-window <tokens>',
      'simulated context window for recorded compactions (default 200000)',
      positiveInt('--context-window'),
    )
    .option(
      '--reserve-tokens <tokens>',
      "compaction reserve (default: OpenClaw's effective reserve for the window)",
      nonNegativeInt('--reserve-tokens'),
    )
    .option(
      '--keep-recent-tokens <tokens>',
      'tokens kept after a compaction (default min(20000, (window - reserve) / 2))',
      positiveInt('--keep-recent-tokens'),
    )
    .option('--no-compaction', 'never record a compaction')
    .option('--branch', 'add an abandoned side branch (default: when --turns is 6 or more)')
    .option('--no-branch', 'no side branch')
    .option('--no-images', 'no image blocks')
    .option('--base-timestamp <iso>', 'timestamp of the session start (default 2026-03-02T09:00:00.000Z)', isoTimestamp)
    .option('--storage <kind>', 'jsonl (OpenClaw up to 2026.7) or sqlite (2026.8+)', storageChoice, 'jsonl')
    .option(
      '--agent-schema <n>',
      'with --storage sqlite: agent schema 23 (2026.9.6, default) or 19 (2026.8.1)',
      agentSchemaChoice,
    )
    .option('--json', 'print the written files and statistics as JSON')
    .action(async (options: GenerateCommandOptions) => {
      if (options.agentSchema !== undefined && options.storage !== 'sqlite')
        throw new InvalidArgumentError('--agent-schema needs --storage sqlite.');
      const set = generateSession(generateOptions(options));
      const written = await writeGeneratedSessions(set, options.out, {
        storage: options.storage,
        schemaVersion: options.agentSchema,
      });
      host.out(options.json ? jsonSummary(set, written) : textSummary(set, written));
    });
}

function generateOptions(options: GenerateCommandOptions) {
  return {
    turns: options.turns,
    seed: options.seed,
    agentId: options.agent,
    sessionKey: options.sessionKey,
    subagents: options.subagents === true ? 3 : (options.subagents ?? 0),
    contextWindow: options.contextWindow,
    reserveTokens: options.reserveTokens,
    keepRecentTokens: options.keepRecentTokens,
    compaction: options.compaction,
    branch: options.branch,
    images: options.images,
    baseTimestamp: options.baseTimestamp,
  };
}

/**
 * The parent session's turns and messages as the Sessions list, the Replay header and the HTML report count them
 * (src/view sessionCounts: the active branch), not the generator's own tally of message entries on every branch.
 */
function parentCounts(set: GeneratedSessionSet): SessionCounts {
  const tree = new SessionTreeIndex(set.sessions[0]!.entries);
  return sessionCounts(tree.pathTo(tree.leafId));
}

function jsonSummary(set: GeneratedSessionSet, written: WrittenSessionSet): string {
  const summary = {
    storage: written.storage,
    sessionsDir: written.sessionsDir,
    storePath: written.storePath,
    files: written.files,
    sessionKeys: written.sessionKeys,
    ...(written.storage === 'sqlite' ? { events: written.events, compressedEvents: written.compressedEvents } : {}),
    stats: set.stats,
    /** the parent's turns and messages on its active branch, as the Sessions list counts them */
    counts: parentCounts(set),
  };
  return `${JSON.stringify(summary, null, 2)}\n`;
}

function textSummary(set: GeneratedSessionSet, written: WrittenSessionSet): string {
  const s = set.stats;
  const counts = parentCounts(set);
  const head =
    written.storage === 'sqlite'
      ? `Wrote ${set.sessions.length} session(s) to ${written.storePath} (${written.events} events, ${written.compressedEvents} zstd-compressed) and ${written.files[1]}\n`
      : `Wrote ${written.files.length} session file(s) and sessions.json to ${written.sessionsDir}\n`;
  const parent = written.storage === 'sqlite' ? written.sessionKeys[0]! : set.sessions[0]!.fileName;
  let out =
    head +
    `  ${parent}: ${counts.turns} turns, ${counts.messages} messages, ${formatBytes(s.chars)}, ` +
    `${s.compactions} compaction(s), ${s.branches} side branch(es), ${s.spawns} spawn(s) (${s.failedSpawns} failed)\n`;
  for (const child of set.sessions.slice(1))
    out += `  ${written.storage === 'sqlite' ? child.sessionId : child.fileName}: subagent ${child.sessionKey}\n`;
  return out;
}
