import { Command, CommanderError } from 'commander';
import { PACKAGE_VERSION } from '../app';
import type { CliHost } from './cliHost';
import { processCliOutput, type CliOutput } from './cliOutput';
import { commands } from './commands';
import { reportCliError, setCliDebug } from './errorReport';
import { EXIT } from './exitCodes';

export function createProgram(host: CliHost): Command {
  const program = new Command('contextscope')
    .description(
      'Inspect OpenClaw context engines: replay recorded sessions through legacy and plugin engines side by side.',
    )
    .version(PACKAGE_VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(run "contextscope --help" for usage)')
    .option('--debug', 'print the whole stack of an unexpected error (default: one line saying where)')
    .configureOutput({ writeOut: (text) => host.out(text), writeErr: (text) => host.err(text) })
    // commander's refusals (unknown option, missing argument) throw instead of exiting; the commands created below
    // inherit it, and runCli turns them into the usage exit code
    .exitOverride()
    .hook('preAction', (_program, action) => setCliDebug(action.optsWithGlobals().debug === true));
  for (const command of commands) command.register(program, host);
  return program;
}

/**
 * Parses `argv` (as process.argv: node, script, ...args) and runs the chosen command. A usage error commander
 * refused (it printed why) exits 2, --help and --version 0; any other error is reported by reportCliError. When
 * the output goes away meanwhile (`output`, default this process's stdout and stderr), the command's work stops
 * and the run ends silently with EXIT.outputClosed (src/cli/cliOutput.ts).
 */
export async function runCli(
  argv: readonly string[],
  host: CliHost,
  output: CliOutput = processCliOutput(),
): Promise<void> {
  setCliDebug(argv.includes('--debug'));
  const guarded = output.guard(host);
  try {
    await createProgram(guarded).parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    else process.exitCode = reportCliError(error, guarded);
  } finally {
    if (output.exitCode !== undefined) process.exitCode = output.exitCode;
  }
}
