import { describe, expect, it } from 'vitest';
import { createWebSocketClient, type WebSocketLike } from '../../renderer/src/bridge/webSocketClient';
import { bridgeUrlFromLocation, createInspectorClient } from '../../renderer/src/bridge/createInspectorClient';
import type { PreloadBridgeApi } from '../../src/bridge';

type Handler = (event: { data?: unknown; code?: number }) => void;

function fakeSocket() {
  const handlers = new Map<string, Handler[]>();
  const sent: string[] = [];
  const urls: string[] = [];
  const socket: WebSocketLike = {
    readyState: 0,
    send: (data) => sent.push(data),
    close: () => {},
    addEventListener: (type, listener) => handlers.set(type, [...(handlers.get(type) ?? []), listener]),
  };
  const fire = (type: string, event: { data?: unknown; code?: number } = {}) =>
    handlers.get(type)?.forEach((handler) => handler(event));
  return { socket, sent, urls, fire, factory: (url: string) => (urls.push(url), socket) };
}

describe('createWebSocketClient', () => {
  it('queues calls until the socket opens, then sends {id, method, params}', async () => {
    const fake = fakeSocket();
    const client = createWebSocketClient('ws://127.0.0.1:1/bridge?token=t', fake.factory);
    expect(client.connectionState()).toBe('connecting');
    const pending = client.call('app.info', {});
    expect(fake.sent).toEqual([]);
    fake.fire('open');
    expect(client.connectionState()).toBe('connected');
    expect(fake.sent.map((raw) => JSON.parse(raw))).toEqual([{ id: 1, method: 'app.info', params: {} }]);
    fake.fire('message', { data: JSON.stringify({ id: 1, ok: true, result: { version: '0.1.0' } }) });
    expect(await pending).toEqual({ version: '0.1.0' });
  });

  it('rejects with the structured error (code, method, path, message)', async () => {
    const fake = fakeSocket();
    const client = createWebSocketClient('ws://x/bridge?token=t', fake.factory);
    fake.fire('open');
    const pending = client.call('app.info', {});
    fake.fire('message', {
      data: JSON.stringify({
        id: 1,
        ok: false,
        error: { code: 'invalid_params', method: 'app.info', path: '/x', message: 'bad x' },
      }),
    });
    await expect(pending).rejects.toMatchObject({
      name: 'BridgeCallError',
      code: 'invalid_params',
      method: 'app.info',
      path: '/x',
      message: 'bad x',
    });
  });

  it('matches responses to calls by id, whatever the order', async () => {
    const fake = fakeSocket();
    const client = createWebSocketClient('ws://x/bridge?token=t', fake.factory);
    fake.fire('open');
    const first = client.call('app.info', {});
    const second = client.call('app.health', {});
    fake.fire('message', { data: JSON.stringify({ id: 2, ok: true, result: 'health' }) });
    fake.fire('message', { data: JSON.stringify({ id: 1, ok: true, result: 'info' }) });
    expect(await Promise.all([first, second])).toEqual(['info', 'health']);
  });

  it('delivers events to subscribers until they unsubscribe', () => {
    const fake = fakeSocket();
    const client = createWebSocketClient('ws://x/bridge?token=t', fake.factory);
    fake.fire('open');
    const received: unknown[] = [];
    const unsubscribe = client.onEvent((event) => received.push(event));
    const event = { type: 'event', topic: 'progress', payload: { taskId: 't', phase: 'p', done: 1, total: null } };
    fake.fire('message', { data: JSON.stringify(event) });
    unsubscribe();
    fake.fire('message', { data: JSON.stringify(event) });
    expect(received).toEqual([event]);
  });

  it('rejects pending calls with "disconnected" when the socket closes, and refuses new ones', async () => {
    const fake = fakeSocket();
    const client = createWebSocketClient('ws://x/bridge?token=t', fake.factory);
    const states: string[] = [];
    client.onConnectionChange((state) => states.push(state));
    fake.fire('open');
    const pending = client.call('app.info', {});
    fake.fire('close', { code: 1006 });
    await expect(pending).rejects.toMatchObject({ code: 'disconnected', method: 'app.info' });
    await expect(client.call('app.health', {})).rejects.toMatchObject({ code: 'disconnected' });
    expect(states).toEqual(['connected', 'disconnected']);
  });

  it('explains a refused connection (stale or missing token)', () => {
    const fake = fakeSocket();
    const client = createWebSocketClient('ws://x/bridge?token=t', fake.factory);
    let reason: string | undefined;
    client.onConnectionChange((_state, why) => (reason = why));
    fake.fire('close', { code: 1006 });
    expect(reason).toBe(
      'Could not connect to the ContextScope bridge (the token in the page URL may be stale). Open the URL printed by `contextscope serve`.',
    );
  });
});

describe('createInspectorClient', () => {
  it('uses the preload bridge when Electron exposes one', async () => {
    const preload: PreloadBridgeApi = {
      shell: 'electron',
      invoke: async (method) => ({ ok: true, result: `called ${method}` }),
      onEvent: () => () => {},
    };
    const choice = createInspectorClient({
      contextscope: preload,
      location: { protocol: 'app:', host: 'contextscope', search: '' },
    });
    expect(choice.ok && choice.client.transport).toBe('preload');
    expect(choice.ok && (await choice.client.call('app.info', {}))).toBe('called app.info');
  });

  it('connects the WebSocket bridge with the token from the page URL otherwise', () => {
    const fake = fakeSocket();
    const choice = createInspectorClient(
      { location: { protocol: 'http:', host: '127.0.0.1:4000', search: '?token=abc123' } },
      fake.factory,
    );
    expect(choice.ok && choice.client.transport).toBe('websocket');
    expect(fake.urls).toEqual(['ws://127.0.0.1:4000/bridge?token=abc123']);
  });

  it('explains what to do when the page URL has no token', () => {
    expect(createInspectorClient({ location: { protocol: 'http:', host: '127.0.0.1:4000', search: '' } })).toEqual({
      ok: false,
      reason:
        'This page has no bridge token in its URL. Open the full URL printed by `contextscope serve` (it ends in ?token=…).',
    });
  });

  it('builds the bridge URL from the page location', () => {
    expect(bridgeUrlFromLocation({ protocol: 'http:', host: 'localhost:9', search: '?token=a%2Bb&x=1' })).toBe(
      'ws://localhost:9/bridge?token=a%2Bb',
    );
    expect(bridgeUrlFromLocation({ protocol: 'http:', host: 'localhost:9', search: '?x=1' })).toBeNull();
  });
});
