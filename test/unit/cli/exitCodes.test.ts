/**
 * The CLI's exit codes and error lines through the real entry (src/cli runCli, as main/cli.ts calls it): an
 * unknown option is a usage error (2, not the 1 of a --fail-on finding), an unreadable transcript 2, a lane whose
 * plugin did not run for lack of consent 4, and an unexpected error one line saying where (the stack only with
 * --debug).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type CliHost } from '../../../src/cli';
import { formatUnexpectedError, reportCliError, setCliDebug } from '../../../src/cli/errorReport';
import { tempDir } from '../replay/sessionBuilder';

const ROOT = join(import.meta.dirname, '../../..');
const DEMO = join(ROOT, 'resources/sessions/agents/main/sessions/db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl');

async function cli(args: string[]): Promise<{ out: string; err: string; code: number }> {
  const out: string[] = [];
  const err: string[] = [];
  const host: CliHost = {
    startServe: async () => ({ url: '', close: async () => {} }),
    waitForStop: () => new Promise(() => {}),
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  };
  process.exitCode = undefined;
  await runCli(['node', 'contextscope', ...args], host);
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { out: out.join(''), err: err.join(''), code };
}

afterEach(() => setCliDebug(false));

describe('exit codes', () => {
  it('an unknown option is a usage error (2), for every command', async () => {
    for (const args of [['replay', DEMO, '--bogus'], ['session', '--nope'], ['--what']]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.err).toMatch(/unknown option '--(bogus|nope|what)'/);
    }
    expect((await cli(['--version'])).code).toBe(0);
  });

  it.each([
    ['empty', Buffer.alloc(0), 'the file is empty'],
    [
      'UTF-16',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"type":"session"}\n', 'utf16le')]),
      'is UTF-16 (little-endian) text',
    ],
  ])('session and replay of an %s file exit 2 and say what it is', async (_name, bytes, says) => {
    const file = join(tempDir(), 'input.jsonl');
    writeFileSync(file, bytes);
    for (const command of ['session', 'replay']) {
      const run = await cli([command, file, '--no-progress'].slice(0, command === 'session' ? 2 : 3));
      expect(run.code, command).toBe(2);
      expect(run.err).toContain(says);
      expect(run.err).not.toContain('line 0');
    }
  });

  it('a lane whose plugin did not run for lack of consent exits 4 and names the lane', async () => {
    const config = tempDir();
    const previous = process.env.CONTEXTSCOPE_CONFIG_DIR;
    process.env.CONTEXTSCOPE_CONFIG_DIR = config; // an empty consent store: nothing is approved
    try {
      const run = await cli([
        'replay',
        DEMO,
        '--lane',
        'legacy',
        '--lane',
        `plugin:${join(ROOT, 'resources/plugins/recent-window')}`,
        '--no-progress',
      ]);
      expect(run.code).toBe(4);
      expect(run.err).toContain('lane recent-window did not run its engine (it ran on legacy)');
      expect(run.err).toContain('no consent for');
      // the same replay with --allow-execute runs the plugin and exits 0
      const allowed = await cli([
        'replay',
        DEMO,
        '--lane',
        `plugin:${join(ROOT, 'resources/plugins/recent-window')}`,
        '--allow-execute',
        '--no-progress',
      ]);
      expect(allowed.code).toBe(0);
    } finally {
      if (previous === undefined) delete process.env.CONTEXTSCOPE_CONFIG_DIR;
      else process.env.CONTEXTSCOPE_CONFIG_DIR = previous;
    }
  }, 60_000);
});

describe('an unexpected error', () => {
  /** A real TypeError from this file (the first stack frame is here). */
  function bug(): unknown {
    try {
      const text = 12345 as unknown as string;
      return text.match(/x/);
    } catch (error) {
      return error;
    }
  }

  it('is one line: what, and where it was thrown; the stack only with --debug', () => {
    const error = bug();
    const line = formatUnexpectedError(error);
    expect(line).toMatch(
      /^TypeError: text\.match is not a function, at bug \(test\/unit\/cli\/exitCodes\.test\.ts:\d+\)/,
    );
    expect(line).toContain('(run with --debug for the stack)');
    expect(line).not.toContain('\n');
    setCliDebug(true);
    expect(formatUnexpectedError(error)).toContain('\n    at ');
  });

  it('exits 3, while a command refusing something exits 1 with its own message', () => {
    const err: string[] = [];
    const host = { err: (t: string) => err.push(t) } as unknown as CliHost;
    expect(reportCliError(bug(), host)).toBe(3);
    expect(reportCliError(new Error('--leaf x: no entry with that id\nRun without --leaf.'), host)).toBe(1);
    expect(err[0]!.split('\n').filter(Boolean)).toHaveLength(1);
    expect(err[1]).toBe('contextscope: --leaf x: no entry with that id\nRun without --leaf.\n');
  });
});
