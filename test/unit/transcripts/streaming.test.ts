import { mkdtempSync, openSync, writeSync, closeSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Fs from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { readSessionFile, type ReadProgress } from '../../../src/transcripts';

// The loader must stream: reading the whole file into one string is what this test forbids.
const calls = vi.hoisted(() => ({ createReadStream: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof Fs>();
  return {
    ...actual,
    readFileSync: () => {
      throw new Error('readFileSync must not be used to load a transcript');
    },
    createReadStream: (...args: Parameters<typeof actual.createReadStream>) => {
      calls.createReadStream += 1;
      return actual.createReadStream(...args);
    },
  };
});
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof FsPromises>();
  return {
    ...actual,
    readFile: () => {
      throw new Error('readFile must not be used to load a transcript');
    },
  };
});

function writeLargeTranscript(path: string, targetBytes: number): number {
  const fd = openSync(path, 'w');
  writeSync(fd, '{"type":"session","version":3,"id":"big","timestamp":"2026-01-05T10:00:00.000Z","cwd":"/w"}\n');
  const body = 'lorem ipsum 漢字 😀 '.repeat(100);
  let written = 0;
  let parent: string | null = null;
  let n = 0;
  while (written < targetBytes) {
    const batch: string[] = [];
    for (let i = 0; i < 1000; i++, n++) {
      const id = n.toString(16).padStart(8, '0');
      batch.push(
        JSON.stringify({
          type: 'message',
          id,
          parentId: parent,
          timestamp: '2026-01-05T10:00:01.000Z',
          message: { role: 'user', content: body, timestamp: n },
        }),
      );
      parent = id;
    }
    const chunk = `${batch.join('\n')}\n`;
    writeSync(fd, chunk);
    written += Buffer.byteLength(chunk);
  }
  closeSync(fd);
  return n;
}

describe('streaming load of a large transcript', () => {
  it('reads ~20 MB through a read stream with throttled, increasing progress events', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cs-stream-')), 'big.jsonl');
    const entryCount = writeLargeTranscript(file, 20 * 1024 * 1024);
    const totalBytes = statSync(file).size;
    const events: ReadProgress[] = [];
    const before = calls.createReadStream;

    const session = await readSessionFile(file, { mode: 'strict', onProgress: (p) => events.push({ ...p }) });

    expect(calls.createReadStream - before).toBe(1);
    expect(session.entries).toHaveLength(entryCount);
    expect(session.leafId).toBe((entryCount - 1).toString(16).padStart(8, '0'));
    // throttled: about one event per 1 MiB (the default step for this size), never one per line
    expect(events.length).toBeGreaterThanOrEqual(10);
    expect(events.length).toBeLessThanOrEqual(Math.ceil(totalBytes / (1 << 20)) + 1);
    // incremental: the first event comes while most of the file is still unread
    expect(events[0]!.bytesRead).toBeLessThan(totalBytes / 4);
    for (let i = 1; i < events.length; i++) {
      expect(events[i]!.bytesRead).toBeGreaterThan(events[i - 1]!.bytesRead);
      expect(events[i]!.lines).toBeGreaterThanOrEqual(events[i - 1]!.lines);
    }
    expect(events.at(-1)).toEqual({ bytesRead: totalBytes, totalBytes, lines: entryCount + 1 });
  });

  it('honours a custom progress step', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cs-stream-')), 'small.jsonl');
    writeLargeTranscript(file, 3 * 1024 * 1024);
    const size = statSync(file).size;
    const coarse: ReadProgress[] = [];
    await readSessionFile(file, { onProgress: (p) => coarse.push(p), progressStepBytes: size + 1 });
    expect(coarse.map((p) => p.bytesRead)).toEqual([size]);
    const fine: ReadProgress[] = [];
    await readSessionFile(file, { onProgress: (p) => fine.push(p), progressStepBytes: 1 });
    // one event per 1 MiB read chunk before the last, then the final one
    expect(fine).toHaveLength(Math.ceil(size / (1 << 20)));
    expect(fine.at(-1)!.bytesRead).toBe(size);
  });
});
