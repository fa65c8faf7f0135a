/** Entry of the `contextscope` binary (bundled to out/node/cli.mjs by scripts/build-node.mjs). */
import { runCli } from '../src/cli';
import { createNodeCliHost } from './cliHost';
import { findProjectRoot } from './projectPaths';

try {
  await runCli(process.argv, createNodeCliHost(findProjectRoot(import.meta.dirname)));
} catch (error) {
  process.stderr.write(`contextscope: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
