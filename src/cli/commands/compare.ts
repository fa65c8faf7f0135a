/**
 * `contextscope compare <session.jsonl|dir|recording.json> --lane <spec> … [--fail-on <codes|severity>]`: lanes
 * side by side per turn (tokens/budget, kept·summarized·dropped, events), then the findings. Exits 1 when findings
 * selected by --fail-on occur, so plugin authors can gate CI on their engine's behaviour.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { compareTurns, formatCompareTable, importRecording, selectFailingFindings, type Recording } from '../../replay';
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

export function register(program: Command, host: CliHost): void {
  const command = program
    .command('compare')
    .argument('<input>', 'a session .jsonl file or folder to replay, or a recording .json written by `replay --json`')
    .description('print lanes side by side per turn and fail on selected findings (for plugin CI)');
  addReplayOptions(command)
    .option('--json', 'print the comparison rows and findings as JSON instead of a table')
    .option('--max-findings <n>', 'findings listed after the table', '20')
    .addHelpText(
      'after',
      `${LANE_SPEC_HELP}\n\nFail-on: comma-separated finding codes (e.g. noop-compaction,orphaned-tool-call) or a severity\n  (warning = warnings and errors, error = errors only).\n${EXIT_CODES_HELP}`,
    )
    .action(async (input: string, options: CompareCliOptions) => {
      const asJson = options.json === true;
      let recording: Recording;
      try {
        if (looksLikeRecording(input)) {
          try {
            recording = importRecording(readFileSync(resolve(input), 'utf8'), resolve(input));
          } catch (error) {
            throw new CliUsageError((error as Error).message);
          }
        } else {
          recording = await runReplayFromCli(input, { ...options, json: undefined } as ReplayCliOptions, host, asJson);
        }
      } catch (error) {
        failCommand(error, host);
        return;
      }
      const failOn = parseFailOn(options.failOn);
      const failing = selectFailingFindings(recording.findings, failOn);
      if (asJson) {
        host.out(
          `${JSON.stringify(
            {
              lanes: recording.lanes,
              rows: compareTurns(recording),
              findings: recording.findings,
              failing: failing.length,
            },
            null,
            2,
          )}\n`,
        );
      } else {
        for (const lane of recording.lanes) if (lane.error) host.out(`! ${lane.label}: ${lane.error}\n`);
        host.out(formatCompareTable(recording));
        const max = Math.max(0, Number(options.maxFindings) || 0);
        if (recording.findings.length > 0) {
          host.out(`\nFindings (${recording.findings.length}):\n`);
          for (const f of recording.findings.slice(0, max)) {
            host.out(
              `  ${f.severity.padEnd(7)} ${f.code.padEnd(20)} ${f.lane} turn ${f.turn === null || f.turn === undefined ? '–' : f.turn + 1}: ${f.message}\n`,
            );
          }
          if (recording.findings.length > max)
            host.out(`  … ${recording.findings.length - max} more (use --json for all)\n`);
        } else {
          host.out('\nNo findings.\n');
        }
      }
      if (failing.length > 0) {
        host.err(`${failing.length} finding(s) matched --fail-on ${options.failOn}\n`);
        process.exitCode = EXIT.findings;
      }
    });
}
