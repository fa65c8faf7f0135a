/** Entry of the `contextscope` binary (bundled to out/node/cli.mjs by scripts/build-node.mjs). */
import { runCli } from '../src/cli';
import { createNodeCliHost } from './cliHost';
import { findProjectRoot } from './projectPaths';
import { errorMessage } from '../src/common/errorText';

try {
  await runCli(process.argv, createNodeCliHost(findProjectRoot(import.meta.dirname)));
} catch (error) {
  process.stderr.write(`contextscope: ${errorMessage(error)}\n`);
  process.exitCode = 1;
}
