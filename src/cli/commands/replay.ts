/**
 * `contextscope replay <session.jsonl|dir> --lane <spec> [--lane <spec> …]`: the headless twin of the app's
 * replay — runs a recorded session through the lanes and writes the Recording (JSON) and/or the HTML report.
 * The shared option handling is exported for `compare`.
 */
import { resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import {
  exportRecordingJson,
  writeRecordingFile,
  formatLaneSummary,
  renderHtmlReport,
  replaySession,
  openReplaySession,
  formatTrajectoryVerdicts,
  trajectoryMismatches,
  selectFailingFindings,
  type Recording,
  type ReplayOptions,
  formatReplaySettingsLine,
  buildReplayPlan,
  type CheckedReplayRequest,
  type ReplayPlan,
} from '../../replay';
import type { LoadedSession } from '../../transcripts';
import { CliUsageError, pluginsFromCli, replayRequestFromCli, type ReplayCliOptions } from './replayLaneFlags';
import { writeFileAtomic } from '../../common/writeFileAtomic';
import { followFromCli } from './replayFollow';
import { reportLanesNotRun } from './lanesNotRun';
import { addReplayAllOptions, REPLAY_ALL_HELP, runReplayAll } from './replayAll';
import { ndjsonReplay } from './replayNdjson';
import type { CliHost } from '../cliHost';
import { errorMessage } from '../../common/errorText';
import { formatUnexpectedError } from '../errorReport';
import { EXIT } from '../exitCodes';

/** Exit codes of `replay` and `compare` (also listed in their --help): the CLI's, src/cli/exitCodes.ts. */
export { EXIT } from '../exitCodes';

export const EXIT_CODES_HELP = `
Exit codes:
  0  replay finished (and no --fail-on finding occurred)
  1  findings selected by --fail-on occurred (or, with --against-trajectory, a turn differs from the recording)
  2  bad usage or input (unknown option, lane spec, option value, unreadable session, plugin config or recording)
  3  the replay failed (an unexpected error; one line says what and where, --debug prints the stack)
  4  a lane did not run its engine (plugin not approved: --allow-execute; or it failed to load): it ran on legacy
  141 stdout's reader went away (e.g. | head -1): the replay stopped and cleaned up, nothing more printed`;

export const LANE_SPEC_HELP = `
Lane specs:
  legacy[?window=N&reserve=N&host=H&label=L]
  plugin:<path-or-id>[?config=<file.json> | configJson5=<percent-encoded JSON5>][&engine=<engineId>][&window=N&reserve=N&host=H&label=L]
  A plugin id is found through discovery (bundled resources/plugins, <workspace>/.openclaw/extensions,
  <state dir>/extensions); config= is the plugin's plugins.entries.<id>.config as JSON/JSON5.
  Plugin lanes also take timeoutMs=<ms>, maxResultMb=<MB> and allow=child-process,worker (the engine host runs under
  Node's permission model and starts neither unless granted: with --allow-execute, or approved so in the app), and
  hostCodec=json to send every value whole across the engine-host channel (default refs, or $CONTEXTSCOPE_HOST_CODEC).`;

export { CliUsageError, pluginsFromCli, replayRequestFromCli, type ReplayCliOptions } from './replayLaneFlags';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function addReplayOptions(command: Command): Command {
  return command
    .option('--lane <spec>', 'a lane to replay through (repeatable; default: legacy)', collect, [])
    .option(
      '--window <tokens>',
      "context window of every lane without window= in its spec (default: the session model's in openclaw.json, else 200000)",
    )
    .option('--context-window <tokens>', 'the same as --window')
    .option(
      '--reserve <tokens>',
      'configured compaction reserveTokens (default: openclaw.json, else 16384; the release floors and caps it)',
    )
    .option('--reserve-tokens <tokens>', 'the same as --reserve')
    .option(
      '--keep-recent-tokens <tokens>',
      "tokens a compaction keeps verbatim (default: openclaw.json's agents.defaults.compaction.keepRecentTokens, else 20000)",
    )
    .option('--compaction-mode <mode>', "default | safeguard (default: openclaw.json's, else default; recorded only)")
    .option(
      '--host <host>',
      'host of the simulated run: embedded (default), codex, cli:<backendId>, agent-harness:<id>',
    )
    .option('--allow-execute', "run plugins' code for this run (without it, only plugins you approved in the app run)")
    .option(
      '--honour-recorded-compactions',
      "append the session's own compaction entries to every lane (default: markers only)",
    )
    .option('--check-determinism', 'assemble twice per turn and flag engines whose output differs')
    .option(
      '--openclaw-version <release>',
      'replay as this OpenClaw release, e.g. 2026.9.6 or 2026.7.35 (default: the release that wrote the session, else the newest; see src/replay/README.md)',
    )
    .option('--drift <fraction>', 'estimate-drift threshold, e.g. 0.5 for ±50% (default 0.5)')
    .option('--system-prompt <file>', 'a system prompt for the simulated run (the recording holds none)')
    .option(
      '--state-dir <dir>',
      'OpenClaw state dir for plugin discovery (default: $OPENCLAW_STATE_DIR or ~/.openclaw)',
    )
    .option('--workspace <dir>', 'agent workspace for plugin discovery (<dir>/.openclaw/extensions)')
    .option('--node <path>', 'Node binary for engine hosts (default: $CONTEXTSCOPE_ENGINE_NODE or this Node)')
    .option('--call-timeout <ms>', 'deadline for each plugin engine call before it is quarantined (default 30000)')
    .option(
      '--max-result-mb <MB>',
      'largest plugin engine result taken from its engine host before it is quarantined (default 64)',
    )
    .option('--no-subagents', 'do not replay subagent child sessions')
    .option(
      '--fail-on <codes|severity>',
      'exit 1 when findings with these codes (comma-separated) or of this severity or worse occur',
    )
    .option('--no-progress', 'no progress bar');
}

export function parseFailOn(value: string | undefined): string[] {
  return value
    ? value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : [];
}

/** The session the command names: a file/folder/locator argument, or --session <key or id> in --state-dir. */
async function openCliSession(
  sessionInput: string | undefined,
  options: ReplayCliOptions,
  host: CliHost,
  quiet: boolean,
): Promise<{ session: LoadedSession; file: string }> {
  if (sessionInput !== undefined && options.session !== undefined) {
    throw new CliUsageError('Give either a session argument or --session <key or id>, not both.');
  }
  // --state-dir alone names the folder: its only session or OpenClaw's main session, else the list
  if (sessionInput === undefined && options.session === undefined && options.stateDir) sessionInput = options.stateDir;
  if (sessionInput === undefined && options.session === undefined) {
    throw new CliUsageError(
      'Which session? Pass a transcript file, a folder, <openclaw-agent.sqlite>#<session key>, or --session <key or id> (with --state-dir).',
    );
  }
  try {
    const opened = await openReplaySession(
      options.session !== undefined
        ? {
            session: options.session,
            ...(options.stateDir ? { stateDir: resolve(options.stateDir) } : {}),
            ...(options.agent ? { agentId: options.agent } : {}),
          }
        : sessionInput!,
    );
    if (opened.note && !quiet) host.err(`${opened.note}\n`);
    return { session: opened.loaded, file: opened.file };
  } catch (error) {
    throw new CliUsageError(errorMessage(error));
  }
}

/** The plan of replaying `session` as the flags ask (settings from its state dir's openclaw.json and release). */
async function replayPlanFromCli(
  session: LoadedSession,
  request: CheckedReplayRequest,
  options: ReplayCliOptions,
): Promise<ReplayPlan> {
  try {
    return await buildReplayPlan(session, request, pluginsFromCli(options));
  } catch (error) {
    throw new CliUsageError(errorMessage(error));
  }
}

/** Run the replay the options describe, with a progress bar on a TTY unless quiet. */
export async function runReplayFromCli(
  sessionInput: string | undefined,
  options: ReplayCliOptions,
  host: CliHost,
  quiet: boolean,
  hooks: Pick<ReplayOptions, 'onTurn' | 'onLive'> = {},
): Promise<Recording> {
  const request = replayRequestFromCli(options); // bad flag values and lanes fail before the session is read
  const { session, file } = await openCliSession(sessionInput, options, host, quiet);
  const plan = await replayPlanFromCli(session, request, options);
  if (session.problems.length > 0 && !quiet) {
    host.err(
      `${file}: ${session.problems.length} line(s) skipped while reading (first: line ${session.problems[0].line}: ${session.problems[0].message})\n`,
    );
  }
  const useBar = !quiet && options.progress && process.stderr.isTTY === true;
  const bar = useBar
    ? new SingleBar({
        format: 'replay [{bar}] {value}/{total} lane-turns · {lane}',
        hideCursor: true,
        clearOnComplete: true,
        stream: process.stderr,
      })
    : undefined;
  bar?.start(plan.total, 0, { lane: '' });
  try {
    return await replaySession({
      ...plan.options,
      ...hooks,
      session,
      ...(host.outputClosed ? { signal: host.outputClosed } : {}),
      onProgress: (p) => {
        if (bar && !p.parentLane) bar.increment(1, { lane: p.lane });
      },
    });
  } finally {
    bar?.stop();
  }
}

/** Report a command failure with the right exit code. */
export function failCommand(error: unknown, host: CliHost): void {
  if (error instanceof CliUsageError) {
    host.err(`${error.message}\n`);
    process.exitCode = EXIT.usage;
    return;
  }
  const message = formatUnexpectedError(error);
  host.err(`replay failed: ${message}\n`);
  process.exitCode = EXIT.failed;
}

/** `replay --follow`: until Ctrl+C (SIGINT/SIGTERM), or `host.followSignal` in tests. */
async function runFollow(sessionInput: string | undefined, options: ReplayCliOptions, host: CliHost): Promise<void> {
  if (options.json === '-') {
    failCommand(new CliUsageError('--follow prints turns as they arrive: give --json a file, not "-".'), host);
    return;
  }
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  host.outputClosed?.addEventListener('abort', stop, { once: true });
  try {
    const request = replayRequestFromCli(options); // bad flag values and lanes fail before the session is read
    // the plan is made from the session as it stands when following starts; each pass replays it
    const { session } = await openCliSession(sessionInput, options, host, false);
    const plan = await replayPlanFromCli(session, request, options);
    const input =
      options.session !== undefined
        ? {
            session: options.session,
            ...(options.stateDir ? { stateDir: resolve(options.stateDir) } : {}),
            ...(options.agent ? { agentId: options.agent } : {}),
          }
        : (sessionInput ?? options.stateDir!);
    await followFromCli(input, plan.options, { json: options.json, html: options.html }, host, controller.signal);
  } catch (error) {
    failCommand(error, host);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    host.outputClosed?.removeEventListener('abort', stop);
  }
}

/** `--against-trajectory`: the per-turn verdicts; false when the command must stop (no trajectory: exit 2). */
function reportTrajectory(recording: Recording, options: ReplayCliOptions, host: CliHost): boolean {
  const report = recording.trajectory;
  const print = (text: string) => (options.json === '-' ? host.err(text) : host.out(text));
  if (!report) {
    host.err(
      `--against-trajectory: OpenClaw left no trajectory (no context.compiled events) for ` +
        `${recording.session.path ?? recording.session.sessionId} (looked for <session>.trajectory.jsonl and its ` +
        '.trajectory-path.json pointer, or trajectory_runtime_events rows in the agent database; ' +
        'OPENCLAW_TRAJECTORY=0 turns recording off).\n',
    );
    process.exitCode = EXIT.usage;
    return false;
  }
  print(formatTrajectoryVerdicts(report));
  if (trajectoryMismatches(report).length > 0) process.exitCode = EXIT.findings;
  return true;
}

export function register(program: Command, host: CliHost): void {
  const command = program
    .command('replay')
    .argument(
      '[session]',
      "a session .jsonl file, <openclaw-agent.sqlite>#<session key>, or a folder (sessions dir or state dir: its only session, else OpenClaw's main session agent:main:main)",
    )
    .option('--session <key-or-id>', 'the session of --state-dir to replay, by key or id (JSONL or SQLite)')
    .option('--agent <id>', 'with --session: the agent whose session it is (when several agents have one of that name)')
    .description(
      'replay a recorded OpenClaw session through one or more context-engine lanes and record what each assembled',
    );
  addReplayAllOptions(addReplayOptions(command))
    .option('--json <out.json>', 'write the Recording as JSON ("-" for stdout); quiet: no progress, no summary')
    .option(
      '--ndjson',
      'stream to stdout, one JSON object per line: a header (session, lanes, options), each turn as it finishes, a footer (findings, summary)',
    )
    .option(
      '--follow',
      'live mode: keep following the session while OpenClaw writes it and print each new turn (Ctrl+C stops; --json/--html get the last pass)',
    )
    .option('--html <report.html>', 'write the standalone HTML report')
    .option(
      '--against-trajectory',
      "compare each turn with what OpenClaw's trajectory recorded (context.compiled); exit 1 on a mismatch",
    )
    .addHelpText('after', `${LANE_SPEC_HELP}\n${EXIT_CODES_HELP}\n${REPLAY_ALL_HELP}`)
    .action(async (sessionInput: string | undefined, options: ReplayCliOptions & { all?: boolean }) => {
      if (options.all) {
        await runReplayAll(sessionInput, options, host);
        return;
      }
      if (options.ndjson && (options.json === '-' || options.follow)) {
        failCommand(
          new CliUsageError('--ndjson writes to stdout: give --json a file, and do not combine it with --follow.'),
          host,
        );
        return;
      }
      if (options.follow) {
        await runFollow(sessionInput, options, host);
        return;
      }
      const ndjson = options.ndjson ? ndjsonReplay((line) => host.out(line)) : undefined;
      const quiet = options.json !== undefined || ndjson !== undefined;
      let recording: Recording;
      try {
        recording = await runReplayFromCli(sessionInput, options, host, quiet, ndjson?.hooks);
      } catch (error) {
        failCommand(error, host);
        return;
      }
      ndjson?.finish(recording);
      if (options.json === '-') host.out(exportRecordingJson(recording) + '\n');
      else if (options.json) writeRecordingFile(resolve(options.json), recording);
      if (options.html) writeFileAtomic(resolve(options.html), renderHtmlReport(recording), { mode: 0o644 });
      if (!quiet) {
        host.out(formatReplaySettingsLine(recording));
        host.out(formatLaneSummary(recording));
        if (options.html) host.out(`HTML report: ${resolve(options.html)}\n`);
      }
      if (options.againstTrajectory && !reportTrajectory(recording, options, host)) return;
      const failing = selectFailingFindings(recording.findings, parseFailOn(options.failOn));
      if (failing.length > 0) {
        if (!quiet || options.json !== '-')
          host.err(`${failing.length} finding(s) matched --fail-on ${options.failOn}\n`);
        process.exitCode = EXIT.findings;
      }
      reportLanesNotRun(recording, host);
    });
}
