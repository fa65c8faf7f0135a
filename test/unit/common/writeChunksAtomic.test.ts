/**
 * The streamed atomic writer on real files: a stream that fails part-way (a real EFBIG from a file-size limit,
 * after several 1 MiB flushes) leaves the old file and no temporary file; a symbolic link is refused; a temporary
 * file left by a writer that died is removed; transcripts written by `generate` (writeSessionFile) go through it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeChunksAtomic } from '../../../src/common/writeChunksAtomic';
import { SymlinkRefusedError } from '../../../src/common/writeFileAtomic';
import { readSessionFile, writeSessionFile } from '../../../src/transcripts';

const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cs-chunks-')));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const DEMO = resolve('resources/sessions/agents/main/sessions/db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl');

describe('writeChunksAtomic', () => {
  it('writes every chunk, in order, and returns the byte count', () => {
    const file = join(tempDir(), 'out.txt');
    const chunks = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'é'.repeat(i % 700)}\n`);
    const { bytes } = writeChunksAtomic(file, chunks);
    const written = readFileSync(file, 'utf8');
    expect(written).toBe(chunks.join(''));
    expect(bytes).toBe(Buffer.byteLength(written));
  });

  it('a stream that fails after several flushes leaves the old file intact and no temporary file', () => {
    const dir = tempDir();
    const file = join(dir, 'recording.json');
    writeFileSync(file, 'old content\n');
    // 4 MiB in 64 KiB chunks against a 2 MiB file-size limit: the third or fourth 1 MiB flush fails with EFBIG
    const script = `import { writeChunksAtomic } from ${JSON.stringify(resolve('src/common/writeChunksAtomic.ts'))};
const chunks = Array.from({ length: 64 }, () => 'x'.repeat(65536));
try { writeChunksAtomic(${JSON.stringify(file)}, chunks); console.log('written'); }
catch (error) { console.log(error.code); }`;
    const child = spawnSync(
      'sh',
      ['-c', 'ulimit -f 4096; exec "$0" --import tsx --input-type=module -e "$1"', process.execPath, script],
      { encoding: 'utf8' },
    );
    expect(child.stdout.trim()).toBe('EFBIG');
    expect(readFileSync(file, 'utf8')).toBe('old content\n');
    expect(readdirSync(dir)).toEqual(['recording.json']);
  });

  it('refuses a symbolic link: nothing is written through it', () => {
    const dir = tempDir();
    const precious = join(tempDir(), 'precious.txt');
    writeFileSync(precious, 'keep me\n');
    symlinkSync(precious, join(dir, 'link.json'));
    expect(() => writeChunksAtomic(join(dir, 'link.json'), ['new\n'])).toThrow(SymlinkRefusedError);
    expect(readFileSync(precious, 'utf8')).toBe('keep me\n');
    expect(readdirSync(dir)).toEqual(['link.json']);
  });

  it('removes the temporary file a writer that died left behind', () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    const dead = spawnSync(process.execPath, [
      '-e',
      `require('fs').writeFileSync(${JSON.stringify(file)} + '.' + process.pid + '.deadbeef.tmp', 'partial')`,
    ]);
    expect(dead.status).toBe(0);
    writeChunksAtomic(file, ['new\n']);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });
});

describe('writeSessionFile', () => {
  it('writes a transcript that reads back entry for entry, and refuses a symbolic link', async () => {
    const session = await readSessionFile(DEMO);
    const dir = tempDir();
    const file = join(dir, 'copy.jsonl');
    await writeSessionFile(file, session);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(DEMO, 'utf8'));
    const precious = join(tempDir(), 'precious.jsonl');
    writeFileSync(precious, 'keep me\n');
    symlinkSync(precious, join(dir, 'linked.jsonl'));
    await expect(writeSessionFile(join(dir, 'linked.jsonl'), session)).rejects.toThrow(SymlinkRefusedError);
    expect(readFileSync(precious, 'utf8')).toBe('keep me\n');
  });
});
