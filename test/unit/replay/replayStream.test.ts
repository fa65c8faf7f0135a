import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MessageRecord, TurnRecord } from '../../../src/contract/recording';
import { createReplayService, sliceRecording, type ReplayService } from '../../../src/replay';
import { decodeTurnRecord } from '../../../src/view/listDelta';
import { SessionBuilder, tempDir } from './sessionBuilder';

async function longSession(turns: number): Promise<string> {
  const dir = tempDir();
  const b = new SessionBuilder();
  for (let i = 0; i < turns; i++) b.turn(`question ${i}: ${'words of the prompt '.repeat(20)}`);
  await b.write(dir);
  return join(dir, 'sess-1.jsonl');
}

/** Reads one generation from cursor 0 to its end, as the app does. */
function readGeneration(service: ReplayService, replayId: string, maxBytes: number) {
  const turns: TurnRecord[] = [];
  const messages: Record<string, MessageRecord> = {};
  const pageBytes: number[] = [];
  let cursor = 0;
  let heads = 0;
  for (;;) {
    const page = service.stream(replayId, { generation: 'final', cursor, maxBytes });
    expect(page.generation).toBe('final');
    pageBytes.push(Buffer.byteLength(JSON.stringify(page)));
    if (page.head) heads++;
    // each page turn's lists are deltas against its lane's previous turn, as the app decodes them
    for (const encoded of page.turns) {
      const previous = turns.filter((t) => t.lane === encoded.lane).at(-1);
      turns.push(decodeTurnRecord(encoded, previous, `turn ${encoded.turn}`));
    }
    Object.assign(messages, page.messages);
    cursor = page.cursor;
    if (!page.more) return { turns, messages, pageBytes, heads };
  }
}

describe('replay.stream', () => {
  it('pages a finished replay in bounded pages that together hold every turn and every message it references', async () => {
    const service = createReplayService();
    const { replayId } = await service.start({
      sessionPath: await longSession(40),
      lanes: ['legacy', 'legacy?label=b'],
      window: 64000,
    });
    const done = await service.wait(replayId);
    const recording = done.recording!;
    const maxBytes = 16 * 1024;
    const read = readGeneration(service, replayId, maxBytes);
    expect(read.heads).toBe(1);
    expect(read.pageBytes.length).toBeGreaterThan(3);
    // the envelope (status, lanes) adds a little to the turns and messages the budget bounds
    for (const bytes of read.pageBytes.slice(1)) expect(bytes).toBeLessThan(maxBytes + 8 * 1024);
    expect(read.turns.filter((t) => t.lane === 'legacy')).toEqual(recording.turns.legacy);
    expect(read.turns.filter((t) => t.lane === 'b')).toEqual(recording.turns.b);
    expect(read.messages).toEqual(sliceRecording(recording, { fromTurn: 0 }).messages);
  });

  it('streams turns while the replay runs, and Cancel keeps the turns done as a partial recording', async () => {
    const service = createReplayService();
    let replayId = '';
    let live: ReturnType<ReplayService['stream']> | undefined;
    const started = await service.start(
      { sessionPath: await longSession(60), lanes: ['legacy'], window: 64000 },
      (update) => {
        if (update.turn !== 4) return;
        live = service.stream(replayId, { generation: 'live', cursor: 0 });
        service.cancel(replayId);
      },
    );
    replayId = started.replayId;
    const snapshot = await service.wait(replayId);
    expect(live).toMatchObject({ status: 'running', generation: 'live' });
    expect(live!.turns.map((t) => t.turn)).toEqual([0, 1, 2, 3, 4]);
    expect(live!.head?.session.turnStarts).toHaveLength(60);
    for (const t of live!.turns) expect(live!.messages[t.promptKey]?.role).toBe('user');

    expect(snapshot.status).toBe('cancelled');
    const partial = snapshot.recording!;
    expect(partial.partial).toEqual({ reason: 'cancelled', done: 5, total: 60 });
    expect(partial.turns.legacy.map((t) => t.turn)).toEqual([0, 1, 2, 3, 4]);
    for (const t of partial.turns.legacy) expect(partial.messages[t.promptKey]?.tiktokenTokens).toBeGreaterThan(0);
    // after the cancel the stream moves to the partial recording (a new generation, from 0)
    const final = service.stream(replayId, { generation: 'live', cursor: 5 });
    expect(final).toMatchObject({ generation: 'final', status: 'cancelled' });
    expect(final.head?.partial?.reason).toBe('cancelled');
    expect(final.turns.map((t) => t.turn)).toEqual([0, 1, 2, 3, 4]);
    expect(service.export(replayId, 'json').bytes).toBeGreaterThan(0);
  });
});
