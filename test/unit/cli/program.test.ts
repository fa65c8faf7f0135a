import { describe, expect, it } from 'vitest';
import { PACKAGE_VERSION } from '../../../src/app';
import { createProgram, parsePort, type CliHost, type ServeRequest } from '../../../src/cli';

function fakeHost() {
  const out: string[] = [];
  const err: string[] = [];
  const requests: ServeRequest[] = [];
  let closed = 0;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const host: CliHost = {
    startServe: async (request) => {
      requests.push(request);
      return { url: 'http://127.0.0.1:4321/?token=abc', close: async () => void closed++ };
    },
    waitForStop: () => stopped,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  };
  return { host, out, err, requests, stop, closedCount: () => closed };
}

async function run(args: string[], host: CliHost) {
  const program = createProgram(host).exitOverride();
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync(['node', 'contextscope', ...args]);
    return null;
  } catch (error) {
    return error as { code: string; exitCode: number };
  }
}

describe('contextscope CLI', () => {
  it('--version prints the package version', async () => {
    const fake = fakeHost();
    const exit = await run(['--version'], fake.host);
    expect(exit?.code).toBe('commander.version');
    expect(fake.out.join('')).toBe(`${PACKAGE_VERSION}\n`);
  });

  it('--help lists the serve command', async () => {
    const fake = fakeHost();
    await run(['--help'], fake.host);
    expect(fake.out.join('')).toMatch(/Usage: contextscope \[options\] \[command\]/);
    expect(fake.out.join('')).toMatch(/\n\s+serve \[options\]\s+start browser mode/);
  });

  it('serve starts browser mode on a random port by default, prints the URL, and closes it on stop', async () => {
    const fake = fakeHost();
    const running = run(['serve'], fake.host);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.requests).toEqual([{ port: 0, open: false }]);
    expect(fake.out.join('')).toContain('Open http://127.0.0.1:4321/?token=abc\n');
    expect(fake.closedCount()).toBe(0);
    fake.stop();
    expect(await running).toBeNull();
    expect(fake.closedCount()).toBe(1);
  });

  it('serve --port N --open passes both through', async () => {
    const fake = fakeHost();
    fake.stop();
    await run(['serve', '--port', '8123', '--open'], fake.host);
    expect(fake.requests).toEqual([{ port: 8123, open: true }]);
  });

  it('serve --port rejects values that are not a port, saying which', async () => {
    const fake = fakeHost();
    const exit = await run(['serve', '--port', '70000'], fake.host);
    expect(exit?.code).toBe('commander.invalidArgument');
    expect(fake.err.join('')).toContain(
      '--port must be an integer from 0 to 65535 (0 = a random free port), got "70000".',
    );
    expect(fake.requests).toEqual([]);
  });

  it('parsePort accepts 0..65535 only', () => {
    expect(parsePort('0')).toBe(0);
    expect(parsePort('65535')).toBe(65535);
    for (const bad of ['-1', '65536', '1.5', 'abc', '', '0x10'])
      expect(() => parsePort(bad), bad).toThrow(/--port must be/);
  });
});
