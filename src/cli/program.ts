import { Command } from 'commander';
import { PACKAGE_VERSION } from '../app';
import type { CliHost } from './cliHost';
import { commands } from './commands';

export function createProgram(host: CliHost): Command {
  const program = new Command('contextscope')
    .description(
      'Inspect OpenClaw context engines: replay recorded sessions through legacy and plugin engines side by side.',
    )
    .version(PACKAGE_VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(run "contextscope --help" for usage)')
    .configureOutput({ writeOut: (text) => host.out(text), writeErr: (text) => host.err(text) });
  for (const command of commands) command.register(program, host);
  return program;
}

/** Parses `argv` (as process.argv: node, script, ...args) and runs the chosen command. */
export async function runCli(argv: readonly string[], host: CliHost): Promise<void> {
  await createProgram(host).parseAsync([...argv]);
}
