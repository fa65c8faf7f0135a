/**
 * Engine-host side, under Node's permission model only: Node refuses `fsync`/`fdatasync` on any file descriptor
 * (ERR_ACCESS_DENIED, whatever the file) unless every path is writable — so a plugin that writes its state the
 * careful way (write a temp file, fsync, rename: `write-file-atomic` and the like) would fail in its own state dir.
 * The data is written either way; a refused flush is taken as done (everything an engine host may write is the
 * lane's folders, which are temporary). `fchmod`/`futimes` stay refused (use `chmod`/`utimes` on the path).
 */
import fs, { promises as fsPromises } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const isDenied = (error: unknown) => (error as { code?: unknown } | null)?.code === 'ERR_ACCESS_DENIED';

type SyncFlush = (fd: number) => void;
type CallbackFlush = (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => void;

function flushSync(original: SyncFlush): SyncFlush {
  return function flush(fd) {
    try {
      original(fd);
    } catch (error) {
      if (!isDenied(error)) throw error;
    }
  };
}

function flushCallback(original: CallbackFlush): CallbackFlush {
  return function flush(fd, callback) {
    try {
      original(fd, (error) => callback(error && isDenied(error) ? null : error));
    } catch (error) {
      if (!isDenied(error)) throw error;
      process.nextTick(() => callback(null));
    }
  };
}

let installed = false;

/**
 * Makes fsync/fdatasync (sync, callback, and FileHandle's sync/datasync) succeed where only the permission model
 * refuses them. `readableFile`: any file the host may read (its FileHandle prototype is reached through it).
 */
export async function installConfinedFlush(readableFile: string): Promise<void> {
  if (installed) return;
  installed = true;
  const writable = fs as unknown as Record<string, unknown>;
  writable.fsyncSync = flushSync(fs.fsyncSync);
  writable.fdatasyncSync = flushSync(fs.fdatasyncSync);
  writable.fsync = flushCallback(fs.fsync as CallbackFlush);
  writable.fdatasync = flushCallback(fs.fdatasync as CallbackFlush);
  syncBuiltinESMExports();
  try {
    const handle = await fsPromises.open(readableFile, 'r');
    patchFileHandleFlush(handle);
    await handle.close();
  } catch {
    // no handle: FileHandle flushes stay as Node has them
  }
}

/** The same for FileHandle's sync/datasync (its prototype is shared by every handle). */
function patchFileHandleFlush(handle: object): void {
  const proto = Object.getPrototypeOf(handle) as Record<string, unknown>;
  for (const name of ['sync', 'datasync']) {
    const original = proto[name] as (() => Promise<void>) | undefined;
    if (typeof original !== 'function') continue;
    proto[name] = async function flush(this: unknown) {
      try {
        await original.call(this);
      } catch (error) {
        if (!isDenied(error)) throw error;
      }
    };
  }
}
