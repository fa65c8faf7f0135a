import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BridgeMethodError,
  createDispatcherFor,
  defineMethods,
  NoParams,
  type BridgeEvent,
  type WireResponse,
} from '../../../src/bridge';

const specs = defineMethods({
  'test.echo': {
    summary: 'echo',
    request: Type.Object(
      {
        text: Type.String(),
        mode: Type.Optional(Type.Union([Type.Literal('upper'), Type.Literal('lower')])),
        nested: Type.Optional(Type.Object({ count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
    response: Type.Object({ text: Type.String() }, { additionalProperties: false }),
  },
  'test.none': { summary: 'no params', request: NoParams, response: Type.Literal('done') },
  'test.throws': { summary: 'throws', request: NoParams, response: Type.Null() },
  'test.coded': { summary: 'coded error', request: NoParams, response: Type.Null() },
  'test.badResult': { summary: 'bad result', request: NoParams, response: Type.Object({ n: Type.Integer() }) },
  'test.progress': { summary: 'emits progress', request: NoParams, response: Type.Integer() },
  'test.badEvent': { summary: 'emits a bad event', request: NoParams, response: Type.Null() },
  'test.missing': { summary: 'no handler', request: NoParams, response: Type.Null() },
});

function makeDispatcher(options: { validateResponses?: boolean; maxRequestBytes?: number } = {}) {
  const handlerErrors: string[] = [];
  const handlers = {
    'test.echo': (params: { text: string; mode?: 'upper' | 'lower' }) => ({
      text:
        params.mode === 'upper'
          ? params.text.toUpperCase()
          : params.mode === 'lower'
            ? params.text.toLowerCase()
            : params.text,
    }),
    'test.none': () => 'done' as const,
    'test.throws': () => {
      throw new Error('disk is on fire');
    },
    'test.coded': () => {
      throw new BridgeMethodError(
        'not_found',
        'Session abc was not found in ~/.openclaw; pick another session.',
        '/sessionId',
      );
    },
    'test.badResult': () => ({ n: 'seven' }) as unknown as { n: number },
    'test.progress': (_params: unknown, ctx: { emit: (topic: 'progress', payload: never) => void }) => {
      ctx.emit('progress', { taskId: 't1', phase: 'load', done: 1, total: 2 } as never);
      ctx.emit('progress', { taskId: 't1', phase: 'load', done: 2, total: 2 } as never);
      return 2;
    },
    'test.badEvent': (_params: unknown, ctx: { emit: (topic: 'progress', payload: never) => void }) => {
      ctx.emit('progress', { taskId: 't1', phase: 'load', done: -1, total: null } as never);
      return null;
    },
  } as never;
  const dispatcher = createDispatcherFor(specs, handlers, {
    validateResponses: options.validateResponses ?? true,
    maxRequestBytes: options.maxRequestBytes,
    onHandlerError: (error, method) => handlerErrors.push(`${method}: ${(error as Error).message}`),
  });
  return { dispatcher, handlerErrors };
}

const shared = makeDispatcher().dispatcher;

async function send(raw: string | Uint8Array, maxRequestBytes?: number) {
  const dispatcher = maxRequestBytes === undefined ? shared : makeDispatcher({ maxRequestBytes }).dispatcher;
  const messages: Array<WireResponse | BridgeEvent> = [];
  await dispatcher.handleMessage(raw, (message) => messages.push(message));
  return messages;
}

describe('createDispatcherFor: call()', () => {
  it('runs the handler with validated params and returns its result', async () => {
    const { dispatcher } = makeDispatcher();
    expect(await dispatcher.call('test.echo', { text: 'Hi', mode: 'upper' })).toEqual({
      ok: true,
      result: { text: 'HI' },
    });
  });

  it('reads omitted params as {} for methods without params', async () => {
    const { dispatcher } = makeDispatcher();
    expect(await dispatcher.call('test.none', undefined)).toEqual({ ok: true, result: 'done' });
  });

  it('refuses an unknown method and lists the known ones', async () => {
    const { dispatcher } = makeDispatcher();
    const outcome = await dispatcher.call('replay.nope', {});
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: 'unknown_method',
        method: 'replay.nope',
        path: '',
        message: expect.stringContaining('Unknown bridge method "replay.nope". Known methods: test.echo, test.none'),
      },
    });
  });

  it('refuses a non-string method name', async () => {
    const { dispatcher } = makeDispatcher();
    const outcome = await dispatcher.call(42, {});
    expect(outcome.ok === false && outcome.error.code).toBe('invalid_message');
  });

  it('reports a wrong type with the JSON pointer of the field', async () => {
    const { dispatcher } = makeDispatcher();
    expect(await dispatcher.call('test.echo', { text: 'x', nested: { count: 'three' } })).toEqual({
      ok: false,
      error: {
        code: 'invalid_params',
        method: 'test.echo',
        path: '/nested/count',
        message: 'Invalid params for test.echo at /nested/count: must be integer.',
      },
    });
  });

  it('names a missing required property in path and message', async () => {
    const { dispatcher } = makeDispatcher();
    const outcome = await dispatcher.call('test.echo', {});
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_params', path: '/text' } });
    expect(outcome.ok === false && outcome.error.message).toBe(
      'Invalid params for test.echo at /text: required property "text" is missing.',
    );
  });

  it('names an unexpected property', async () => {
    const { dispatcher } = makeDispatcher();
    const outcome = await dispatcher.call('test.none', { force: true });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_params', path: '/force' } });
    expect(outcome.ok === false && outcome.error.message).toContain('unexpected property "force"');
  });

  it('lists the allowed values of a union of literals', async () => {
    const { dispatcher } = makeDispatcher();
    const outcome = await dispatcher.call('test.echo', { text: 'x', mode: 'title' });
    expect(outcome.ok === false && outcome.error).toMatchObject({
      path: '/mode',
      message: 'Invalid params for test.echo at /mode: must be one of "upper", "lower".',
    });
  });

  it('does not run the handler when params are invalid', async () => {
    const { dispatcher, handlerErrors } = makeDispatcher();
    await dispatcher.call('test.throws', { unexpected: 1 });
    expect(handlerErrors).toEqual([]);
  });

  it('turns a handler exception into handler_failed with its message and reports it', async () => {
    const { dispatcher, handlerErrors } = makeDispatcher();
    expect(await dispatcher.call('test.throws', {})).toEqual({
      ok: false,
      error: {
        code: 'handler_failed',
        method: 'test.throws',
        path: '',
        message: 'test.throws failed: disk is on fire',
      },
    });
    expect(handlerErrors).toEqual(['test.throws: disk is on fire']);
  });

  it('passes a BridgeMethodError code and path through', async () => {
    const { dispatcher } = makeDispatcher();
    expect(await dispatcher.call('test.coded', {})).toEqual({
      ok: false,
      error: {
        code: 'not_found',
        method: 'test.coded',
        path: '/sessionId',
        message: 'Session abc was not found in ~/.openclaw; pick another session.',
      },
    });
  });

  it('flags a result that breaks the response schema when response validation is on', async () => {
    const { dispatcher } = makeDispatcher({ validateResponses: true });
    const outcome = await dispatcher.call('test.badResult', {});
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'invalid_response', method: 'test.badResult', path: '/n' },
    });
  });

  it('returns the result unchecked when response validation is off', async () => {
    const { dispatcher } = makeDispatcher({ validateResponses: false });
    expect(await dispatcher.call('test.badResult', {})).toEqual({ ok: true, result: { n: 'seven' } });
  });

  it('answers not_implemented when the table lacks a handler for a contract method', async () => {
    const { dispatcher } = makeDispatcher();
    expect(await dispatcher.call('test.missing', {})).toMatchObject({
      ok: false,
      error: { code: 'not_implemented', method: 'test.missing' },
    });
  });

  it('delivers handler events to the sink, in order, before the result', async () => {
    const { dispatcher } = makeDispatcher();
    const events: BridgeEvent[] = [];
    const outcome = await dispatcher.call('test.progress', {}, (event) => events.push(event));
    expect(events).toEqual([
      { type: 'event', topic: 'progress', payload: { taskId: 't1', phase: 'load', done: 1, total: 2 } },
      { type: 'event', topic: 'progress', payload: { taskId: 't1', phase: 'load', done: 2, total: 2 } },
    ]);
    expect(outcome).toEqual({ ok: true, result: 2 });
  });

  it('fails the call when a handler emits an event that breaks its topic schema', async () => {
    const { dispatcher } = makeDispatcher();
    const events: BridgeEvent[] = [];
    const outcome = await dispatcher.call('test.badEvent', {}, (event) => events.push(event));
    expect(events).toEqual([]);
    expect(outcome.ok === false && outcome.error.message).toContain(
      'emitted a "progress" event that does not match its schema at /done',
    );
  });

  it('refuses params that are not plain JSON (cycles) without throwing', async () => {
    const { dispatcher } = makeDispatcher();
    const cyclic: Record<string, unknown> = { text: 'x' };
    cyclic.self = cyclic;
    const outcome = await dispatcher.call('test.echo', cyclic);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_params', method: 'test.echo' } });
    expect(outcome.ok === false && outcome.error.message).toMatch(/^params must be plain JSON data/);
  });

  it('refuses params above the size cap', async () => {
    const { dispatcher } = makeDispatcher({ maxRequestBytes: 100 });
    const outcome = await dispatcher.call('test.echo', { text: 'x'.repeat(200) });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'payload_too_large', method: 'test.echo' } });
  });
});

describe('createDispatcherFor: handleMessage()', () => {
  it('answers a request envelope with the same id', async () => {
    expect(await send(JSON.stringify({ id: 7, method: 'test.echo', params: { text: 'a' } }))).toEqual([
      { id: 7, ok: true, result: { text: 'a' } },
    ]);
  });

  it('sends events before the response', async () => {
    const messages = await send(JSON.stringify({ id: 'p', method: 'test.progress' }));
    expect(
      messages.map((message) => ('type' in message ? `event:${message.topic}` : `response:${String(message.id)}`)),
    ).toEqual(['event:progress', 'event:progress', 'response:p']);
  });

  it('answers non-JSON with invalid_json and id null', async () => {
    const [response] = await send('{"id": 1, "method": ');
    expect(response).toMatchObject({ id: null, ok: false, error: { code: 'invalid_json', method: '', path: '' } });
  });

  it('answers a wrong envelope with invalid_message, echoing a readable id', async () => {
    expect(await send(JSON.stringify({ id: 3, method: 'test.none', extra: true }))).toEqual([
      {
        id: 3,
        ok: false,
        error: {
          code: 'invalid_message',
          method: 'test.none',
          path: '/extra',
          message:
            'The bridge message is not a request envelope {"id", "method", "params"}: at /extra unexpected property "extra".',
        },
      },
    ]);
    expect((await send('[1,2,3]'))[0]).toMatchObject({ id: null, ok: false, error: { code: 'invalid_message' } });
  });

  it('refuses a message above the size cap before parsing it', async () => {
    const [response] = await send(`{"id":1,"method":"test.echo","params":{"text":"${'y'.repeat(500)}"}}`, 256);
    expect(response).toMatchObject({ id: null, ok: false, error: { code: 'payload_too_large' } });
  });

  it('accepts binary frames holding UTF-8 JSON', async () => {
    const raw = new TextEncoder().encode(JSON.stringify({ id: 1, method: 'test.echo', params: { text: 'ü' } }));
    expect(await send(raw)).toEqual([{ id: 1, ok: true, result: { text: 'ü' } }]);
  });

  it('answers every hostile message with exactly one structured response and never throws', async () => {
    const hostile = fc.oneof(
      fc.string(),
      fc.json(),
      fc
        .record({
          id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
          method: fc.oneof(
            fc.string(),
            fc.constantFrom('test.echo', 'test.none', '__proto__', 'constructor', 'toString'),
          ),
          params: fc.anything(),
        })
        .map((value) => {
          try {
            return JSON.stringify(value) ?? 'null';
          } catch {
            return '{}';
          }
        }),
    );
    await fc.assert(
      fc.asyncProperty(hostile, async (raw) => {
        const responses = (await send(raw)).filter((message) => !('type' in message));
        expect(responses).toHaveLength(1);
        const [response] = responses as WireResponse[];
        expect(typeof response!.ok).toBe('boolean');
        if (!response!.ok) {
          expect(Object.keys(response!.error).sort()).toEqual(['code', 'message', 'method', 'path']);
          expect(response!.error.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('does not treat inherited object keys as method names', async () => {
    for (const method of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const [response] = await send(JSON.stringify({ id: 1, method }));
      expect(response).toMatchObject({ ok: false, error: { code: 'unknown_method', method } });
    }
  });
});
