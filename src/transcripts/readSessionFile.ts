/** Loading transcripts from disk (streamed) or from text already in memory. */
import { open } from 'node:fs/promises';
import { SessionFileError } from './sessionProblems';
import { SessionParser, type LoadedSession, type SessionLoadMode } from './sessionParser';
import { readLines, type ReadProgress } from './readLines';

export interface ReadSessionOptions {
  /** strict (default): throw at the first error; tolerant: drop bad lines and list the problems */
  mode?: SessionLoadMode;
  onProgress?: (progress: ReadProgress) => void;
  progressStepBytes?: number;
}

/**
 * Reads an OpenClaw JSONL transcript. Rejects with a SessionFileError in strict mode at the first error, and in
 * both modes when the file cannot be read (code `read_error`).
 */
export async function readSessionFile(path: string, options: ReadSessionOptions = {}): Promise<LoadedSession> {
  if (await isSqliteFile(path)) {
    throw new SessionFileError(
      path,
      'read_error',
      0,
      'is an SQLite database (OpenClaw 2026.8+ stores sessions there), not a JSONL transcript; load it with loadSession({ stateDir, session }) or `contextscope session --state-dir <dir> --session <key or id>`',
    );
  }
  const parser = new SessionParser(path, options.mode ?? 'strict');
  try {
    await readLines(path, (text, line) => parser.pushLine(text, line), {
      onProgress: options.onProgress,
      progressStepBytes: options.progressStepBytes,
    });
  } catch (error) {
    if (error instanceof SessionFileError) throw error;
    const err = error as NodeJS.ErrnoException;
    const reason =
      err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory, not a file' : err.message;
    throw new SessionFileError(path, 'read_error', 0, `cannot read the file (${reason})`);
  }
  return { ...parser.finish(), storage: { kind: 'jsonl', file: path } };
}

const SQLITE_MAGIC = 'SQLite format 3\0';

async function isSqliteFile(path: string): Promise<boolean> {
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(16);
      const { bytesRead } = await handle.read(buffer, 0, 16, 0);
      return bytesRead === 16 && buffer.toString('latin1') === SQLITE_MAGIC;
    } finally {
      await handle.close();
    }
  } catch {
    return false; // the streaming read reports what is wrong with the path
  }
}

/** Parses transcript text (already in memory) with the same rules as {@link readSessionFile}. */
export function parseSessionText(text: string, path: string, mode: SessionLoadMode = 'strict'): LoadedSession {
  const parser = new SessionParser(path, mode);
  let start = 0;
  let line = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    parser.pushLine(text.slice(start, end), ++line);
    start = end + 1;
  }
  return parser.finish();
}
