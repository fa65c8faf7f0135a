/**
 * replay.stream with a head too large for a page (a long session's message keys): the head comes first as pieces of
 * its JSON text, each page stays under 1 MB, and the pages read from cursor 0 give the Recording back.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MessageRecord, Recording, TurnRecord } from '../../../src/contract/recording';
import { BRIDGE_MESSAGE_BYTES, createReplayService } from '../../../src/replay';
import { createJobStream, streamPage } from '../../../src/replay/stream/replayStreamPage';
import { decodeTurnRecord } from '../../../src/view/listDelta';
import { SessionBuilder, tempDir } from './sessionBuilder';

async function recordingOf(turns: number): Promise<Recording> {
  const dir = tempDir();
  const b = new SessionBuilder();
  for (let i = 0; i < turns; i++) b.turn(`question ${i}`);
  await b.write(dir);
  const service = createReplayService();
  const { replayId } = await service.start({
    sessionPath: join(dir, 'sess-1.jsonl'),
    lanes: ['legacy'],
    window: 64000,
  });
  return (await service.wait(replayId)).recording!;
}

describe('replay.stream of a recording with a large head', () => {
  it('sends the head as pieces of its text before the turns, every page under 1 MB', async () => {
    const small = await recordingOf(30);
    const keys = Array.from({ length: 60_000 }, (_, i) => `message-key-of-a-long-session-${i}`);
    const recording: Recording = { ...small, session: { ...small.session, messageKeys: keys } };
    const stream = createJobStream();
    let text = '';
    const turns: TurnRecord[] = [];
    const messages: Record<string, MessageRecord> = {};
    const bytes: number[] = [];
    let pieces = 0;
    for (let cursor = 0; ;) {
      const page = streamPage(stream, { running: false, recording, startedAt: 0 }, { generation: 'final', cursor });
      bytes.push(Buffer.byteLength(JSON.stringify(page)));
      expect(page.head).toBeUndefined();
      if (page.headText !== undefined) {
        expect(turns).toHaveLength(0);
        pieces++;
        text += page.headText;
      }
      for (const encoded of page.turns) turns.push(decodeTurnRecord(encoded, turns.at(-1), `turn ${encoded.turn}`));
      Object.assign(messages, page.messages);
      if (!page.more) break;
      cursor = page.cursor;
    }
    expect(pieces).toBeGreaterThan(2);
    expect(Math.max(...bytes)).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
    const { turns: _turns, messages: _messages, ...head } = recording;
    expect(JSON.parse(text)).toEqual(head);
    expect(turns).toEqual(recording.turns.legacy);
    expect(messages).toEqual(recording.messages);
  });
});
