/**
 * `contextscope doctor [--json] [--plugin <path>] [--allow-execute] [--config <openclaw.json>] [--state-dir <dir>]`:
 * checks context-engine plugins like `openclaw doctor`, plus a smoke drive of every engine when allowed to
 * execute plugin code. Each plugin is told on stderr as it is loaded, as each engine is driven and when it is
 * checked; the report goes to stdout. Exit code 1 when there are error findings, 2 when the config cannot be read.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { errorMessage } from '../../common';
import { locateOpenClawConfig, readOpenClawConfigFile } from '../../config';
import type { OpenClawConfig } from '../../contract';
import { defaultStateDir, doctorDeadlines, formatDoctorProgress, formatDoctorReport, runDoctor } from '../../plugins';
import type { CliHost } from '../cliHost';

interface DoctorCliOptions {
  json?: boolean;
  plugin: string[];
  allowExecute?: boolean;
  config?: string;
  stateDir?: string;
  workspace?: string;
  bundled: boolean;
  timeout?: string;
  node?: string;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function register(program: Command, host: CliHost): void {
  program
    .command('doctor')
    .description(
      'check context-engine plugins: manifests, config, registrations, and (with --allow-execute) a smoke drive of every engine',
    )
    .option('--json', 'print the report as JSON (shape documented in src/plugins/README.md)')
    .option('--plugin <path>', 'examine only this plugin folder (linked for this run; repeatable)', collect, [])
    .option('--allow-execute', "run plugins' code for this run (without it, only plugins you approved in the app run)")
    .option(
      '--config <openclaw.json>',
      'the OpenClaw config to check (default: $OPENCLAW_CONFIG_PATH or <state dir>/openclaw.json)',
    )
    .option(
      '--state-dir <dir>',
      'the OpenClaw state dir (default: $OPENCLAW_STATE_DIR or ~/.openclaw); adds <dir>/extensions',
    )
    .option('--workspace <dir>', 'the agent workspace; adds <dir>/.openclaw/extensions')
    .option('--no-bundled', "leave out ContextScope's bundled sample plugins")
    .option('--timeout <ms>', 'deadline for each engine call in the smoke drive (default 10000)')
    .option('--node <path>', 'Node binary for engine hosts (default: $CONTEXTSCOPE_ENGINE_NODE or this Node)')
    .action(async (options: DoctorCliOptions) => {
      const stateDir = options.stateDir ? resolve(options.stateDir) : defaultStateDir();
      const configPath = locateOpenClawConfig(options.config, stateDir);
      let config: OpenClawConfig = {};
      try {
        if (configPath) config = readOpenClawConfigFile(configPath);
      } catch (error) {
        host.err(`${errorMessage(error)}\n`);
        process.exitCode = 2;
        return;
      }
      let timeoutMs: number | undefined;
      if (options.timeout !== undefined) {
        timeoutMs = Number(options.timeout);
        if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
          host.err(`--timeout ${options.timeout}: give a positive whole number of milliseconds, e.g. --timeout 5000\n`);
          process.exitCode = 2;
          return;
        }
      }
      const report = await runDoctor({
        config,
        ...(configPath ? { configPath } : {}),
        stateDir,
        ...(options.workspace ? { workspaceDir: resolve(options.workspace) } : {}),
        ...(options.plugin.length ? { pluginPaths: options.plugin.map((p) => resolve(p)) } : {}),
        ...(options.bundled ? {} : { bundledDir: false as const }),
        allowExecute: options.allowExecute === true,
        ...(timeoutMs !== undefined ? { deadlines: doctorDeadlines(timeoutMs) } : {}),
        ...(options.node ? { nodePath: options.node } : {}),
        // each plugin as it goes on stderr, so a plugin waiting out its deadlines is not mistaken for a hang
        onProgress: (step) => host.err(`${formatDoctorProgress(step)}\n`),
      });
      host.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorReport(report));
      if (!report.ok) process.exitCode = 1;
    });
}
