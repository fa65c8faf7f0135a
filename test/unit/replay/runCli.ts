/** Runs the contextscope CLI in-process with a host that collects its output; returns what it wrote and its exit code. */
import { createProgram, type CliHost } from '../../../src/cli';

export async function runCli(args: string[]): Promise<{ lines: string[]; out: string; err: string; code: number }> {
  const lines: string[] = [];
  const err: string[] = [];
  const host: CliHost = {
    startServe: async () => ({ url: '', close: async () => {} }),
    waitForStop: () => new Promise(() => {}),
    out: (text) => lines.push(text),
    err: (text) => err.push(text),
  };
  const program = createProgram(host).exitOverride();
  for (const command of program.commands) command.exitOverride();
  process.exitCode = undefined;
  await program.parseAsync(['node', 'contextscope', ...args]);
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { lines, out: lines.join(''), err: err.join(''), code };
}
