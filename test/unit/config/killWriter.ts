/**
 * Child process of killLoop.test.ts (bundled with esbuild, run with plain node): saves openclaw.json through the
 * real guarded save, over and over, until it is killed. `loop` mode prints "ready" after its first save;
 * `once` mode loads, prints "loaded", waits for a line on stdin, then saves once and prints the outcome as JSON.
 *
 * In `loop` mode the file-system calls of the write are slowed down (at most 4 KiB per write call, 1 ms apart),
 * so most of a save's time is spent inside the write and a random kill lands there; each phase is printed
 * ("phase write|fsync|rename|save") so the test can tell where the kills landed. The code under test is unchanged.
 */
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { readConfigSnapshot, saveConfig, type ConfigEnvironment } from '../../../src/config';

const [mode, file, stateDir, firstSeq] = process.argv.slice(2) as ['loop' | 'once', string, string, string?];
const rawWrite = fs.writeSync.bind(fs) as (fd: number, data: string | Uint8Array, ...rest: unknown[]) => number;
const phase = (name: string) => rawWrite(1, `phase ${name}\n`);
const pause = new Int32Array(new SharedArrayBuffer(4));

function slowDownWrites(): void {
  const write = fs.writeSync;
  const fsync = fs.fsyncSync;
  const rename = fs.renameSync;
  (fs as { writeSync: unknown }).writeSync = (
    fd: number,
    data: Uint8Array,
    offset = 0,
    length = data.length - offset,
  ) => {
    if (fd <= 2 || typeof data === 'string') return (write as (...a: unknown[]) => number)(fd, data, offset, length);
    phase('write');
    Atomics.wait(pause, 0, 0, 1);
    return (write as (...a: unknown[]) => number)(fd, data, offset, Math.min(length, 4 * 1024));
  };
  (fs as { fsyncSync: unknown }).fsyncSync = (fd: number) => {
    phase('fsync');
    Atomics.wait(pause, 0, 0, 2);
    fsync(fd);
  };
  (fs as { renameSync: unknown }).renameSync = (from: string, to: string) => {
    phase('rename');
    rename(from, to);
    phase('renamed');
  };
}
const env: ConfigEnvironment = { stateDir, bundledDir: false, env: { HOME: stateDir } };

function payload(seq: number): { seq: number; body: string; sha: string } {
  const body = `${seq}:`.padEnd(64_000 + (seq % 997), String.fromCharCode(97 + (seq % 26)));
  return { seq, body, sha: createHash('sha256').update(body).digest('hex') };
}

function saveOnce(seq: number) {
  const snapshot = readConfigSnapshot(file, env);
  return saveConfig(
    { path: file, baseHash: snapshot.hash, changes: [{ op: 'set', path: ['scratch'], value: payload(seq) }] },
    env,
    { backup: { keep: 4 } },
  );
}

if (mode === 'loop') {
  slowDownWrites();
  for (let seq = Number(firstSeq ?? 1); ; seq++) {
    phase('save');
    const outcome = saveOnce(seq);
    if (!outcome.ok) {
      process.stderr.write(`save ${seq} failed: ${outcome.message}\n`);
      process.exit(3);
    }
    if (seq === Number(firstSeq ?? 1)) rawWrite(1, 'ready\n');
  }
} else {
  const snapshot = readConfigSnapshot(file, env);
  process.stdout.write('loaded\n');
  createInterface({ input: process.stdin }).once('line', () => {
    const outcome = saveConfig(
      { path: file, baseHash: snapshot.hash, changes: [{ op: 'set', path: ['scratch'], value: payload(7) }] },
      env,
    );
    process.stdout.write(`${JSON.stringify({ ok: outcome.ok, reason: outcome.ok ? null : outcome.reason })}\n`);
    process.exit(0);
  });
}
