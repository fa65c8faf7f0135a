/**
 * How the CLI reports an error nobody expected: one line with what happened and where (the first frame of the
 * stack: function, file and line), the whole stack only with `--debug`.
 */
import { relative } from 'node:path';
import { errorMessage } from '../common/errorText';
import { SessionFileError } from '../transcripts';
import type { CliHost } from './cliHost';
import { EXIT } from './exitCodes';

let debug = false;

/** `--debug` was given (set by the program before a command runs). */
export function setCliDebug(enabled: boolean): void {
  debug = enabled;
}

/** The first stack frame that is not inside node itself, as `fn (file:line)` with the file relative to cwd. */
function whereThrown(stack: string | undefined): string | undefined {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const frame = /^\s*at (?:(.+?) \()?(.+?):(\d+):\d+\)?$/.exec(line);
    if (!frame || frame[2]!.startsWith('node:')) continue;
    const file = frame[2]!.replace(/^file:\/\//, '');
    const shown = file.startsWith('/') ? relative(process.cwd(), file) || file : file;
    return `${frame[1] ? `${frame[1]} ` : ''}(${shown}:${frame[3]})`;
  }
  return undefined;
}

/** One line: `TypeError: text.match is not a function, at estimateStringChars (src/tokens/x.ts:21)`. */
export function formatUnexpectedError(error: unknown): string {
  if (debug && error instanceof Error && error.stack) return error.stack;
  const name = error instanceof Error && error.name !== 'Error' ? `${error.name}: ` : '';
  const message = errorMessage(error).split('\n')[0]!;
  const where = error instanceof Error ? whereThrown(error.stack) : undefined;
  const hint = error instanceof Error && error.stack ? ' (run with --debug for the stack)' : '';
  return `${name}${message}${where ? `, at ${where}` : ''}${hint}`;
}

/** The errors JavaScript itself throws on a bug (as opposed to the errors commands throw to explain a refusal). */
const BUG_ERRORS: ReadonlySet<string> = new Set([
  'TypeError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'EvalError',
  'URIError',
  'InternalError',
]);

/** True for what no command throws on purpose: a bug's TypeError, a stack overflow, a thrown non-Error. */
export function isUnexpectedError(error: unknown): boolean {
  return !(error instanceof Error) || BUG_ERRORS.has(error.name);
}

/**
 * Reports an error that ended a command and returns the exit code: an unreadable session 2 (its message), a
 * command's own refusal 1 (its message, which may carry a hint line), anything unexpected 3 (one line: what and
 * where; --debug adds the stack).
 */
export function reportCliError(error: unknown, host: CliHost): number {
  if (isUnexpectedError(error)) {
    host.err(`contextscope: ${formatUnexpectedError(error)}\n`);
    return EXIT.failed;
  }
  host.err(`contextscope: ${errorMessage(error)}\n`);
  const cause = (error as Error).cause;
  return error instanceof SessionFileError || cause instanceof SessionFileError ? EXIT.usage : EXIT.findings;
}
