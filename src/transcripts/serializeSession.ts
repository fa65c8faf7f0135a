/**
 * Writing transcripts the way OpenClaw does: one `JSON.stringify(value)` per line, each terminated by "\n",
 * header first. Objects are written as they are, so their key order is kept.
 */
import { writeChunksAtomic } from '../common/writeChunksAtomic';
import type { SessionEntry, SessionHeader } from '../contract';

export function serializeSessionLine(value: SessionHeader | SessionEntry): string {
  return `${JSON.stringify(value)}\n`;
}

export function serializeSessionEntries(header: SessionHeader, entries: readonly SessionEntry[]): string {
  let out = serializeSessionLine(header);
  for (const entry of entries) out += serializeSessionLine(entry);
  return out;
}

export interface WritableSession {
  header: SessionHeader;
  entries: readonly SessionEntry[];
}

function* sessionLines(session: WritableSession): Generator<string> {
  yield serializeSessionLine(session.header);
  for (const entry of session.entries) yield serializeSessionLine(entry);
}

/**
 * Writes the whole transcript (creating parent directories), replacing an existing file atomically: streamed line
 * by line through a temporary file beside it (`writeChunksAtomic`), so a large session never becomes one giant
 * string and a reader never sees half a transcript. A symbolic link at `path` is refused.
 */
export async function writeSessionFile(path: string, session: WritableSession): Promise<void> {
  writeSessionFileSync(path, session);
}

export function writeSessionFileSync(path: string, session: WritableSession): void {
  writeChunksAtomic(path, sessionLines(session));
}
