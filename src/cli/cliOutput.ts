/**
 * What the CLI does when its output goes away, e.g. `contextscope replay … --ndjson | head -1`: the next write to
 * the closed pipe fails with EPIPE, which Node reports as an 'error' event on process.stdout and, unhandled, as a
 * crash with a stack. A Unix tool stops instead. Here `closed` aborts (commands pass it to the replay, whose
 * ReplayAbortedError path cleans up as on a normal end: work dirs removed, engine hosts stopped), nothing more is
 * printed, and the process exits 141 (EXIT.outputClosed: 128 + SIGPIPE, what a shell shows for a tool SIGPIPE
 * ended). Any other write error on stdout (EIO, ENOSPC) stops the work the same way with one line saying why and
 * exit 3.
 */
import type { EventEmitter } from 'node:events';
import type { CliHost } from './cliHost';
import { EXIT } from './exitCodes';

/** The reader went away (a pipe or socket closed early), as opposed to the output failing. */
const READER_GONE = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export class CliOutput {
  private readonly controller = new AbortController();
  /** Aborts when stdout (or stderr) can no longer be written. */
  readonly closed: AbortSignal = this.controller.signal;
  /** The exit code the run ends with once `closed` aborted. */
  exitCode: number | undefined;
  private errClosed = false;

  constructor(stdout: EventEmitter, stderr: EventEmitter) {
    stdout.on('error', (error: unknown) => this.fail('stdout', error));
    stderr.on('error', (error: unknown) => this.fail('stderr', error));
  }

  private fail(stream: 'stdout' | 'stderr', error: unknown): void {
    const code = codeOf(error);
    if (stream === 'stderr') this.errClosed = true;
    if (this.closed.aborted) return;
    if (code !== undefined && READER_GONE.has(code)) {
      this.exitCode = EXIT.outputClosed;
    } else if (stream === 'stdout') {
      this.exitCode = EXIT.failed;
      const message = error instanceof Error ? error.message : String(error);
      if (!this.errClosed) process.stderr.write(`contextscope: cannot write to stdout: ${message}\n`);
    } else {
      return; // stderr failed for another reason: its lines are dropped, the command goes on
    }
    process.exitCode = this.exitCode;
    this.controller.abort();
  }

  /** The host the commands get: output dropped once closed, `waitForStop` also ends then, `outputClosed` set. */
  guard(host: CliHost): CliHost {
    const closed = this.closed;
    return {
      startServe: (request) => host.startServe(request),
      waitForStop: () =>
        closed.aborted
          ? Promise.resolve()
          : Promise.race([
              host.waitForStop(),
              new Promise<void>((resolve) => closed.addEventListener('abort', () => resolve(), { once: true })),
            ]),
      out: (text) => {
        if (!closed.aborted) host.out(text);
      },
      err: (text) => {
        if (!closed.aborted && !this.errClosed) host.err(text);
      },
      outputClosed: closed,
    };
  }
}

let processOutput: CliOutput | undefined;

/** The one watcher of this process's stdout and stderr (runCli may run more than once in a process: tests). */
export function processCliOutput(): CliOutput {
  processOutput ??= new CliOutput(process.stdout, process.stderr);
  return processOutput;
}
