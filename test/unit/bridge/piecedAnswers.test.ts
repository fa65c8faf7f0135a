/**
 * Answers over the bridge's 1 MB bound travel in pieces (src/bridge/piecedAnswer.ts): over the WebSocket path
 * (`handleMessage`, what `contextscope serve` sends) no message is over 1 MB, the app's client (`callWithinBound`)
 * gets the answer back whole, a read answer is let go, and bad piece requests are refused naming the field; and the
 * other way, params over the bound go in `bridge.upload` pieces, are put together and validated before the handler.
 */
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { callWithinBound } from '../../../renderer/src/bridge/piecedAnswer';
import {
  BRIDGE_ANSWER_BYTES,
  createDispatcherFor,
  defineMethods,
  PIECE_METHOD,
  PIECES_MARKER,
  UPLOAD_MARKER,
  UPLOAD_METHOD,
  type BridgeEvent,
  type WireResponse,
} from '../../../src/bridge';

const specs = defineMethods({
  'test.count': {
    summary: 'how long the text sent was, and its last line',
    request: Type.Object({ text: Type.String(), mode: Type.Literal('count') }, { additionalProperties: false }),
    response: Type.Object({ chars: Type.Integer(), last: Type.String() }, { additionalProperties: false }),
  },
  'test.big': {
    summary: 'an answer of about `kb` kilobytes',
    request: Type.Object({ kb: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
    response: Type.Object({ rows: Type.Array(Type.String()), note: Type.String() }, { additionalProperties: false }),
  },
});

/** ~1 KB rows with quotes, backslashes, newlines, emoji and a control character: escapes count toward the bound. */
function rows(kb: number): string[] {
  return Array.from({ length: kb }, (_, i) => `${i}: "quoted" \\ back\nslash 😀 \u0001 ${'x'.repeat(960)}`);
}

function makeDispatcher(options: { maxUploadBytes?: number } = {}) {
  return createDispatcherFor(
    specs,
    {
      'test.big': ({ kb }: { kb: number }) => ({ rows: rows(kb), note: 'é'.repeat(10) }),
      'test.count': ({ text }: { text: string }) => ({
        chars: text.length,
        last: text.slice(text.lastIndexOf('\n') + 1),
      }),
    },
    { validateResponses: true, ...options },
  );
}

/** Sends one request the way the WebSocket shell does; the raw messages it answers with (as sent, in bytes). */
async function wire(d: ReturnType<typeof makeDispatcher>, method: string, params: unknown) {
  const sent: { message: WireResponse; bytes: number }[] = [];
  await d.handleMessage(JSON.stringify({ id: 1, method, params }), (message: WireResponse | BridgeEvent) => {
    const text = JSON.stringify(message);
    sent.push({ message: message as WireResponse, bytes: Buffer.byteLength(text) });
  });
  expect(sent).toHaveLength(1);
  return sent[0]!;
}

describe('pieced answers', () => {
  it('sends a 3 MB answer as a marker and pieces each under 1 MB, and the client gets it back whole', async () => {
    const d = makeDispatcher();
    const first = await wire(d, 'test.big', { kb: 3000 });
    expect(first.message.ok).toBe(true);
    const marker = (first.message as { result: Record<string, { token: string; count: number; bytes: number }> })
      .result[PIECES_MARKER]!;
    expect(marker.bytes).toBeGreaterThan(3 * BRIDGE_ANSWER_BYTES);
    expect(marker.count).toBeGreaterThan(5);
    const sizes = [first.bytes];
    const texts: string[] = [];
    for (let index = 0; index < marker.count; index++) {
      const piece = await wire(d, PIECE_METHOD, { token: marker.token, index });
      sizes.push(piece.bytes);
      texts.push((piece.message as { result: { text: string } }).result.text);
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BRIDGE_ANSWER_BYTES);
    expect(JSON.parse(texts.join(''))).toEqual({ rows: rows(3000), note: 'é'.repeat(10) });
    // every piece was read: the answer is let go
    const gone = await wire(d, PIECE_METHOD, { token: marker.token, index: 0 });
    expect(gone.message).toMatchObject({ ok: false, error: { code: 'not_found', path: '/token' } });
  });

  it("gives the app's client the whole answer, and a small answer unchanged in one message", async () => {
    const d = makeDispatcher();
    const calls: string[] = [];
    const call = callWithinBound(async (method, params) => {
      calls.push(method);
      const outcome = await d.call(method, params);
      expect(Buffer.byteLength(JSON.stringify(outcome))).toBeLessThanOrEqual(BRIDGE_ANSWER_BYTES);
      if (!outcome.ok) throw new Error(outcome.error.message);
      return outcome.result;
    });
    expect(await call('test.big', { kb: 2500 })).toEqual({ rows: rows(2500), note: 'é'.repeat(10) });
    expect(calls[0]).toBe('test.big');
    expect(calls.slice(1).every((m) => m === PIECE_METHOD) && calls.length > 3).toBe(true);
    calls.length = 0;
    expect(await call('test.big', { kb: 100 })).toEqual({ rows: rows(100), note: 'é'.repeat(10) });
    expect(calls).toEqual(['test.big']);
  });

  it('refuses piece requests that name no piece, saying which field', async () => {
    const d = makeDispatcher();
    const marker = (
      (await wire(d, 'test.big', { kb: 1500 })).message as { result: Record<string, { token: string; count: number }> }
    ).result[PIECES_MARKER]!;
    const outside = await wire(d, PIECE_METHOD, { token: marker.token, index: marker.count });
    expect(outside.message).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_params',
        path: '/index',
        message: `index ${marker.count} is outside the answer: it has ${marker.count} pieces, 0 to ${marker.count - 1}.`,
      },
    });
    for (const [params, path] of [
      [{ token: marker.token }, '/index'],
      [{ token: marker.token, index: -1 }, '/index'],
      [{ token: marker.token, index: 0.5 }, '/index'],
      [{ token: '', index: 0 }, '/token'],
      [{ token: marker.token, index: 0, extra: 1 }, '/extra'],
    ] as const) {
      const refused = await wire(d, PIECE_METHOD, params);
      expect(refused.message).toMatchObject({ ok: false, error: { code: 'invalid_params', path } });
    }
    expect((await wire(d, PIECE_METHOD, { token: 'no-such-token', index: 0 })).message).toMatchObject({
      ok: false,
      error: { code: 'not_found', path: '/token' },
    });
    // refusals kept the answer: it is still read whole
    const texts: string[] = [];
    for (let index = 0; index < marker.count; index++) {
      texts.push(
        ((await wire(d, PIECE_METHOD, { token: marker.token, index })).message as { result: { text: string } }).result
          .text,
      );
    }
    expect(JSON.parse(texts.join('')).rows).toHaveLength(1500);
  });

  it('holds at most 8 unread answers: a ninth pushes the oldest out', async () => {
    const d = makeDispatcher();
    const tokens: string[] = [];
    for (let i = 0; i < 9; i++) {
      const result = (await wire(d, 'test.big', { kb: 1100 })).message as { result: Record<string, { token: string }> };
      tokens.push(result.result[PIECES_MARKER]!.token);
    }
    expect((await wire(d, PIECE_METHOD, { token: tokens[0], index: 0 })).message).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect((await wire(d, PIECE_METHOD, { token: tokens[1], index: 0 })).message.ok).toBe(true);
  });

  it('lists bridge.piece and bridge.upload among the methods (the Electron shell opens a channel for each)', () => {
    expect(makeDispatcher().methodNames).toEqual(['test.count', 'test.big', PIECE_METHOD, UPLOAD_METHOD]);
  });
});

describe('uploaded params', () => {
  const text = rows(4000).join('\n');

  it('sends 4 MB of params in upload pieces under 1 MB, and the handler gets them whole', async () => {
    const d = makeDispatcher();
    const requests: { method: string; bytes: number }[] = [];
    let id = 0;
    const call = callWithinBound(async (method, params) => {
      const raw = JSON.stringify({ id: ++id, method, params });
      requests.push({ method, bytes: Buffer.byteLength(raw) });
      let answer: WireResponse | undefined;
      await d.handleMessage(raw, (message) => (answer = message as WireResponse));
      if (!answer?.ok) throw new Error(answer ? answer.error.message : 'no answer');
      return answer.result;
    });
    expect(await call('test.count', { text, mode: 'count' })).toEqual({
      chars: text.length,
      last: text.slice(text.lastIndexOf('\n') + 1),
    });
    expect(Buffer.byteLength(text)).toBeGreaterThan(3.5 * BRIDGE_ANSWER_BYTES);
    expect(requests.filter((r) => r.method === UPLOAD_METHOD).length).toBeGreaterThan(5);
    expect(requests.at(-1)!.method).toBe('test.count');
    expect(Math.max(...requests.map((r) => r.bytes))).toBeLessThanOrEqual(BRIDGE_ANSWER_BYTES);
  });

  /** Uploads `json` in two pieces; the token. */
  async function upload(d: ReturnType<typeof makeDispatcher>, json: string): Promise<string> {
    const first = await d.call(UPLOAD_METHOD, { text: json.slice(0, 10) });
    const token = (first.ok && (first.result as { token: string }).token) as string;
    const second = await d.call(UPLOAD_METHOD, { token, text: json.slice(10) });
    expect(second.ok && second.result).toEqual({ token, bytes: Buffer.byteLength(json) });
    return token;
  }

  it('validates the params put together, and lets an upload go once a call used it', async () => {
    const d = makeDispatcher();
    const token = await upload(d, JSON.stringify({ text: 'a\nb', mode: 'count' }));
    expect(await d.call('test.count', { [UPLOAD_MARKER]: token })).toEqual({
      ok: true,
      result: { chars: 3, last: 'b' },
    });
    expect(await d.call('test.count', { [UPLOAD_MARKER]: token })).toMatchObject({
      ok: false,
      error: { code: 'not_found', path: `/${UPLOAD_MARKER}` },
    });
    const wrong = await upload(d, JSON.stringify({ text: 'a', mode: 'sum' }));
    expect(await d.call('test.count', { [UPLOAD_MARKER]: wrong })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', path: '/mode' },
    });
    const broken = await upload(d, '{"text": "a", "mode": "count"');
    expect(await d.call('test.count', { [UPLOAD_MARKER]: broken })).toMatchObject({
      ok: false,
      error: { code: 'invalid_json', path: `/${UPLOAD_MARKER}` },
    });
  });

  it('refuses an upload past its cap, an unknown token and bad upload params, naming the field', async () => {
    const d = makeDispatcher({ maxUploadBytes: 1000 });
    const first = await d.call(UPLOAD_METHOD, { text: 'x'.repeat(600) });
    const token = (first.ok && (first.result as { token: string }).token) as string;
    expect(await d.call(UPLOAD_METHOD, { token, text: 'x'.repeat(600) })).toMatchObject({
      ok: false,
      error: { code: 'payload_too_large', path: '/text' },
    });
    // an upload past its cap is let go
    expect(await d.call(UPLOAD_METHOD, { token, text: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'not_found', path: '/token' },
    });
    for (const [params, path] of [
      [{}, '/text'],
      [{ text: 5 }, '/text'],
      [{ token: '', text: 'x' }, '/token'],
      [{ text: 'x', extra: true }, '/extra'],
    ] as const) {
      expect(await d.call(UPLOAD_METHOD, params)).toMatchObject({ ok: false, error: { code: 'invalid_params', path } });
    }
    expect(await d.call('test.count', { [UPLOAD_MARKER]: 7 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', path: `/${UPLOAD_MARKER}` },
    });
  });

  it('holds at most 4 uploads: a fifth pushes the oldest out', async () => {
    const d = makeDispatcher();
    const tokens: string[] = [];
    for (let i = 0; i < 5; i++) tokens.push(await upload(d, JSON.stringify({ text: `t${i}`, mode: 'count' })));
    expect((await d.call('test.count', { [UPLOAD_MARKER]: tokens[0] })).ok).toBe(false);
    expect(await d.call('test.count', { [UPLOAD_MARKER]: tokens[4] })).toEqual({
      ok: true,
      result: { chars: 2, last: 't4' },
    });
  });
});
