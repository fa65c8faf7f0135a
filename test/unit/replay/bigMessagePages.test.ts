/**
 * A real session's big message within the bridge's bound: a turn whose `read` tool result is a 3 MB file travels
 * alone in its page, and that page (over 1 MB) is sent in pieces; over the WebSocket path no message is over 1 MB,
 * and the app's client reads the replay back — the tool result whole, byte for byte — from replay.stream and
 * replay.get alike.
 */
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../main/handlers';
import { callWithinBound } from '../../../renderer/src/bridge/piecedAnswer';
import { BRIDGE_ANSWER_BYTES, createBridgeDispatcher, type WireResponse } from '../../../src/bridge';
import type { MessageRecord, TurnRecord } from '../../../src/contract/recording';
import type { RecordingPage } from '../../../src/replay';
import { decodeTurnRecord } from '../../../src/view/listDelta';
import { writeReadToolSession } from './readToolSession';

/** a 3 MB source file, as a `read` tool returns it */
const FILE = Array.from({ length: 40_000 }, (_, i) => `export const line${i} = "${'v'.repeat(60)}"; // ${i}\n`).join(
  '',
);

/** The app's client over the WebSocket path, noting the bytes of every message the bridge sends. */
function webSocketPathClient() {
  const d = createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node' }), {
    validateResponses: true,
  });
  const sizes: number[] = [];
  let id = 0;
  const send = async (method: string, params: unknown): Promise<unknown> => {
    let answer: WireResponse | undefined;
    await d.handleMessage(JSON.stringify({ id: ++id, method, params }), (message) => {
      sizes.push(Buffer.byteLength(JSON.stringify(message)));
      if (!('type' in message)) answer = message;
    });
    if (!answer?.ok) throw new Error(`${method}: ${answer ? answer.error.message : 'no answer'}`);
    return answer.result;
  };
  return { call: callWithinBound(send), sizes };
}

function toolResultText(messages: Record<string, MessageRecord>): string | undefined {
  for (const record of Object.values(messages)) {
    const message = record.message as { role: string; content?: { type: string; text?: string }[] };
    if (message.role === 'toolResult') return message.content?.map((part) => part.text ?? '').join('');
  }
  return undefined;
}

describe('a turn with a 3 MB tool result', () => {
  it('reaches the app whole through replay.stream and replay.get, no bridge message over 1 MB', async () => {
    const { call, sizes } = webSocketPathClient();
    const { file: sessionPath } = await writeReadToolSession(FILE);
    const { replayId } = (await call('replay.start', { sessionPath, lanes: ['legacy'], window: 2_000_000 })) as {
      replayId: string;
    };
    while (((await call('replay.get', { replayId })) as { status: string }).status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    // replay.stream, final generation, from 0 until no more
    const streamed: { turns: TurnRecord[]; messages: Record<string, MessageRecord> } = { turns: [], messages: {} };
    for (let cursor = 0; ;) {
      const page = (await call('replay.stream', { replayId, generation: 'final', cursor })) as {
        cursor: number;
        more: boolean;
        turns: Parameters<typeof decodeTurnRecord>[0][];
        messages: Record<string, MessageRecord>;
      };
      for (const encoded of page.turns) streamed.turns.push(decodeTurnRecord(encoded, streamed.turns.at(-1), 'turn'));
      Object.assign(streamed.messages, page.messages);
      if (!page.more) break;
      cursor = page.cursor;
    }
    expect(streamed.turns).toHaveLength(3);
    expect(toolResultText(streamed.messages)).toBe(FILE);

    // replay.get's pages
    const paged: Record<string, MessageRecord> = {};
    for (let from = 0; ;) {
      const { page } = (await call('replay.get', { replayId, from })) as { page: RecordingPage };
      Object.assign(paged, page.messages);
      if (!page.more) break;
      from = page.next;
    }
    expect(toolResultText(paged)).toBe(FILE);

    expect(Buffer.byteLength(FILE)).toBeGreaterThan(3 * BRIDGE_ANSWER_BYTES);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BRIDGE_ANSWER_BYTES);
    console.log(`3 MB tool result: ${sizes.length} bridge messages, largest ${Math.max(...sizes)} bytes`);
  }, 60_000);
});
