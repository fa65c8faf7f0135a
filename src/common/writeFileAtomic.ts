import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface WriteFileAtomicOptions {
  /** permission bits of a newly created file (default 0o600: what the app writes is the user's own); an existing file keeps its own */
  mode?: number;
  /**
   * Refuse the write (FileChangedError, nothing written) unless the file's current bytes hash to this
   * (`contentHash` of what was loaded; `ABSENT_FILE_HASH` when the file must not exist yet).
   */
  expectedHash?: string;
  /** Keep the previous version (when there is one) as a timestamped backup before replacing it. */
  backup?: BackupOptions;
  /**
   * When `file` is a symbolic link: `refuse` (default) writes nothing and throws SymlinkRefusedError — an export
   * must not overwrite whatever a link points to; `follow` writes the link's target (the link stays a link), for
   * files the user keeps behind a link on purpose (openclaw.json in a dotfiles repo).
   */
  symlinks?: 'refuse' | 'follow';
}

export interface BackupOptions {
  /** the folder backups go to (default `<file>.backups` beside the file) */
  dir?: string;
  /** how many backups of this file to keep, newest first (default 20) */
  keep?: number;
}

export interface WriteFileAtomicResult {
  /** the file written (a symlink's target: the link itself is kept) */
  file: string;
  /** contentHash of the new content */
  hash: string;
  /** contentHash of what was replaced (ABSENT_FILE_HASH when the file did not exist) */
  previousHash: string;
  /** the backup of the previous version, when one was made */
  backupFile?: string;
}

/** The hash of a file that does not exist (expectedHash for "create it, but only if nobody else did"). */
export const ABSENT_FILE_HASH = 'absent';

/** sha256 (hex) of the bytes: how "the file changed since it was loaded" is decided. */
export function contentHash(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** The file is not what the caller loaded: someone else changed (or created, or removed) it since. */
export class FileChangedError extends Error {
  readonly code = 'file_changed';
  constructor(
    readonly file: string,
    readonly expectedHash: string,
    readonly actualHash: string,
    /** the file's current content (undefined when it no longer exists) */
    readonly currentText: string | undefined,
  ) {
    super(
      actualHash === ABSENT_FILE_HASH
        ? `${file} was removed since it was loaded; nothing was written. Reload it before saving.`
        : `${file} changed on disk since it was loaded (another program or person edited it); nothing was written. Reload it, re-apply your changes and save again.`,
    );
    this.name = 'FileChangedError';
  }
}

/** The file's bytes, or undefined when it does not exist. */
function readCurrent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The file is a symbolic link and the write was not allowed to follow it; nothing was written. */
export class SymlinkRefusedError extends Error {
  readonly code = 'symlink_refused';
  constructor(readonly file: string) {
    super(
      `${file} is a symbolic link; nothing was written (ContextScope does not write through links). Choose the file itself, or another name.`,
    );
    this.name = 'SymlinkRefusedError';
  }
}

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * The file a write to `file` replaces: its link target with `follow`, else `file` itself — a symbolic link there is
 * refused (SymlinkRefusedError). For writers that stream their own temporary file (they follow the same rule).
 */
export function resolveWriteTarget(file: string, symlinks: 'refuse' | 'follow' = 'refuse'): string {
  return resolveTarget(file, symlinks);
}

/** A symlinked file is written through its link (the link stays a link), or refused. */
function resolveTarget(file: string, symlinks: 'refuse' | 'follow' = 'follow'): string {
  if (symlinks === 'refuse' && isSymlink(file)) throw new SymlinkRefusedError(file);
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * Writes `text` to `file` via a temporary file beside it, fsync and rename, then fsyncs the folder, so readers see
 * the old file or the new one and never a partial write; the temporary file is removed when anything fails. With
 * `expectedHash` the write is refused when the file changed since it was loaded; with `backup` the previous version
 * is kept first (itself written atomically). Every file the app writes goes through here.
 */
export function writeFileAtomic(
  file: string,
  text: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): WriteFileAtomicResult {
  const target = resolveTarget(file, options.symlinks ?? 'refuse');
  mkdirSync(dirname(target), { recursive: true });
  const previous = readCurrent(target);
  const previousHash = previous === undefined ? ABSENT_FILE_HASH : contentHash(previous);
  const check = (current: Buffer | undefined, hash: string) => {
    if (options.expectedHash !== undefined && hash !== options.expectedHash)
      throw new FileChangedError(target, options.expectedHash, hash, current?.toString('utf8'));
  };
  check(previous, previousHash);
  const mode = previous === undefined ? (options.mode ?? 0o600) : statSync(target).mode & 0o777;
  const backupFile =
    previous !== undefined && options.backup ? writeBackup(target, previous, options.backup) : undefined;
  const temp = writeTemp(target, text, mode);
  try {
    // Stryker disable all: the look again narrows a race with another writer between the two reads; no test can land a write in that window, and outside it the first check refuses the same writes
    if (options.expectedHash !== undefined) {
      // the narrowest window we can give: look again right before the rename
      const now = readCurrent(target);
      check(now, now === undefined ? ABSENT_FILE_HASH : contentHash(now));
    }
    // Stryker restore all
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncDirectory(dirname(target));
  return { file: target, hash: contentHash(text), previousHash, ...(backupFile ? { backupFile } : {}) };
}

function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Temp files of `target` left by a writer that was killed mid-write (its process is gone): never the file itself. */
export function removeStaleTemps(target: string): void {
  const name = basename(target);
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const candidate of names) {
    if (!candidate.startsWith(`${name}.`)) continue;
    const match = /^\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(candidate.slice(name.length));
    if (match && Number(match[1]) !== process.pid && processIsGone(Number(match[1])))
      rmSync(join(dirname(target), candidate), { force: true });
  }
}

/** A temporary file beside `target` holding `content`, fsynced; removed again when writing it fails. */
function writeTemp(target: string, content: string | Uint8Array, mode: number): string {
  removeStaleTemps(target);
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', mode);
  try {
    fchmodSync(fd, mode);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  return temp;
}

const BACKUP_SUFFIX = '.bak';

/** `<name>.<UTC timestamp>[-n].bak`: sorts by time, never overwrites an earlier backup. */
function backupName(name: string, dir: string, now: Date): string {
  const stamp = now.toISOString().replace(/:/g, '-');
  const taken = new Set(listBackupNames(dir, name));
  let candidate = `${name}.${stamp}${BACKUP_SUFFIX}`;
  for (let n = 1; taken.has(candidate); n++) candidate = `${name}.${stamp}-${n}${BACKUP_SUFFIX}`;
  return candidate;
}

function listBackupNames(dir: string, name: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  // sorted by the name without ".bak", so "<stamp>.bak" comes before "<stamp>-1.bak"
  const stem = (n: string) => n.slice(0, -BACKUP_SUFFIX.length);
  return names
    .filter((n) => n.startsWith(`${name}.`) && n.endsWith(BACKUP_SUFFIX))
    .sort((a, b) => (stem(a) < stem(b) ? -1 : stem(a) > stem(b) ? 1 : 0));
}

/** The default folder of `file`'s backups. */
export function defaultBackupDir(file: string): string {
  return `${file}.backups`;
}

/** Backups of `file`, newest first (absolute paths). */
export function listBackups(file: string, dir: string = defaultBackupDir(resolveTarget(file))): string[] {
  return listBackupNames(dir, basename(resolveTarget(file)))
    .reverse()
    .map((name) => join(dir, name));
}

function writeBackup(target: string, previous: Buffer, options: BackupOptions): string {
  const dir = options.dir ?? defaultBackupDir(target);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = basename(target);
  const backup = join(dir, backupName(name, dir, new Date()));
  const temp = writeTemp(backup, previous, 0o600);
  try {
    renameSync(temp, backup);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncDirectory(dir);
  const keep = Math.max(1, options.keep ?? 20);
  for (const old of listBackupNames(dir, name).slice(0, -keep)) rmSync(join(dir, old), { force: true });
  return backup;
}

/** fsyncs a folder after a rename into it (a no-op where folders cannot be fsynced). */
export function fsyncDirectory(directory: string): void {
  try {
    const dirFd = openSync(directory, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // directories cannot be fsynced on every platform (Windows); the rename already happened
  }
}
