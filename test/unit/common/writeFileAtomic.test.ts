/**
 * The one atomic writer, on real files: it never writes through a symbolic link unless told to, a write that fails
 * part-way (a real EFBIG from a file-size limit) leaves the old file and no temporary file, a temporary file left
 * by a writer that died is cleaned up by the next write, and `contextscope replay --html/--json` and `generate`
 * use it.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ABSENT_FILE_HASH,
  FileChangedError,
  SymlinkRefusedError,
  contentHash,
  listBackups,
  writeFileAtomic,
} from '../../../src/common/writeFileAtomic';
import { runCli } from '../replay/runCli';

const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cs-atomic-')));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const DEMO = resolve('resources/sessions/agents/main/sessions/db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl');

describe('writeFileAtomic: written only over what was loaded', () => {
  it('refuses when the file changed since it was loaded, saying so; the other edit stays and no temporary is left', () => {
    const dir = tempDir();
    const file = join(dir, 'openclaw.json');
    writeFileSync(file, 'loaded');
    const loaded = contentHash('loaded');
    writeFileSync(file, 'edited elsewhere');
    let caught: unknown;
    try {
      writeFileAtomic(file, 'mine', { expectedHash: loaded });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FileChangedError);
    expect(caught).toMatchObject({
      code: 'file_changed',
      file,
      expectedHash: loaded,
      actualHash: contentHash('edited elsewhere'),
      currentText: 'edited elsewhere',
      message: `${file} changed on disk since it was loaded (another program or person edited it); nothing was written. Reload it, re-apply your changes and save again.`,
    });
    expect(readFileSync(file, 'utf8')).toBe('edited elsewhere');
    expect(readdirSync(dir)).toEqual(['openclaw.json']);
  });

  it('refuses when the file was removed since it was loaded, and does not create it', () => {
    const dir = tempDir();
    const file = join(dir, 'openclaw.json');
    expect(() => writeFileAtomic(file, 'mine', { expectedHash: contentHash('loaded') })).toThrow(
      `${file} was removed since it was loaded; nothing was written. Reload it before saving.`,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('creates a file that must not exist yet, and refuses once somebody else created it', () => {
    const dir = tempDir();
    const file = join(dir, 'new.json');
    const written = writeFileAtomic(file, 'first', { expectedHash: ABSENT_FILE_HASH });
    expect(written).toEqual({ file, hash: contentHash('first'), previousHash: ABSENT_FILE_HASH });
    expect(() => writeFileAtomic(file, 'second', { expectedHash: ABSENT_FILE_HASH })).toThrow(FileChangedError);
    expect(readFileSync(file, 'utf8')).toBe('first');
    const again = writeFileAtomic(file, 'second', { expectedHash: contentHash('first') });
    expect(again.previousHash).toBe(contentHash('first'));
    expect(readFileSync(file, 'utf8')).toBe('second');
  });

  it('gives a new file the owner-only mode unless told otherwise, and an existing file keeps its own', () => {
    const dir = tempDir();
    writeFileAtomic(join(dir, 'private'), 'x');
    expect(statSync(join(dir, 'private')).mode & 0o777).toBe(0o600);
    writeFileAtomic(join(dir, 'shared'), 'x', { mode: 0o644 });
    expect(statSync(join(dir, 'shared')).mode & 0o777).toBe(0o644);
    chmodSync(join(dir, 'shared'), 0o640);
    writeFileAtomic(join(dir, 'shared'), 'y', { mode: 0o600 });
    expect(statSync(join(dir, 'shared')).mode & 0o777).toBe(0o640);
  });

  it('keeps the previous version as a backup before replacing it, and only the newest it is told to keep', () => {
    const dir = tempDir();
    const file = join(dir, 'openclaw.json');
    const backups = join(dir, 'backups');
    writeFileAtomic(file, 'v1', { backup: { dir: backups } });
    expect(existsSync(backups)).toBe(false); // nothing to back up yet
    const second = writeFileAtomic(file, 'v2', { backup: { dir: backups, keep: 2 } });
    expect(readFileSync(second.backupFile!, 'utf8')).toBe('v1');
    writeFileAtomic(file, 'v3', { backup: { dir: backups, keep: 2 } });
    writeFileAtomic(file, 'v4', { backup: { dir: backups, keep: 2 } });
    expect(listBackups(file, backups).map((backup) => readFileSync(backup, 'utf8'))).toEqual(['v3', 'v2']);
    expect(statSync(second.backupFile!, { throwIfNoEntry: false })).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe('v4');
  });
});

describe('writeFileAtomic', () => {
  it('refuses to write through a symbolic link: the link and what it points to stay as they were', () => {
    const dir = tempDir();
    const precious = join(tempDir(), 'precious.txt');
    writeFileSync(precious, 'keep me\n');
    const link = join(dir, 'export.html');
    symlinkSync(precious, link);
    expect(() => writeFileAtomic(link, '<html>')).toThrow(SymlinkRefusedError);
    expect(() => writeFileAtomic(link, '<html>')).toThrow(`${link} is a symbolic link; nothing was written`);
    expect(readFileSync(precious, 'utf8')).toBe('keep me\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir)).toEqual(['export.html']);
  });

  it('writes the link’s target only when asked to follow links (a config kept behind a link)', () => {
    const dir = tempDir();
    const real = join(dir, 'real.json');
    writeFileSync(real, '{}\n');
    symlinkSync(real, join(dir, 'link.json'));
    writeFileAtomic(join(dir, 'link.json'), '{"a":1}\n', { symlinks: 'follow' });
    expect(readFileSync(real, 'utf8')).toBe('{"a":1}\n');
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
  });

  it('a write that fails part-way leaves the old file intact and no temporary file', () => {
    const dir = tempDir();
    const file = join(dir, 'recording.json');
    writeFileSync(file, 'old content\n');
    // a real failure mid-write: the file-size limit (50 blocks) stops the 200 kB write with EFBIG
    const script = `import { writeFileAtomic } from ${JSON.stringify(resolve('src/common/writeFileAtomic.ts'))};
try { writeFileAtomic(${JSON.stringify(file)}, 'x'.repeat(200000)); console.log('written'); }
catch (error) { console.log(error.code); }`;
    const child = spawnSync(
      'sh',
      ['-c', 'ulimit -f 50; exec "$0" --import tsx --input-type=module -e "$1"', process.execPath, script],
      {
        encoding: 'utf8',
      },
    );
    expect(child.stdout.trim()).toBe('EFBIG');
    expect(readFileSync(file, 'utf8')).toBe('old content\n');
    expect(readdirSync(dir)).toEqual(['recording.json']);
  });

  it('a temporary file left by a writer that died is removed by the next write', () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old\n');
    // a writer that died mid-write: its temporary file (named as the writer names them) outlives its process
    const dead = spawnSync(process.execPath, [
      '-e',
      `require('fs').writeFileSync(${JSON.stringify(file)} + '.' + process.pid + '.deadbeef.tmp', 'partial')`,
    ]);
    expect(dead.status).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['state.json', expect.stringMatching(/^state\.json\.\d+\.deadbeef\.tmp$/)]);
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    writeFileAtomic(file, 'new\n');
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect(readFileSync(file, 'utf8')).toBe('new\n');
  });
});

/** What a CLI run ended with: its error output and exit code, or the error it threw. */
function outcomeOf(run: Promise<{ err: string; code: number }>): Promise<string> {
  return run.then(
    (r) => `${r.err} (exit ${r.code})`,
    (error: unknown) => String(error),
  );
}

describe('the CLI writes its files through it', () => {
  it('replay --html refuses a path that is a symbolic link and says why', async () => {
    const dir = tempDir();
    const precious = join(tempDir(), 'precious.txt');
    writeFileSync(precious, 'keep me\n');
    symlinkSync(precious, join(dir, 'report.html'));
    const outcome = await outcomeOf(
      runCli([
        'replay',
        DEMO,
        '--lane',
        'legacy',
        '--window',
        '32000',
        '--no-progress',
        '--html',
        join(dir, 'report.html'),
      ]),
    );
    expect(outcome).toContain(`${join(dir, 'report.html')} is a symbolic link; nothing was written`);
    expect(readFileSync(precious, 'utf8')).toBe('keep me\n');
  });

  it('generate replaces sessions.json atomically (a link in its place is refused, nothing is merged into its target)', async () => {
    const out = tempDir();
    expect((await runCli(['generate', '--turns', '3', '--seed', '1', '--out', out])).code).toBe(0);
    const sessionsDir = join(out, 'agents', 'main', 'sessions');
    const store = readFileSync(join(sessionsDir, 'sessions.json'), 'utf8');
    expect(Object.keys(JSON.parse(store) as object).length).toBeGreaterThan(0);
    const elsewhere = join(tempDir(), 'other.json');
    writeFileSync(elsewhere, store);
    rmSync(join(sessionsDir, 'sessions.json'));
    symlinkSync(elsewhere, join(sessionsDir, 'sessions.json'));
    const again = await outcomeOf(runCli(['generate', '--turns', '3', '--seed', '2', '--out', out]));
    expect(again).toContain('sessions.json is a symbolic link; nothing was written');
    expect(readFileSync(elsewhere, 'utf8')).toBe(store);
    expect(readdirSync(sessionsDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
