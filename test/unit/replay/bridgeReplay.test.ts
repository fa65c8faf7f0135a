import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../main/handlers';
import { createBridgeDispatcher, type BridgeEvent } from '../../../src/bridge';
import { importRecording } from '../../../src/replay';
import { SessionBuilder, tempDir } from './sessionBuilder';

async function sessionFile(): Promise<string> {
  const dir = tempDir();
  await new SessionBuilder().turn('one').turn('two').write(dir);
  return join(dir, 'sess-1.jsonl');
}

function dispatcher() {
  return createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node' }), { validateResponses: true });
}

async function waitDone(d: ReturnType<typeof dispatcher>, replayId: string) {
  for (;;) {
    const outcome = await d.call('replay.get', { replayId });
    if (!outcome.ok) throw new Error(outcome.error.message);
    const result = outcome.result as { status: string };
    if (result.status !== 'running')
      return outcome.result as { status: string; recording?: unknown; done: number; total: number };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('bridge replay.*', () => {
  it('replay.start answers with an id, emits replay.progress, and replay.get returns a schema-valid Recording', async () => {
    const d = dispatcher();
    const events: BridgeEvent[] = [];
    const started = await d.call(
      'replay.start',
      { sessionPath: await sessionFile(), lanes: ['legacy', 'legacy?window=64000&label=wide'], window: 32000 },
      (e) => events.push(e),
    );
    expect(started.ok).toBe(true);
    const { replayId } = (started as { result: { replayId: string } }).result;
    const done = await waitDone(d, replayId);
    expect(done).toMatchObject({ status: 'done', done: 4, total: 4 });
    importRecording(done.recording);
    // lanes advance turn by turn together; within a turn they finish in either order
    const byTurn = (turn: number) =>
      events
        .map((e) => e.payload as { lane: string; turn: number })
        .slice(turn * 2, turn * 2 + 2)
        .sort((a, b) => a.lane.localeCompare(b.lane));
    expect(byTurn(0)).toEqual([
      { replayId, lane: 'legacy', turn: 0, total: 2 },
      { replayId, lane: 'wide', turn: 0, total: 2 },
    ]);
    expect(byTurn(1)).toEqual([
      { replayId, lane: 'legacy', turn: 1, total: 2 },
      { replayId, lane: 'wide', turn: 1, total: 2 },
    ]);
    expect(events.every((e) => e.topic === 'replay.progress')).toBe(true);

    const slice = await d.call('replay.get', { replayId, lane: 'wide', fromTurn: 1 });
    const rec = (
      slice as {
        result: { recording: { turns: Record<string, { turn: number }[]>; messages: Record<string, unknown> } };
      }
    ).result.recording;
    expect(Object.keys(rec.turns)).toEqual(['wide']);
    expect(rec.turns.wide.map((t) => t.turn)).toEqual([1]);
    expect(Object.keys(rec.messages)).toHaveLength(4);

    const html = await d.call('replay.export', { replayId, format: 'html' });
    expect(html.ok && (html.result as { content: string }).content.startsWith('<!doctype html>')).toBe(true);
    const json = await d.call('replay.export', { replayId, format: 'json' });
    // the file format: lists as deltas against the lane's previous turn
    expect(json.ok && JSON.parse((json.result as { content: string }).content).schemaVersion).toBe(2);
    // a bridge caller cannot make the app write a file of its choosing
    const file = join(tempDir(), 'out.json');
    const refused = await d.call('replay.export', { replayId, format: 'json', path: file });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(existsSync(file)).toBe(false);
  });

  it('reports bad lanes and unknown replays with codes and paths', async () => {
    const d = dispatcher();
    const bad = await d.call('replay.start', { sessionPath: await sessionFile(), lanes: ['nope'], window: 32000 });
    expect(bad).toEqual({
      ok: false,
      error: {
        code: 'invalid_params',
        method: 'replay.start',
        path: '/lanes',
        message:
          'Invalid lane spec "nope": it must start with "legacy" or "plugin:". Expected legacy[?window=N&reserve=N&host=H&label=L] or plugin:<path-or-id>[?config=<file.json>|configJson5=<percent-encoded JSON5>][&engine=<engineId>].',
      },
    });
    const missing = await d.call('replay.get', { replayId: 'r-404' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found', path: '/replayId' } });
    const schema = await d.call('replay.start', { sessionPath: 'x', lanes: [], window: 1 });
    expect(schema).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
  });

  it('sessions.list lists the sessions of a folder, newest first', async () => {
    const d = dispatcher();
    const file = await sessionFile();
    const listed = await d.call('sessions.list', { stateDir: join(file, '..') });
    expect(listed).toMatchObject({
      ok: true,
      result: { sessions: [{ sessionId: 'sess-1', file, isSubagent: false }] },
    });
  });
});
