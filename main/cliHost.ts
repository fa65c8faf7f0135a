import type { CliHost } from '../src/cli';
import { startBrowserMode } from './browserMode';

/** The CliHost of the real binary: stdout/stderr, signals, browser mode from this package. */
export function createNodeCliHost(projectRoot: string): CliHost {
  return {
    startServe: (request) => startBrowserMode(request, projectRoot),
    waitForStop: () =>
      new Promise((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      }),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  };
}
