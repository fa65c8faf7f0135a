/**
 * replay.export within the bridge's message bound, over the real handler table: the JSON and HTML exports of a long
 * replay (a thin chain whose context grows every turn: several MB each) come in bridge.piece pieces like any answer
 * over 1 MB — every answer stays under 1 MB — and the client gets the export whole (the JSON imports to the
 * Recording that replay.get's pages give); a short replay's export comes in its one answer.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../main/handlers';
import { createBridgeDispatcher } from '../../../src/bridge';
import { BRIDGE_MESSAGE_BYTES, importRecording } from '../../../src/replay';
import { readExport, readReplayPages } from './replayReads';
import { SessionBuilder, tempDir } from './sessionBuilder';

type Dispatcher = ReturnType<typeof createBridgeDispatcher>;

async function finishedReplay(d: Dispatcher, turns: number): Promise<string> {
  const dir = tempDir();
  const b = new SessionBuilder();
  for (let i = 0; i < turns; i++) b.turn(`question ${i}: ${'words of the prompt '.repeat(12)}`);
  await b.write(dir);
  const started = await d.call('replay.start', {
    sessionPath: join(dir, 'sess-1.jsonl'),
    lanes: ['legacy'],
    window: 2_000_000,
  });
  if (!started.ok) throw new Error(started.error.message);
  const { replayId } = started.result as { replayId: string };
  for (;;) {
    const got = await d.call('replay.get', { replayId });
    if (got.ok && (got.result as { status: string }).status !== 'running') return replayId;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('replay.export of a long replay', () => {
  const d = createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node' }), {
    validateResponses: true,
  });
  let replayId = '';

  it('sends the JSON export in pieces under 1 MB that join to the recording', async () => {
    replayId = await finishedReplay(d, 800);
    const json = await readExport(d, replayId, 'json');
    expect(json.bytes).toBeGreaterThan(2 * BRIDGE_MESSAGE_BYTES);
    expect(Buffer.byteLength(json.text)).toBe(json.bytes);
    expect(json.answers[0]!.method).toBe('replay.export');
    expect(json.answers.slice(1).every((a) => a.method === 'bridge.piece') && json.answers.length > 3).toBe(true);
    const largest = Math.max(...json.answers.map((a) => a.bytes));
    expect(largest).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
    expect(importRecording(json.text)).toEqual((await readReplayPages(d, replayId)).recording);
    console.log(`JSON export ${json.bytes} bytes: ${json.answers.length} answers, the largest ${largest} bytes`);
  }, 120_000);

  it('sends the HTML report in pieces too, and the JSON export read again is the same', async () => {
    const html = await readExport(d, replayId, 'html');
    expect(html.answers.length).toBeGreaterThan(2);
    expect(Math.max(...html.answers.map((a) => a.bytes))).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
    expect(Buffer.byteLength(html.text)).toBe(html.bytes);
    expect(html.text.trimStart().toLowerCase()).toMatch(/^<!doctype html>/);
    expect(html.text.trimEnd()).toMatch(/<\/html>$/);
    const again = await readExport(d, replayId, 'json');
    expect(importRecording(again.text)).toEqual((await readReplayPages(d, replayId)).recording);
  }, 120_000);

  it('answers a short replay whole in one answer', async () => {
    const short = await finishedReplay(d, 3);
    const read = await readExport(d, short, 'json');
    expect(read.answers.map((a) => a.method)).toEqual(['replay.export']);
    expect(importRecording(read.text).turns.legacy).toHaveLength(3);
  }, 60_000);
});
