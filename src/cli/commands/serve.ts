import { InvalidArgumentError, type Command } from 'commander';
import { PACKAGE_VERSION } from '../../app';
import type { CliHost } from '../cliHost';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError(
      `--port must be an integer from 0 to 65535 (0 = a random free port), got "${value}".`,
    );
  }
  return port;
}

export function register(program: Command, host: CliHost): void {
  program
    .command('serve')
    .description('start browser mode: the app and its bridge on http://127.0.0.1 with a per-launch token')
    .option('-p, --port <port>', 'TCP port on 127.0.0.1 (default: a random free port)', parsePort, 0)
    .option('--open', 'open the system browser on the URL ($BROWSER, else the platform default)', false)
    .action(async (options: { port: number; open: boolean }) => {
      const session = await host.startServe({ port: options.port, open: options.open });
      host.out(`ContextScope ${PACKAGE_VERSION} — browser mode (bound to 127.0.0.1 only)\n`);
      host.out(`Open ${session.url}\n`);
      host.out('Press Ctrl+C to stop.\n');
      await host.waitForStop();
      await session.close();
    });
}
