import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcherFor, workspaceMethods, type BridgeDispatcher } from '../../src/bridge';
import type { Recording } from '../../src/contract';
import { createReplayService, defaultDemoSessionsDir, exportRecordingJson } from '../../src/replay';
import { createWorkspaceHandlers } from '../../main/workspaceHandlers';

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

describe('workspace.* and recordings.* over the bridge', () => {
  it('workspace.setStateDir remembers a folder in <config dir>/workspace.json and refuses one that is not there', async () => {
    const configDir = tempDir();
    const chosen = tempDir();
    const bridge = createDispatcherFor(
      workspaceMethods,
      createWorkspaceHandlers(createReplayService(), { configDir }),
      {
        validateResponses: true,
      },
    );
    expect(await call(bridge, 'workspace.setStateDir', { stateDir: chosen })).toMatchObject({
      ok: true,
      result: { stateDir: chosen, source: 'chosen', settingsFile: join(configDir, 'workspace.json') },
    });
    expect(await call(bridge, 'workspace.get', {})).toMatchObject({ ok: true, result: { stateDir: chosen } });
    const refused = await call(bridge, 'workspace.setStateDir', { stateDir: join(chosen, 'missing') });
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_found', path: '/stateDir' } });
  });

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
});
