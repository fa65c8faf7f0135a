/**
 * replay.export within the bridge's message bound, over the real handler table: the JSON and HTML exports of a long
 * replay (a thin chain whose context grows every turn: several MB each) are answered with `pieces` instead of their
 * text, every answer stays under 1 MB, and the pieces joined are the export (the JSON imports to the Recording that
 * replay.get's pages give); a short replay's export still comes whole; a piece that is not there is refused with
 * the field and the range.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../main/handlers';
import { createBridgeDispatcher } from '../../../src/bridge';
import { BRIDGE_MESSAGE_BYTES, importRecording } from '../../../src/replay';
import { jsonTextPieces } from '../../../src/common/jsonTextPieces';
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

  it('answers the JSON export in pieces under 1 MB that join to the recording', async () => {
    replayId = await finishedReplay(d, 800);
    const json = await readExport(d, replayId, 'json');
    // before: the whole export in one answer
    expect(json.first.bytes).toBeGreaterThan(2 * BRIDGE_MESSAGE_BYTES);
    expect(json.first.content).toBeUndefined();
    expect(json.first.pieces).toBeGreaterThan(2);
    expect(json.sizes).toHaveLength(json.first.pieces! + 1);
    expect(Math.max(...json.sizes)).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
    expect(Buffer.byteLength(json.text)).toBe(json.first.bytes);
    expect(importRecording(json.text)).toEqual((await readReplayPages(d, replayId)).recording);
    console.log(
      `JSON export ${json.first.bytes} bytes: ${json.first.pieces} pieces, largest answer ${Math.max(...json.sizes)} bytes`,
    );
  }, 120_000);

  it('answers the HTML report in pieces too, and reading one export does not disturb the other', async () => {
    const html = await readExport(d, replayId, 'html');
    expect(html.first.pieces).toBeGreaterThan(1);
    expect(Math.max(...html.sizes)).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
    expect(Buffer.byteLength(html.text)).toBe(html.first.bytes);
    expect(html.text.trimStart().toLowerCase()).toMatch(/^<!doctype html>/);
    expect(html.text.trimEnd()).toMatch(/<\/html>$/);
    // a JSON reading started again after the HTML one gives the same text
    const again = await readExport(d, replayId, 'json');
    expect(importRecording(again.text)).toEqual((await readReplayPages(d, replayId)).recording);
  }, 120_000);

  it('refuses a piece outside the export, and a piece of an export nobody asked for, naming the field', async () => {
    const first = await d.call('replay.export', { replayId, format: 'json' });
    const pieces = first.ok ? (first.result as { pieces: number }).pieces : 0;
    const outside = await d.call('replay.export', { replayId, format: 'json', piece: pieces });
    expect(outside.ok).toBe(false);
    expect(!outside.ok && outside.error).toMatchObject({
      code: 'invalid_params',
      path: '/piece',
      message: `piece ${pieces} is outside the export: it has ${pieces} pieces, 0 to ${pieces - 1}.`,
    });
    // the job keeps the JSON reading; an HTML piece without asking for the HTML export first names what to do
    const unasked = await d.call('replay.export', { replayId, format: 'html', piece: 0 });
    expect(!unasked.ok && unasked.error).toMatchObject({ code: 'invalid_params', path: '/piece' });
    expect(!unasked.ok && unasked.error.message).toMatch(/ask without piece first/);
    for (const piece of [-1, 1.5, '0']) {
      const bad = await d.call('replay.export', { replayId, format: 'json', piece });
      expect(!bad.ok && bad.error.code).toBe('invalid_params');
    }
  });

  it('still answers a short replay whole, and refuses a piece of it', async () => {
    const short = await finishedReplay(d, 3);
    const read = await readExport(d, short, 'json');
    expect(read.first.pieces).toBeUndefined();
    expect(read.first.content).toBe(read.text);
    expect(importRecording(read.text).turns.legacy).toHaveLength(3);
    const piece = await d.call('replay.export', { replayId: short, format: 'json', piece: 0 });
    expect(!piece.ok && piece.error).toMatchObject({ code: 'invalid_params', path: '/piece' });
  }, 60_000);
});

describe('jsonTextPieces', () => {
  it('joins back to the text, keeps surrogate pairs whole and each piece near its bound, escapes counted', () => {
    const text = `${'a"\\\n'.repeat(40_000)}${'😀'.repeat(30_000)}${'\u0001'.repeat(20_000)}`;
    const pieces = jsonTextPieces(text, 64 * 1024);
    expect(pieces.join('')).toBe(text);
    for (const piece of pieces) {
      // one 16 Ki-character step of six-byte escapes past the bound at most
      expect(Buffer.byteLength(JSON.stringify(piece))).toBeLessThan(64 * 1024 + 6 * 16 * 1024 + 2);
      const last = piece.charCodeAt(piece.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    }
    expect(pieces.length).toBeGreaterThan(4);
  });
});
