/**
 * A lock file beside a file, for read-modify-write across processes: `<file>.lock` is created exclusively (it
 * holds the owner's pid), removed after the update, and taken over when its owner is gone or it is older than
 * `staleMs` (a writer that was killed must not lock everyone out).
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface FileLockOptions {
  /** how long to wait for another writer (default 10 000 ms) */
  timeoutMs?: number;
  /** a lock older than this is taken over (default 30 000 ms) */
  staleMs?: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function ownerIsGone(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(lock, 'utf8').trim());
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The lock's identity (content and mtime) when it is stale, else undefined. */
function staleIdentity(lock: string, staleMs: number): string | undefined {
  try {
    const identity = `${readFileSync(lock, 'utf8')}@${statSync(lock).mtimeMs}`;
    return Date.now() - statSync(lock).mtimeMs > staleMs || ownerIsGone(lock) ? identity : undefined;
  } catch {
    return undefined;
  }
}

/** Removes a stale lock unless another writer replaced it meanwhile (then the identity differs). */
function removeStale(lock: string, identity: string): void {
  try {
    if (`${readFileSync(lock, 'utf8')}@${statSync(lock).mtimeMs}` === identity) rmSync(lock, { force: true });
  } catch {
    // gone already
  }
}

function tryAcquire(lock: string): boolean {
  let fd: number;
  try {
    fd = openSync(lock, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, String(process.pid));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Runs `update` while holding `<file>.lock`; throws when another writer holds it past `timeoutMs`. */
export function withFileLock<T>(file: string, update: () => T, options: FileLockOptions = {}): T {
  const lock = `${file}.lock`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  mkdirSync(dirname(lock), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (let wait = 2; !tryAcquire(lock); wait = Math.min(wait * 2, 50)) {
    const stale = staleIdentity(lock, staleMs);
    if (stale !== undefined) {
      removeStale(lock, stale);
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${file} is locked by another ContextScope process (${lock}); try again, or delete the lock file if no other instance runs`,
      );
    sleepSync(wait);
  }
  try {
    return update();
  } finally {
    rmSync(lock, { force: true });
  }
}
