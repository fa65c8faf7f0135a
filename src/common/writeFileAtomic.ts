import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface WriteFileAtomicOptions {
  /** permission bits of a newly created file (default 0o600: what the app writes is the user's own) */
  mode?: number;
}

/**
 * Writes `text` to `file` via a temporary file beside it, fsync and rename, so readers see the old file or the new
 * one and never a partial write; the temporary file is removed when the rename fails. Every file the app writes goes
 * through here.
 */
export function writeFileAtomic(file: string, text: string, options: WriteFileAtomicOptions = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'w', options.mode ?? 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncDirectory(dirname(file));
}

function fsyncDirectory(directory: string): void {
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
