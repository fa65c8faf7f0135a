/**
 * `npm start` (bundled to out/node/start.mjs; scripts/start.mjs builds first when needed): the Electron window
 * when an Electron binary exists, otherwise browser mode with the URL printed. `--browser` forces browser mode;
 * `--open` (or $BROWSER) opens the system browser; `--port N` picks the port.
 */
import { spawn } from 'node:child_process';
import { runCli } from '../src/cli';
import { createNodeCliHost } from './cliHost';
import { findElectronBinary } from './electronBinary';
import { findProjectRoot } from './projectPaths';
import { errorMessage } from '../src/common/errorText';

const args = process.argv.slice(2);
const projectRoot = findProjectRoot(import.meta.dirname);
const forceBrowser = args.includes('--browser');
const binary = forceBrowser ? null : findElectronBinary(projectRoot);

if (binary?.found) {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(binary.path, [projectRoot], { stdio: 'inherit', env });
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
} else {
  if (binary)
    process.stdout.write(`Electron binary not available here (${binary.reason}); starting browser mode instead.\n`);
  const serveArgs = ['serve'];
  const portIndex = args.indexOf('--port');
  if (portIndex !== -1 && args[portIndex + 1] !== undefined) serveArgs.push('--port', args[portIndex + 1]!);
  if (args.includes('--open') || process.env.BROWSER) serveArgs.push('--open');
  try {
    await runCli([process.argv[0]!, 'contextscope', ...serveArgs], createNodeCliHost(projectRoot));
  } catch (error) {
    process.stderr.write(`contextscope: ${errorMessage(error)}\n`);
    process.exitCode = 1;
  }
}
