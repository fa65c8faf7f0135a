/**
 * Writing transcripts the way OpenClaw does: one `JSON.stringify(value)` per line, each terminated by "\n",
 * header first. Objects are written as they are, so their key order is kept.
 */
import { writeFileSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
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

/**
 * Writes the whole transcript (creating parent directories), replacing an existing file. Lines are written in
 * batches of about 1 MiB, so a large session never becomes one giant string.
 */
export async function writeSessionFile(path: string, session: WritableSession): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const handle = await open(path, 'w');
  try {
    let batch = serializeSessionLine(session.header);
    for (const entry of session.entries) {
      batch += serializeSessionLine(entry);
      if (batch.length >= 1 << 20) {
        await handle.write(batch, null, 'utf8');
        batch = '';
      }
    }
    if (batch) await handle.write(batch, null, 'utf8');
  } finally {
    await handle.close();
  }
}

export function writeSessionFileSync(path: string, session: WritableSession): void {
  writeFileSync(path, serializeSessionEntries(session.header, session.entries), 'utf8');
}
