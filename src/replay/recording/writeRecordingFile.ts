/**
 * Writes a Recording file as a stream (`recordingJsonChunks`, about 1 MiB per write) through a temporary file beside
 * the target, fsynced and renamed over it (then the folder is fsynced): readers see the old file or the new one,
 * never a partial one, and no string ever holds the whole document. A symbolic link is refused (SymlinkRefusedError,
 * nothing written), as by `writeFileAtomic`. The temporary name follows
 * `src/common/writeFileAtomic.ts` (`<file>.<pid>.<8 hex>.tmp`), so its stale-temp cleanup applies.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, lstatSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { SymlinkRefusedError } from '../../common/writeFileAtomic';
import type { Recording } from '../../contract/recording';
import { recordingJsonChunks } from './exportRecording';

const FLUSH_BYTES = 1 << 20;

/** An export never writes through a symbolic link (as `writeFileAtomic`'s default). */
function refuseSymlink(file: string): void {
  let link = false;
  try {
    link = lstatSync(file).isSymbolicLink();
  } catch {
    // absent: a new file
  }
  if (link) throw new SymlinkRefusedError(file);
}

function existingMode(file: string): number | undefined {
  try {
    return statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
}

function writeAll(fd: number, text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written);
  return bytes.length;
}

function fsyncDirectory(directory: string): void {
  try {
    const fd = openSync(directory, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not every platform fsyncs folders (Windows); the rename already happened
  }
}

/** Streams `chunks` into `file` atomically; returns the bytes written. A new file gets `mode` (default 0o644). */
export function writeChunksAtomic(
  file: string,
  chunks: Iterable<string>,
  mode = 0o644,
): { file: string; bytes: number } {
  refuseSymlink(file);
  const target = file;
  mkdirSync(dirname(target), { recursive: true });
  const fileMode = existingMode(target) ?? mode;
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', fileMode);
  let bytes = 0;
  try {
    let pending: string[] = [];
    let pendingLength = 0;
    for (const chunk of chunks) {
      pending.push(chunk);
      pendingLength += chunk.length;
      if (pendingLength >= FLUSH_BYTES) {
        bytes += writeAll(fd, pending.join(''));
        pending = [];
        pendingLength = 0;
      }
    }
    bytes += writeAll(fd, pending.join(''));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, target);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncDirectory(dirname(target));
  return { file: target, bytes };
}

/** Writes `recording` to `file` (format 2, compact), streamed and atomic; returns the bytes written. */
export function writeRecordingFile(file: string, recording: Recording): { file: string; bytes: number } {
  return writeChunksAtomic(file, recordingJsonChunks(recording));
}
