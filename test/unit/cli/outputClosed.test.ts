/**
 * The CLI when its stdout's reader goes away (`contextscope replay … --ndjson | head -1`), in a real child process
 * reading a real pipe: the replay is aborted (the Recording it would write at the end is not written), its work
 * dirs and its plugin lane's engine host are cleaned up as on a normal end, no stack is printed, and the exit
 * status is 141.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateSession, writeGeneratedSessions } from '../../../src/transcripts';
import { BUILT_CLI } from '../builtApp';

/** The documented status (README "CLI", replay --help; EXIT.outputClosed): 128 + SIGPIPE, as a shell shows it. */
const OUTPUT_CLOSED = 141;
const ROOT = join(import.meta.dirname, '../../..');
const SUMMARY_TREE = join(ROOT, 'resources/plugins/summary-tree');
const temps: string[] = [];
let stateDir: string;
let session: string;

function temp(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `cs-output-closed-${name}-`));
  temps.push(dir);
  return dir;
}

beforeAll(async () => {
  // long enough that a replay still runs when the reader goes away after the first line (40 turns take about a
  // second; the output passes the pipe's 64 KB buffer within the first turns)
  stateDir = mkdtempSync(join(tmpdir(), 'cs-output-closed-state-'));
  const written = await writeGeneratedSessions(generateSession({ turns: 300, seed: 11 }), stateDir);
  session = written.files[0]!;
}, 60_000);

afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

/** Child processes of `pid` (from /proc), with their command lines. */
function childrenOf(pid: number): { pid: number; cmdline: string }[] {
  const children: { pid: number; cmdline: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid)
        children.push({
          pid: Number(name),
          cmdline: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' '),
        });
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}

/** True while `pid` runs (a zombie waiting to be reaped has ended). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

interface ClosedRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** what was read before the pipe was closed: up to the first line break, or the first chunk */
  firstLine: string;
  /** the CLI's child processes while it ran, seen when the pipe was closed */
  children: { pid: number; cmdline: string }[];
}

/**
 * Runs the built CLI, reads its stdout up to the first line break (or only its first chunk), then closes the
 * pipe like `head -1` (`head -c 1`).
 */
function runAndClose(args: string[], env: NodeJS.ProcessEnv, until: 'line' | 'chunk' = 'line'): Promise<ClosedRun> {
  const child = spawn(process.execPath, [BUILT_CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let firstLine: string | undefined;
  let children: ClosedRun['children'] = [];
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    if (firstLine !== undefined) return;
    stdout += text;
    const end = until === 'line' ? stdout.indexOf('\n') : stdout.length;
    if (end < 0) return;
    firstLine = stdout.slice(0, end);
    children = childrenOf(child.pid!);
    child.stdout.destroy();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stderr, firstLine: firstLine ?? '', children }));
  });
}

function expectQuietStop(run: ClosedRun): void {
  expect(run.signal).toBeNull();
  expect(run.status, run.stderr).toBe(OUTPUT_CLOSED);
  expect(run.stderr).not.toMatch(/\n\s+at |Unhandled|EPIPE|replay failed|cancelled/);
}

/** What the replay left in its temp folder. */
function leftInTmp(dir: string): string[] {
  return readdirSync(dir);
}

describe('stdout closed early (| head -1)', () => {
  it('replay --ndjson stops the replay, removes its work dir and exits 141 without a stack', async () => {
    const tmp = temp('tmp');
    const recording = join(temp('out'), 'recording.json');
    const run = await runAndClose(['replay', session, '--ndjson', '--json', recording, '--window', '32000'], {
      TMPDIR: tmp,
      CONTEXTSCOPE_CONFIG_DIR: temp('config'),
    });
    expect(JSON.parse(run.firstLine)).toMatchObject({ type: 'header', session: { turns: 300 } });
    expectQuietStop(run);
    // written only at the end of a replay that ran all turns: the replay was aborted, not run out with no reader
    expect(existsSync(recording)).toBe(false);
    expect(leftInTmp(tmp)).toEqual([]);
  });

  it('a plugin lane (summary-tree, --allow-execute): its engine host is stopped and its lane dirs removed', async () => {
    const tmp = temp('tmp');
    const recording = join(temp('out'), 'recording.json');
    const run = await runAndClose(
      ['replay', session, '--ndjson', '--json', recording, '--lane', `plugin:${SUMMARY_TREE}`, '--allow-execute'],
      { TMPDIR: tmp, CONTEXTSCOPE_CONFIG_DIR: temp('config') },
    );
    expect(JSON.parse(run.firstLine)).toMatchObject({ type: 'header', lanes: [{ id: 'summary-tree' }] });
    const hosts = run.children.filter((c) => c.cmdline.includes('engine-host.mjs'));
    expect(hosts.length, JSON.stringify(run.children)).toBe(1);
    expectQuietStop(run);
    expect(hosts.filter((host) => running(host.pid))).toEqual([]);
    expect(existsSync(recording)).toBe(false);
    expect(leftInTmp(tmp)).toEqual([]);
  });

  it('replay --json - (one large write) exits 141 without a stack and leaves no work dir', async () => {
    const tmp = temp('tmp');
    const run = await runAndClose(
      ['replay', session, '--json', '-'],
      { TMPDIR: tmp, CONTEXTSCOPE_CONFIG_DIR: temp('config') },
      'chunk',
    );
    expect(run.firstLine).toMatch(/^\{"schemaVersion":/);
    expectQuietStop(run);
    expect(leftInTmp(tmp)).toEqual([]);
  });
});
