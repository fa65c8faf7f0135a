/**
 * Crash safety of the guarded save, with a real child process: it saves openclaw.json (64 KB a version, through
 * saveConfig: read, edit, validate, backup, temp file, fsync, rename) in a tight loop and is SIGKILLed at a point of a
 * save spread over its phases, 24 times (CONTEXTSCOPE_KILL_ROUNDS for a longer soak at random points). After every kill the file must be whole: it parses, its payload matches its checksum, its
 * comments are there — never empty, partial or corrupt — and so must every backup. Then: an edit another process
 * makes between load and save is detected, and nothing of it is lost.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import JSON5 from 'json5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanTemps, tempDir } from './configHelpers';

/**
 * 24 kills in `npm test` (about 1 s each on this machine, 2 under load), spread over the first 90 phases of a save so
 * every part of it is hit each run; CONTEXTSCOPE_KILL_ROUNDS=120 (or more) for a longer soak at random points.
 */
const SOAK_ROUNDS = Number(process.env.CONTEXTSCOPE_KILL_ROUNDS) || 0;
const ROUNDS = SOAK_ROUNDS || 24;
/** the phase to kill at in `round`: spread over 1..90 (37 is prime to 90: 24 rounds hit 24 distinct phases), or random in a soak */
const killPhase = (round: number) => (SOAK_ROUNDS ? 1 + Math.floor(Math.random() * 90) : 1 + ((round * 37) % 90));
/** the bundle lives in a temporary folder: its packages resolve from the repository's node_modules */
const CHILD_ENV = { ...process.env, NODE_PATH: join(import.meta.dirname, '../../../node_modules') };
let bundle: string;

beforeAll(() => {
  bundle = join(tempDir('cs-killwriter-'), 'killWriter.cjs');
  buildSync({
    entryPoints: [join(import.meta.dirname, 'killWriter.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    outfile: bundle,
    logLevel: 'error',
  });
});
afterAll(cleanTemps);

const HEADER = '// openclaw.json under a kill -9 loop: this comment must survive every crash\n';
const INITIAL = `${HEADER}{\n  // the slot\n  plugins: { slots: { contextEngine: "legacy" } },\n}\n`;

function checkWhole(text: string, where: string): number {
  expect(text.length, `${where} is empty`).toBeGreaterThan(0);
  let value: any;
  try {
    value = JSON5.parse(text);
  } catch (error) {
    throw new Error(
      `${where} does not parse (${(error as Error).message}); it starts ${JSON.stringify(text.slice(0, 80))}`,
      { cause: error },
    );
  }
  expect(text.startsWith(HEADER), `${where} lost its comment`).toBe(true);
  expect(value.plugins.slots.contextEngine).toBe('legacy');
  if (!value.scratch) return 0;
  const sha = createHash('sha256').update(value.scratch.body).digest('hex');
  expect(sha, `${where}: payload ${value.scratch.seq} is partial`).toBe(value.scratch.sha);
  return value.scratch.seq as number;
}

interface KilledRun {
  signal: string | null;
  stderr: string;
  /** the phase the writer had announced when it was killed: save (read/edit/validate), write, fsync, rename, renamed */
  phase: string;
}

/**
 * Starts a writer and SIGKILLs it at the `target`-th phase it announces after its first save: a random point of a
 * later save — while a temp file or the backup is being written (most phases are write chunks), at an fsync,
 * around the rename, or while the next save reads and validates.
 */
function runUntilKilled(file: string, stateDir: string, firstSeq: number, target: number): Promise<KilledRun> {
  return new Promise((resolve, reject) => {
    const args = [bundle, 'loop', file, stateDir, String(firstSeq)];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: CHILD_ENV });
    let stderr = '';
    let pending = '';
    let ready = false;
    let count = 0;
    let phaseAtKill = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') ready = true;
        else if (ready && !phaseAtKill && line.startsWith('phase ') && ++count >= target) {
          phaseAtKill = line.slice('phase '.length);
          child.kill('SIGKILL');
        }
      }
    });
    child.once('error', reject);
    child.once('exit', (_code, signal) => resolve({ signal, stderr, phase: phaseAtKill }));
  });
}

describe('kill -9 during saves', () => {
  it(`${ROUNDS} rounds killed at moments spread over a save never leave a corrupt, empty or partial file or backup`, async () => {
    const dir = tempDir();
    const stateDir = tempDir('cs-state-');
    const file = join(dir, 'openclaw.json');
    writeFileSync(file, INITIAL);
    const seen = new Set<number>();
    const phases: Record<string, number> = {};
    let strayTemps = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const result = await runUntilKilled(file, stateDir, round * 1000 + 1, killPhase(round));
      phases[result.phase] = (phases[result.phase] ?? 0) + 1;
      expect(result.signal, `round ${round}: the writer ended by itself: ${result.stderr}`).toBe('SIGKILL');
      seen.add(checkWhole(readFileSync(file, 'utf8'), `round ${round}: openclaw.json`));
      const backups = join(dir, 'openclaw.json.backups');
      for (const name of readdirSync(backups)) {
        if (name.endsWith('.tmp')) continue; // a backup being written when the kill came (never listed)
        checkWhole(readFileSync(join(backups, name), 'utf8'), `round ${round}: backup ${name}`);
      }
      // a temp file the kill left behind (never the config itself); the next save removes it
      const temps = readdirSync(dir).filter((n) => n.endsWith('.tmp'));
      expect(temps.length, `round ${round}: temp files pile up: ${temps.join(', ')}`).toBeLessThanOrEqual(1);
      strayTemps += temps.length;
    }
    console.log(
      `kill loop: ${ROUNDS} kills (last phase before the kill: ${JSON.stringify(phases)}), ${seen.size} distinct versions on disk after them, ${strayTemps} times a temp file was left (removed by the next save)`,
    );
    // the kills really came inside the write: while a temp file or backup was written, fsynced, renamed
    expect((phases.write ?? 0) + (phases.fsync ?? 0) + (phases.rename ?? 0)).toBeGreaterThanOrEqual(ROUNDS / 2);
    // and the loop was saving: after the kills the file held versions of many rounds
    expect(seen.size).toBeGreaterThan(ROUNDS / 2);
  }, 600_000);

  it('an edit another process makes between load and save is detected and kept', async () => {
    const dir = tempDir();
    const stateDir = tempDir('cs-state-');
    const file = join(dir, 'openclaw.json');
    for (let round = 0; round < 5; round++) {
      writeFileSync(file, INITIAL);
      const external = INITIAL.replace('// the slot', `// the slot (edited by hand, round ${round})`);
      const outcome = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [bundle, 'once', file, stateDir], {
          stdio: ['pipe', 'pipe', 'pipe'],
          env: CHILD_ENV,
        });
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          if (chunk.includes('loaded')) {
            writeFileSync(file, external); // someone saves in their editor meanwhile
            child.stdin.write('go\n');
          }
        });
        child.once('error', reject);
        child.once('exit', () => resolve(out.split('\n').filter(Boolean).at(-1) ?? ''));
      });
      expect(JSON.parse(outcome)).toEqual({ ok: false, reason: 'changed-on-disk' });
      expect(readFileSync(file, 'utf8')).toBe(external);
    }
  });
});
