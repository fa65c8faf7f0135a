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
  const head = await readHead(path);
  if (head.length === 16 && head.toString('latin1') === SQLITE_MAGIC) {
    throw new SessionFileError(
      path,
      'read_error',
      0,
      'is an SQLite database (OpenClaw 2026.8+ stores sessions there), not a JSONL transcript; load it with loadSession({ stateDir, session }) or `contextscope session --state-dir <dir> --session <key or id>`',
    );
  }
  const encoding = utf16Encoding(head);
  if (encoding) {
    throw new SessionFileError(
      path,
      'unsupported_encoding',
      0,
      `is ${encoding} text; OpenClaw writes transcripts as UTF-8 JSONL. Convert it (e.g. iconv -f UTF-16 -t UTF-8) and try again`,
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

/** The file's first 16 bytes (fewer for a shorter file; none when it cannot be opened: the read reports why). */
async function readHead(path: string): Promise<Buffer> {
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(16);
      const { bytesRead } = await handle.read(buffer, 0, 16, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return Buffer.alloc(0); // the streaming read reports what is wrong with the path
  }
}

/**
 * The UTF-16 flavour of a file's first bytes: a byte-order mark, or JSON's ASCII `{` with a NUL beside it (UTF-16
 * without a mark). Undefined for anything else (UTF-8 never has a NUL next to `{`).
 */
function utf16Encoding(head: Buffer): string | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'UTF-16 (little-endian)';
  if (head[0] === 0xfe && head[1] === 0xff) return 'UTF-16 (big-endian)';
  if (head[0] === 0x7b && head[1] === 0x00) return 'UTF-16 (little-endian, no byte-order mark)';
  if (head[0] === 0x00 && head[1] === 0x7b) return 'UTF-16 (big-endian, no byte-order mark)';
  return undefined;
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
