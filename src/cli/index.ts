export { createProgram, runCli } from './program';
export { commands, type CommandModule } from './commands';
export { parsePort } from './commands/serve';
export type { CliHost, ServeRequest, ServeSession } from './cliHost';
