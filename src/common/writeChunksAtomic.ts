/**
 * The streamed form of `writeFileAtomic`: a document too large to hold as one string (a Recording, a generated
 * transcript) is written chunk by chunk (about 1 MiB per write) into a temporary file beside the target, fsynced
 * and renamed over it, then the folder is fsynced. Readers see the old file or the new one, never a partial one.
 * A symbolic link is refused (SymlinkRefusedError, nothing written); the temporary name and the stale-temp
 * cleanup are `writeFileAtomic`'s.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { fsyncDirectory, removeStaleTemps, resolveWriteTarget } from './writeFileAtomic';

const FLUSH_BYTES = 1 << 20;

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

/** Streams `chunks` into `file` atomically; returns the bytes written. A new file gets `mode` (default 0o644). */
export function writeChunksAtomic(
  file: string,
  chunks: Iterable<string>,
  mode = 0o644,
): { file: string; bytes: number } {
  const target = resolveWriteTarget(file, 'refuse');
  mkdirSync(dirname(target), { recursive: true });
  removeStaleTemps(target);
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
