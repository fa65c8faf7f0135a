/**
 * readLines (src/transcripts/readLines.ts): physical lines of a file streamed in chunks — lines and multi-byte
 * characters split across chunks, a last line without "\n", empty lines, and progress at most once per step.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLines, type ReadProgress } from '../../../src/transcripts/readLines';

const dir = mkdtempSync(join(tmpdir(), 'cs-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function fileWith(text: string): string {
  const file = join(dir, `f${files++}.jsonl`);
  writeFileSync(file, text);
  return file;
}

async function linesOf(text: string, chunkBytes?: number): Promise<[string, number][]> {
  const seen: [string, number][] = [];
  await readLines(fileWith(text), (line, n) => seen.push([line, n]), chunkBytes ? { chunkBytes } : {});
  return seen;
}

describe('readLines', () => {
  it('numbers every physical line from 1, empty ones included, and a last line without a newline', async () => {
    expect(await linesOf('a\n\nb\nlast')).toEqual([
      ['a', 1],
      ['', 2],
      ['b', 3],
      ['last', 4],
    ]);
    expect(await linesOf('a\nb\n')).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect(await linesOf('')).toEqual([]);
  });

  it('puts a line together from many chunks, and keeps a character whose bytes are split between chunks', async () => {
    const long = `{"text":"${'é漢'.repeat(50)}"}`;
    expect(await linesOf(`${long}\nsecond\n${long}`, 7)).toEqual([
      [long, 1],
      ['second', 2],
      [long, 3],
    ]);
  });

  it('returns what it read, and reports progress no more often than its step, then once at the end', async () => {
    const text = `${'x'.repeat(99)}\n`.repeat(10); // 1,000 bytes
    const file = fileWith(text);
    const reports: ReadProgress[] = [];
    const done = await readLines(file, () => {}, {
      chunkBytes: 100,
      progressStepBytes: 300,
      onProgress: (p) => reports.push(p),
    });
    expect(done).toEqual({ bytesRead: 1000, totalBytes: 1000, lines: 10 });
    expect(reports).toEqual([
      { bytesRead: 300, totalBytes: 1000, lines: 3 },
      { bytesRead: 600, totalBytes: 1000, lines: 6 },
      { bytesRead: 900, totalBytes: 1000, lines: 9 },
      { bytesRead: 1000, totalBytes: 1000, lines: 10 },
    ]);
  });

  it('reports progress only at the end when the file is smaller than a step (the default step is 1 MiB)', async () => {
    const reports: ReadProgress[] = [];
    await readLines(fileWith('a\nb\n'), () => {}, { chunkBytes: 1, onProgress: (p) => reports.push(p) });
    expect(reports).toEqual([{ bytesRead: 4, totalBytes: 4, lines: 2 }]);
  });
});
