import { describe, expect, it, vi } from 'vitest';
import type { PreloadBridgeApi } from '../../src/bridge';

const fake = vi.hoisted(() => {
  const state = {
    exposed: new Map<string, unknown>(),
    invoked: [] as Array<[string, unknown]>,
    listeners: new Map<string, Set<(...args: unknown[]) => void>>(),
    invokeImpl: async (_channel: string, _params: unknown): Promise<unknown> => ({ ok: true, result: 'pong' }),
  };
  const module = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => state.exposed.set(key, api) },
    ipcRenderer: {
      invoke: (channel: string, params: unknown) => {
        state.invoked.push([channel, params]);
        return state.invokeImpl(channel, params);
      },
      on: (channel: string, fn: (...args: unknown[]) => void) => {
        if (!state.listeners.has(channel)) state.listeners.set(channel, new Set());
        state.listeners.get(channel)!.add(fn);
      },
      removeListener: (channel: string, fn: (...args: unknown[]) => void) => state.listeners.get(channel)?.delete(fn),
    },
  };
  return { state, module };
});

vi.mock('electron', () => ({ ...fake.module, default: fake.module }));
await import('../../main/preload');

const api = fake.state.exposed.get('contextscope') as PreloadBridgeApi;

describe('main/preload.ts', () => {
  it('exposes exactly one API, window.contextscope, marked as the Electron shell', () => {
    expect([...fake.state.exposed.keys()]).toEqual(['contextscope']);
    expect(api.shell).toBe('electron');
    expect(Object.keys(api).sort()).toEqual(['invoke', 'onEvent', 'shell']);
  });

  it("forwards a call to the method's IPC channel and returns the outcome", async () => {
    fake.state.invoked.length = 0;
    expect(await api.invoke('app.info', { a: 1 })).toEqual({ ok: true, result: 'pong' });
    expect(fake.state.invoked).toEqual([['bridge:call:app.info', { a: 1 }]]);
  });

  it('never sends names that are not bridge method names over IPC', async () => {
    fake.state.invoked.length = 0;
    for (const name of ['', 'app', '../app.info', 'bridge:event', 'app.info\n', 'App.Info']) {
      const outcome = await api.invoke(name, {});
      expect(outcome, name).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    }
    expect(fake.state.invoked).toEqual([]);
  });

  it('turns a missing main-process handler into unknown_method instead of a rejection', async () => {
    fake.state.invokeImpl = async (channel) => {
      throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
    };
    const outcome = await api.invoke('replay.start', {});
    expect(outcome).toMatchObject({ ok: false, error: { code: 'unknown_method', method: 'replay.start' } });
  });

  it('delivers bridge events to a listener until it unsubscribes', () => {
    const received: unknown[] = [];
    const unsubscribe = api.onEvent((event) => received.push(event));
    const emit = (payload: unknown) => {
      for (const fn of fake.state.listeners.get('bridge:event') ?? []) fn({}, payload);
    };
    const event = { type: 'event', topic: 'progress', payload: { taskId: 't', phase: 'p', done: 1, total: 2 } };
    emit(event);
    unsubscribe();
    emit(event);
    expect(received).toEqual([event]);
  });
});
