/**
 * `contextscope compare <input> [other]`: lanes side by side per turn (tokens/budget, kept·summarized·dropped,
 * events, `≠` where the lanes differ in what they assembled), then the findings; `--turn <n>` lists that turn's
 * messages aligned across lanes. With two recordings of the same session (or a recording and a session to replay
 * fresh) it shows, lane by lane, the turns where the same engine now assembles something different; --fail-on-diff
 * exits 1 when any does, --fail-on when selected findings occur, so plugin authors can gate CI on their engine.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  alignedTurnJson,
  compareRecordingLanes,
  compareRows,
  formatAlignedTurn,
  formatCompareTable,
  formatProblemLine,
  formatRecordingComparison,
  importRecording,
  selectFailingFindings,
  type Recording,
} from '../../replay';
import { compareLanes, compareRecordings, turnCountOf, type CompareInput } from '../../view';
import type { CliHost } from '../cliHost';
import {
  addReplayOptions,
  CliUsageError,
  EXIT,
  EXIT_CODES_HELP,
  failCommand,
  LANE_SPEC_HELP,
  parseFailOn,
  runReplayFromCli,
  type ReplayCliOptions,
} from './replay';

interface CompareCliOptions extends Omit<ReplayCliOptions, 'json'> {
  json?: boolean;
  maxFindings: string;
  turn?: string;
  onlyDiffering?: boolean;
  failOnDiff?: boolean;
  unfold?: boolean;
  changed?: boolean;
}

function looksLikeRecording(path: string): boolean {
  if (!/\.json$/i.test(path)) return false;
  try {
    const head = readFileSync(resolve(path), 'utf8').slice(0, 200);
    return /"schemaVersion"\s*:/.test(head);
  } catch {
    return false;
  }
}

async function loadInput(input: string, options: CompareCliOptions, host: CliHost): Promise<Recording> {
  if (!looksLikeRecording(input)) {
    return runReplayFromCli(input, { ...options, json: undefined } as ReplayCliOptions, host, options.json === true);
  }
  try {
    return importRecording(readFileSync(resolve(input), 'utf8'), resolve(input));
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
}

/** `--turn <n>` (1-based, as shown) as a 0-based turn of `input`, or null without --turn. */
function parseTurn(value: string | undefined, input: CompareInput): number | null {
  if (value === undefined) return null;
  const count = turnCountOf(input);
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > count) {
    throw new CliUsageError(
      `--turn ${value}: give a turn number from 1 to ${count} (turns are numbered from 1, as the table shows)`,
    );
  }
  return n - 1;
}

/** The findings (of one turn with --turn) after the table. */
function printFindings(recording: Recording, turn: number | null, options: CompareCliOptions, host: CliHost): void {
  const max = Math.max(0, Number(options.maxFindings) || 0);
  const findings = turn === null ? recording.findings : recording.findings.filter((f) => f.turn === turn);
  const where = turn === null ? '' : ` at turn ${turn + 1}`;
  if (findings.length === 0) {
    host.out(`\nNo findings${where}.\n`);
    return;
  }
  host.out(`\nFindings${where} (${findings.length}):\n`);
  for (const f of findings.slice(0, max)) {
    const turn = f.turn === null || f.turn === undefined ? '–' : f.turn + 1;
    host.out(`  ${f.severity.padEnd(7)} ${f.code.padEnd(20)} ${f.lane} turn ${turn}: ${f.message}\n`);
  }
  if (findings.length > max) host.out(`  … ${findings.length - max} more (use --json for all)\n`);
}

function turnText(input: CompareInput, turn: number, options: CompareCliOptions): string {
  return formatAlignedTurn(input, turn, { unfold: options.unfold === true, changedOnly: options.changed === true });
}

/** One recording: the per-turn table (or one turn's rows) and its findings. */
function showLanes(recording: Recording, options: CompareCliOptions, host: CliHost): CompareInput {
  const input = compareLanes(recording);
  const turn = parseTurn(options.turn, input);
  const onlyDiffering = options.onlyDiffering === true;
  if (options.json) {
    const rows = compareRows(input).filter((row) => !onlyDiffering || row.differs);
    const failing = selectFailingFindings(recording.findings, parseFailOn(options.failOn)).length;
    const body = turn === null ? { lanes: recording.lanes, rows } : alignedTurnJson(input, turn);
    host.out(`${JSON.stringify({ ...body, findings: recording.findings, failing }, null, 2)}\n`);
    return input;
  }
  for (const lane of recording.lanes) if (lane.error) host.out(`! ${lane.label}: ${lane.error}\n`);
  host.out(turn === null ? formatCompareTable(input, { onlyDiffering }) : turnText(input, turn, options));
  // the count the app's Replay header shows, before the findings list
  if (turn === null) host.out(`\nProblems: ${formatProblemLine(recording)}\n`);
  printFindings(recording, turn, options, host);
  return input;
}

/** Two recordings: the turns where each lane now assembles something different (or one turn's rows). */
function showRecordings(
  old: Recording,
  next: Recording,
  names: { old: string; new: string },
  options: CompareCliOptions,
  host: CliHost,
): CompareInput {
  const pair = compareRecordings(old, next);
  if (!pair.ok) throw new CliUsageError(pair.problem.message);
  const { input } = pair;
  const turn = parseTurn(options.turn, input);
  const comparison = compareRecordingLanes(input, pair.onlyOld, pair.onlyNew);
  if (options.json) {
    const body = turn === null ? comparison : { ...comparison, turn: alignedTurnJson(input, turn) };
    host.out(`${JSON.stringify(body, null, 2)}\n`);
  } else if (turn !== null) host.out(turnText(input, turn, options));
  else {
    host.out(formatRecordingComparison(comparison, names));
    if (comparison.differingTurns > 0) host.out(`\n${formatCompareTable(input, { onlyDiffering: true })}`);
  }
  return input;
}

async function run(input: string, other: string | undefined, options: CompareCliOptions, host: CliHost) {
  const first = await loadInput(input, options, host);
  const second = other !== undefined ? await loadInput(other, options, host) : null;
  const compared = second
    ? showRecordings(first, second, { old: basename(input), new: basename(other!) }, options, host)
    : showLanes(first, options, host);
  const latest = second ?? first;
  const failing = selectFailingFindings(latest.findings, parseFailOn(options.failOn));
  if (failing.length > 0) {
    host.err(`${failing.length} finding(s) matched --fail-on ${options.failOn}\n`);
    process.exitCode = EXIT.findings;
  }
  if (options.failOnDiff) {
    const differing = compareRows(compared).filter((row) => row.differs).length;
    if (differing > 0) {
      host.err(`${differing} turn(s) differ (--fail-on-diff)\n`);
      process.exitCode = EXIT.findings;
    }
  }
}

export function register(program: Command, host: CliHost): void {
  const command = program
    .command('compare')
    .argument('<input>', 'a session .jsonl file or folder to replay, or a recording .json written by `replay --json`')
    .argument('[other]', 'a second recording (or session to replay) of the same session: what changed, lane by lane')
    .description('print lanes side by side per turn, or what changed between two recordings (for plugin CI)');
  addReplayOptions(command)
    .option('--json', 'print the comparison as JSON instead of text')
    .option('--turn <n>', 'list the messages of turn n aligned across lanes, a status word per lane')
    .option('--only-differing', 'keep the per-turn table to the turns where the lanes differ in what they assembled')
    .option('--unfold', 'with --turn: list every message (runs every lane agrees on are folded otherwise)')
    .option('--changed', 'with --turn: only the messages some lane changed since its previous turn')
    .option('--fail-on-diff', 'exit 1 when any turn differs (two recordings: the same lane assembles differently)')
    .option('--max-findings <n>', 'findings listed after the table', '20')
    .addHelpText(
      'after',
      `${LANE_SPEC_HELP}\n\nFail-on: comma-separated finding codes (e.g. noop-compaction,orphaned-tool-call) or a severity\n  (warning = warnings and errors, error = errors only).\n${EXIT_CODES_HELP}\n  --fail-on-diff also exits 1 when a turn differs.`,
    )
    .action(async (input: string, other: string | undefined, options: CompareCliOptions) => {
      try {
        await run(input, other, options, host);
      } catch (error) {
        failCommand(error, host);
      }
    });
}
