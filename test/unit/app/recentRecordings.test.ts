/**
 * The recent recordings kept in the app config dir: bounded by count and bytes (least recently opened go first,
 * files included), every entry read back from its file, an index that is not ours read as empty. A real replay of
 * the bundled demo gives the Recording; real folders hold it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRecentRecordings, recentRecordingsDir } from '../../../src/app';
import type { Recording } from '../../../src/contract';
import { createReplayService, defaultDemoSessionsDir, exportRecordingJson } from '../../../src/replay';

const demoShort = join(defaultDemoSessionsDir()!, 'agents/main/sessions/db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl');
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-recent-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

let recording: Recording;
let content: string;
beforeAll(async () => {
  const replays = createReplayService();
  const { replayId } = await replays.start({ sessionPath: demoShort, lanes: ['legacy'], window: 32_000 });
  recording = (await replays.wait(replayId)).recording!;
  content = exportRecordingJson(recording);
});

describe('recent recordings (app config dir, bounded)', () => {
  it('keeps them in <config dir>/recordings, newest first, each read back as the same Recording', () => {
    const dir = recentRecordingsDir(tempDir());
    expect(dir.endsWith('/recordings')).toBe(true);
    let clock = 1_000;
    const store = createRecentRecordings({ dir, now: () => clock++ });
    const first = store.add(recording, content, { title: '', origin: 'replay', replayId: 'r1' });
    // no title: the session key of the recorded lane names it
    expect(first).toMatchObject({ title: 'agent:main:demo-short', origin: 'replay', replayId: 'r1', turns: 12 });
    store.add(recording, content, { title: 'from a file', origin: 'file', fileName: 'x.recording.json' });
    expect(store.list().map((r) => r.title)).toEqual(['from a file', 'agent:main:demo-short']);
    // a store over the same folder (the app after a restart) opens the same recording and moves it to the top
    const again = createRecentRecordings({ dir, now: () => clock++ });
    expect(again.open(first.id).recording).toEqual(recording);
    expect(again.list()[0]!.id).toBe(first.id);
  });

  it('drops the least recently opened recordings beyond the count and byte bounds, files included', () => {
    const dir = tempDir();
    let clock = 1_000;
    const store = createRecentRecordings({
      dir,
      maxCount: 3,
      maxBytes: Buffer.byteLength(content) * 2,
      now: () => clock++,
    });
    const first = store.add(recording, content, { title: 'one', origin: 'replay' });
    store.add(recording, content, { title: 'two', origin: 'replay' });
    store.open(first.id); // opened last: kept
    store.add(recording, content, { title: 'three', origin: 'replay' });
    expect(store.list().map((r) => r.title)).toEqual(['three', 'one']);
    expect(readdirSync(dir).sort()).toEqual([...store.list().map((r) => `${r.id}.json`), 'index.json'].sort());

    const tiny = createRecentRecordings({ dir: tempDir(), maxCount: 2, maxBytes: 10 });
    tiny.add(recording, content, { title: 'a', origin: 'replay' });
    tiny.add(recording, content, { title: 'b', origin: 'replay' });
    // the newest is kept whatever its size
    expect(tiny.list().map((r) => r.title)).toEqual(['b']);
  });

  it('reads an index that is not its own as empty and an entry whose file is gone as absent', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'index.json'), '{"not": "an index"}');
    const store = createRecentRecordings({ dir });
    expect(store.list()).toEqual([]);
    const entry = store.add(recording, content, { title: 'x', origin: 'replay' });
    rmSync(join(dir, `${entry.id}.json`));
    expect(store.list()).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'))).toHaveLength(1);
  });

  it('says which id is unknown (not_found at /id) and removes an entry with its file', () => {
    const dir = tempDir();
    const store = createRecentRecordings({ dir });
    const entry = store.add(recording, content, { title: 'x', origin: 'replay' });
    expect(() => store.entry('nope')).toThrow(
      expect.objectContaining({
        code: 'not_found',
        path: '/id',
        message: 'No recent recording nope (the list has 1).',
      }),
    );
    expect(() => store.read('../index')).toThrow(expect.objectContaining({ code: 'not_found', path: '/id' }));
    expect(store.remove(entry.id)).toBe(true);
    expect(store.remove(entry.id)).toBe(false);
    expect(readdirSync(dir)).toEqual(['index.json']);
  });

  it('says where it could not keep a recording (io_error naming the folder)', () => {
    // a file where the folder should be: nothing can be written under it, whoever runs the test
    const dir = join(tempDir(), 'recordings');
    writeFileSync(dir, 'not a folder');
    const store = createRecentRecordings({ dir });
    expect(() => store.add(recording, content, { title: 'x', origin: 'replay' })).toThrow(
      expect.objectContaining({
        code: 'io_error',
        message: expect.stringContaining(`Could not keep the recording in ${dir}: `),
      }),
    );
  });
});
