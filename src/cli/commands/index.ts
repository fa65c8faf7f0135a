import type { Command } from 'commander';
import type { CliHost } from '../cliHost';
import * as serve from './serve';
import * as generate from './generate';
import * as session from './session';
import * as sessions from './sessions';
import * as doctor from './doctor';
import * as replay from './replay';
import * as compare from './compare';
import * as config from './config';
import * as plugins from './plugins';

export interface CommandModule {
  /** Adds the command (and its options) to the program. Commands that need no shell may ignore `host`. */
  register(program: Command, host: CliHost): void;
}

/** Every `contextscope` command, in the order `--help` lists them. Add yours with one line. */
export const commands: readonly CommandModule[] = [
  serve,
  generate,
  sessions,
  session,
  doctor,
  replay,
  compare,
  config,
  plugins,
];
