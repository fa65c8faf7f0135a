import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcherFor, workspaceMethods, type BridgeDispatcher } from '../../src/bridge';
import type { Recording } from '../../src/contract';
import { createReplayService, defaultDemoSessionsDir, exportRecordingJson } from '../../src/replay';
import { createRecentRecordings } from '../../main/recentRecordings';
import { createWorkspaceHandlers } from '../../main/workspaceHandlers';
import { chooseStateDir, readWorkspace } from '../../main/workspaceSettings';

type Outcome = { ok: true; result: any } | { ok: false; error: { code: string; path: string; message: string } };
/** A bridge call's outcome, typed loosely (the dispatcher checked the response against its schema). */
const call = (bridge: BridgeDispatcher, method: string, params: unknown) =>
  bridge.call(method, params) as Promise<Outcome>;

const demoDir = defaultDemoSessionsDir()!;
const demoShort = join(demoDir, 'agents/main/sessions/db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl');
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-workspace-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('workspace settings (the state dir every view reads)', () => {
  it('uses $OPENCLAW_STATE_DIR, else ~/.openclaw, until a folder is chosen; the choice persists and can be forgotten', () => {
    const home = tempDir();
    const stateDir = join(home, 'custom-state');
    mkdirSync(stateDir);
    const settingsFile = join(tempDir(), 'workspace.json');
    const env = { HOME: home, OPENCLAW_STATE_DIR: stateDir };

    expect(readWorkspace({ env, settingsFile })).toMatchObject({
      stateDir,
      source: 'OPENCLAW_STATE_DIR',
      exists: true,
    });
    expect(readWorkspace({ env: { HOME: home }, settingsFile })).toMatchObject({
      stateDir: join(home, '.openclaw'),
      source: 'home',
      exists: false,
    });

    const chosen = join(home, 'other');
    mkdirSync(chosen);
    chooseStateDir(chosen, { env, settingsFile });
    // a fresh read (another window, a restart) sees the choice
    expect(readWorkspace({ env, settingsFile })).toMatchObject({
      stateDir: chosen,
      source: 'chosen',
      defaultStateDir: stateDir,
    });
    chooseStateDir(null, { env, settingsFile });
    expect(readWorkspace({ env, settingsFile }).stateDir).toBe(stateDir);
  });

  it('refuses a folder that does not exist, saying so, and keeps the previous choice', () => {
    const settingsFile = join(tempDir(), 'workspace.json');
    const env = { HOME: tempDir() };
    expect(() => chooseStateDir('/nonexistent/state', { env, settingsFile })).toThrow(
      /\/nonexistent\/state is not a folder/,
    );
    expect(readWorkspace({ env, settingsFile }).source).toBe('home');
  });
});

describe('recent recordings (app config dir, bounded)', () => {
  let recording: Recording;
  let replayId: string;
  const replays = createReplayService();
  beforeAll(async () => {
    ({ replayId } = await replays.start({ sessionPath: demoShort, lanes: ['legacy'], window: 32_000 }));
    recording = (await replays.wait(replayId)).recording!;
  });

  it('keeps a finished replay, lists it after a restart and opens the same recording', async () => {
    const configDir = tempDir();
    const bridge = createDispatcherFor(workspaceMethods, createWorkspaceHandlers(replays, { configDir }), {
      validateResponses: true,
    });
    const saved = await call(bridge, 'recordings.save', { replayId, title: 'agent:main:demo-short' });
    expect(saved).toMatchObject({
      ok: true,
      result: { origin: 'replay', sessionKey: 'agent:main:demo-short', turns: 12 },
    });

    // a new handler table over the same folder = the app after a reload
    const again = createDispatcherFor(workspaceMethods, createWorkspaceHandlers(createReplayService(), { configDir }), {
      validateResponses: true,
    });
    const list = await call(again, 'recordings.list', {});
    expect(list.ok && list.result.recordings.map((r: { title: string }) => r.title)).toEqual(['agent:main:demo-short']);
    const id = list.ok ? list.result.recordings[0]!.id : '';
    const opened = await call(again, 'recordings.open', { id });
    expect(opened.ok && opened.result.recording).toEqual(recording);
  });

  it('imports an exported recording file, and refuses one that is not a Recording with the JSON path at fault', async () => {
    const configDir = tempDir();
    const bridge = createDispatcherFor(workspaceMethods, createWorkspaceHandlers(replays, { configDir }), {
      validateResponses: true,
    });
    const content = exportRecordingJson(recording, { pretty: true });
    const imported = await call(bridge, 'recordings.import', { fileName: 'demo.recording.json', content });
    expect(imported).toMatchObject({
      ok: true,
      result: { entry: { origin: 'file', title: 'demo', fileName: 'demo.recording.json' } },
    });
    expect(imported.ok && imported.result.recording).toEqual(recording);

    const broken = JSON.parse(content) as Record<string, unknown>;
    delete broken.lanes;
    const refused = await call(bridge, 'recordings.import', {
      fileName: 'broken.json',
      content: JSON.stringify(broken),
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_recording', path: '/content' } });
    expect(!refused.ok && refused.error.message).toMatch(/broken\.json does not match the Recording schema.*lanes/s);
    const notJson = await call(bridge, 'recordings.import', { fileName: 'notes.txt', content: 'hello' });
    expect(!notJson.ok && notJson.error.message).toMatch(/notes\.txt is not valid JSON/);
    const list = await call(bridge, 'recordings.list', {});
    expect(list.ok && list.result.recordings).toHaveLength(1);
  });

  it('drops the least recently opened recordings beyond the count and byte bounds, files included', () => {
    const dir = tempDir();
    const content = exportRecordingJson(recording);
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
    const entry = store.add(recording, exportRecordingJson(recording), { title: 'x', origin: 'replay' });
    rmSync(join(dir, `${entry.id}.json`));
    expect(store.list()).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'))).toHaveLength(1);
  });
});
