/**
 * Reading an OpenClaw database without changing it or leaving files beside it, while the gateway may be writing.
 *
 * SQLite's own read-only open of a WAL database creates `-wal`/`-shm` when they are absent and writes read marks
 * into `-shm`; a non-empty `-wal` holds committed data the main file does not have yet. So a read is one of:
 * - `immutable`: the file opened with `immutable=1` (no locks, no side files, the WAL ignored) — only when there is
 *   no non-empty `-wal`, only with node:sqlite, and only if the file did not change during the read (checked
 *   after; a change falls back to a private copy);
 * - `private-copy`: the database, then its `-wal`, copied into a private temp dir and opened there (SQLite replays
 *   the WAL into the copy). A checkpoint during the copy only writes pages whose frames are still in the WAL, and
 *   the WAL is copied after the database, so replaying it repairs them — unless the WAL was restarted meanwhile
 *   (its salts changed), or there was no WAL and the main file changed: then the copy is taken again. Frames
 *   appended meanwhile are harmless (a torn last frame fails its checksum and is ignored).
 * Either way nothing is written next to the database, and `-shm` is only read.
 */
import { open as openFile, stat, copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { defaultSqliteDriver, openSqliteDatabase, supportsImmutableOpen } from './sqliteDriver';
import type { SqliteDatabase, SqliteDriverName } from './sqliteDriver';

export type SnapshotStrategy = 'immutable' | 'private-copy';

export interface SnapshotOptions {
  /** default `auto`: immutable when possible, else a private copy */
  strategy?: 'auto' | SnapshotStrategy;
  driver?: SqliteDriverName;
  /** copy attempts before giving up on a database whose WAL keeps restarting (default 20) */
  maxAttempts?: number;
}

export interface SnapshotResult<T> {
  value: T;
  strategy: SnapshotStrategy;
  /** copies taken (0 for an immutable read) */
  copies: number;
}

interface Fingerprint {
  db: string;
  walSize: number;
  walHeader: string;
  shmBackfill: string;
}

async function readBytes(path: string, length: number): Promise<Buffer | null> {
  try {
    const handle = await openFile(path, 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

async function fingerprint(path: string): Promise<Fingerprint> {
  const main = await stat(path, { bigint: true });
  const wal = await stat(`${path}-wal`).catch(() => null);
  // WAL header bytes 16-23 are the salts (a new value = the WAL was restarted); -shm byte 96 is nBackfill.
  const walHeader =
    wal && wal.size > 0 ? ((await readBytes(`${path}-wal`, 32))?.subarray(16, 24).toString('hex') ?? '') : '';
  const shm = await readBytes(`${path}-shm`, 100);
  return {
    db: `${main.ino}:${main.size}:${main.mtimeNs}`,
    walSize: wal?.size ?? 0,
    walHeader,
    shmBackfill: shm && shm.length >= 100 ? shm.subarray(96, 100).toString('hex') : '',
  };
}

function consistent(before: Fingerprint, after: Fingerprint): boolean {
  if (after.walSize < before.walSize || before.walHeader !== after.walHeader) return false;
  // Same WAL generation: every page a checkpoint wrote into the main file is in the copied WAL.
  if (before.walHeader !== '') return true;
  return before.db === after.db && before.shmBackfill === after.shmBackfill;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function withPrivateCopy<T>(
  path: string,
  read: (db: SqliteDatabase, strategy: SnapshotStrategy) => T,
  driver: SqliteDriverName,
  maxAttempts: number,
): Promise<SnapshotResult<T>> {
  const dir = await mkdtemp(join(tmpdir(), 'contextscope-sqlite-'));
  const copy = join(dir, basename(path));
  try {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const before = await fingerprint(path);
      await copyFile(path, copy);
      await rm(`${copy}-wal`, { force: true });
      if (before.walSize > 0) await copyFile(`${path}-wal`, `${copy}-wal`).catch(() => undefined);
      if (!consistent(before, await fingerprint(path))) {
        await sleep(Math.min(100, 5 * attempt) * (0.5 + Math.random()));
        continue;
      }
      const db = openSqliteDatabase(copy, { readOnly: true, driver });
      try {
        return { value: read(db, 'private-copy'), strategy: 'private-copy', copies: attempt };
      } finally {
        db.close();
      }
    }
    throw new Error(
      `Cannot take a consistent copy of ${path}: its WAL was restarted during each of ${maxAttempts} attempts. Try again when the gateway is less busy.`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `read` against a consistent, private view of the database at `path` and returns its result. The
 * database, its `-wal` and `-shm` are never written; no file is created beside them.
 */
export async function readDatabaseSnapshot<T>(
  path: string,
  read: (db: SqliteDatabase, strategy: SnapshotStrategy) => T,
  options: SnapshotOptions = {},
): Promise<SnapshotResult<T>> {
  const driver = options.driver ?? defaultSqliteDriver();
  const strategy = options.strategy ?? 'auto';
  const maxAttempts = options.maxAttempts ?? 20;
  if (strategy === 'private-copy' || !supportsImmutableOpen(driver)) {
    if (strategy === 'immutable') throw new Error(`${driver} cannot open ${path} immutable; use a private copy`);
    return withPrivateCopy(path, read, driver, maxAttempts);
  }
  const before = await fingerprint(path);
  if (before.walSize > 0) {
    if (strategy === 'immutable') throw new Error(`${path} has a non-empty -wal; an immutable read would miss it`);
    return withPrivateCopy(path, read, driver, maxAttempts);
  }
  const db = openSqliteDatabase(path, { immutable: true, driver });
  let value: T;
  try {
    value = read(db, 'immutable');
  } finally {
    db.close();
  }
  const after = await fingerprint(path);
  if (before.db === after.db && after.walSize === 0) return { value, strategy: 'immutable', copies: 0 };
  if (strategy === 'immutable') throw new Error(`${path} changed during an immutable read`);
  return withPrivateCopy(path, read, driver, maxAttempts);
}
