/**
 * `contextscope replay --state-dir <dir> --all --lane …`: the same replay over every top-level session of a state
 * dir on a bounded worker pool (`--workers`, default one per core), one Recording per session written atomically
 * into `--out-dir`, and a table per session (turns, compactions, tokens saved vs legacy, findings) with a total.
 */
import { resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { formatBatchTable, runBatch, type BatchRequest, type BatchResult } from '../../replay/batch';
import { writeFileAtomic } from '../../common/writeFileAtomic';
import { errorMessage } from '../../common/errorText';
import type { CliHost } from '../cliHost';
import { EXIT } from '../exitCodes';
import { CliUsageError, pluginsFromCli, replayRequestFromCli, type ReplayCliOptions } from './replayLaneFlags';

export interface ReplayAllCliOptions extends ReplayCliOptions {
  all?: boolean;
  workers?: string;
  outDir?: string;
}

export const DEFAULT_BATCH_OUT_DIR = 'contextscope-recordings';

export const REPLAY_ALL_HELP = `
Every session (--all, with --state-dir):
  replays each top-level session (subagents run as child lanes of their parent; reset archives are left out) with
  the same lanes on --workers threads (default: one per core), writes <out-dir>/<sessionId>.recording.json for each
  and prints one line per session and lane: turns, compactions, assembled tokens summed over turns, tokens saved
  against a plain legacy lane (added as the baseline when no --lane is plain legacy), findings. --json writes the
  rows and totals. Exit codes (the worst decides): 0 all replayed; 1 a --fail-on finding in any session; 2 bad usage
  or no sessions; 3 a session could not be loaded or replayed (its row says why; the others still ran); 4 a lane did
  not run its engine in some session (plugin not approved: --allow-execute; or it failed to load).`;

export function addReplayAllOptions(command: Command): Command {
  return command
    .option('--all', 'replay every session of --state-dir (see "Every session" below)')
    .option('--workers <n>', 'with --all: sessions replayed at once, one worker thread each (default: one per core)')
    .option(
      '--out-dir <dir>',
      `with --all: where each session's Recording is written (default ./${DEFAULT_BATCH_OUT_DIR})`,
    );
}

function workersOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > 64)
    throw new CliUsageError(`--workers ${value}: give a whole number from 1 to 64, e.g. --workers 2`);
  return Number(value);
}

function conflicts(sessionInput: string | undefined, options: ReplayAllCliOptions): string | null {
  if (!options.stateDir) return '--all replays every session of a state dir: give --state-dir <dir>.';
  if (sessionInput !== undefined || options.session !== undefined)
    return '--all replays every session: give no session argument and no --session.';
  const single = (['follow', 'ndjson', 'html', 'againstTrajectory'] as const).filter((k) => options[k]);
  if (single.length > 0)
    return `--all cannot be combined with ${single.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} (one session at a time).`;
  return null;
}

/** The batch request the flags describe; throws CliUsageError on anything a person can fix. */
export function batchRequestFromCli(options: ReplayAllCliOptions): BatchRequest {
  const { request } = replayRequestFromCli(options); // lanes and flag values are checked before any session is read
  const { allowExecute, workspaceDir, nodePath, maxResultBytes } = pluginsFromCli(options);
  return {
    ...request,
    stateDir: resolve(options.stateDir!),
    failOn: (options.failOn ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
    plugins: {
      allowExecute,
      ...(workspaceDir ? { workspaceDir } : {}),
      ...(nodePath ? { nodePath } : {}),
      ...(maxResultBytes !== undefined ? { maxResultBytes } : {}),
    },
  };
}

function report(result: BatchResult, options: ReplayAllCliOptions, outDir: string, host: CliHost): void {
  const { rows, totals, plan } = result;
  if (options.json) {
    const summary = JSON.stringify(
      { stateDir: options.stateDir, outDir, workers: result.workers, rows, totals },
      null,
      2,
    );
    if (options.json === '-') host.out(`${summary}\n`);
    else writeFileAtomic(resolve(options.json), summary, { mode: 0o644 });
  }
  if (options.json !== '-') {
    host.out(formatBatchTable(rows, totals, result.elapsedMs));
    const skipped = [
      plan.skipped.subagents ? `${plan.skipped.subagents} subagent session(s) (replayed with their parent)` : '',
      plan.skipped.archived ? `${plan.skipped.archived} reset archive(s)` : '',
    ].filter(Boolean);
    if (skipped.length) host.out(`Left out: ${skipped.join(', ')}.\n`);
    host.out(`${totals.done} recording(s) in ${outDir} · ${result.workers} worker(s)\n`);
  }
  const failedRows = rows.filter((r) => r.status === 'failed');
  const notRun = rows.flatMap((r) => r.lanes.filter((l) => l.error).map((l) => ({ row: r, lane: l })));
  for (const { row, lane } of notRun)
    host.err(
      `${row.key ?? row.sessionId}: lane ${lane.laneId} did not run its engine (it ran on legacy): ${lane.error}\n`,
    );
  if (totals.failing > 0) host.err(`${totals.failing} finding(s) matched --fail-on ${options.failOn}\n`);
  const first = failedRows[0];
  if (first)
    host.err(
      `${failedRows.length} session(s) could not be replayed (first: ${first.key ?? first.sessionId}: ${first.error})\n`,
    );
  // the worst outcome decides: a session not replayed, then a lane that did not run its engine, then --fail-on
  if (failedRows.length > 0) process.exitCode = EXIT.failed;
  else if (notRun.length > 0) process.exitCode = EXIT.laneNotRun;
  else if (totals.failing > 0) process.exitCode = EXIT.findings;
}

export async function runReplayAll(
  sessionInput: string | undefined,
  options: ReplayAllCliOptions,
  host: CliHost,
): Promise<void> {
  let request: BatchRequest;
  let workers: number | undefined;
  try {
    const conflict = conflicts(sessionInput, options);
    if (conflict) throw new CliUsageError(conflict);
    workers = workersOf(options.workers);
    request = batchRequestFromCli(options);
  } catch (error) {
    host.err(`${errorMessage(error)}\n`);
    process.exitCode = EXIT.usage;
    return;
  }
  const outDir = resolve(options.outDir ?? DEFAULT_BATCH_OUT_DIR);
  const bar =
    options.progress && options.json !== '-' && process.stderr.isTTY === true
      ? new SingleBar({
          format: 'replay --all [{bar}] {value}/{total} sessions',
          clearOnComplete: true,
          stream: process.stderr,
        })
      : undefined;
  let result: BatchResult;
  try {
    result = await runBatch(request, {
      ...(workers !== undefined ? { workers } : {}),
      outDir,
      ...(host.outputClosed ? { signal: host.outputClosed } : {}),
      onPlan: (plan) => bar?.start(plan.jobs.length, 0),
      onRow: () => bar?.increment(1),
    });
  } catch (error) {
    host.err(`replay --all failed: ${errorMessage(error)}\n`);
    process.exitCode = EXIT.failed;
    return;
  } finally {
    bar?.stop();
  }
  if (result.plan.jobs.length === 0) {
    host.err(`replay --all: no sessions to replay in ${result.plan.stateDir || request.stateDir}.\n`);
    process.exitCode = EXIT.usage;
    return;
  }
  report(result, options, outDir, host);
}
