import { describe, expect, it } from 'vitest';
import { RpcPeer, type RequestHandler } from '../../../src/plugins/host/rpcPeer';

/** Two peers wired back to back through JSON, the way the IPC channel carries messages. */
function pair(parentHandlers: Record<string, RequestHandler>, childHandlers: Record<string, RequestHandler>) {
  const problems: string[] = [];
  const deliver = (to: () => RpcPeer) => (message: Record<string, unknown>) => {
    const copy = JSON.parse(JSON.stringify(message));
    queueMicrotask(() => to().handleMessage(copy));
  };
  const parent: RpcPeer = new RpcPeer({
    side: 'parent',
    send: deliver(() => child),
    handlers: parentHandlers,
    onProtocolError: (p) => problems.push(p),
  });
  const child: RpcPeer = new RpcPeer({
    side: 'child',
    send: deliver(() => parent),
    handlers: childHandlers,
    onProtocolError: (p) => problems.push(p),
  });
  return { parent, child, problems };
}

describe('RpcPeer', () => {
  it('passes a callback across and lets the other side call it during the request', async () => {
    const { parent } = pair(
      {},
      {
        run: async ([params]) =>
          (await (params as { llm: { complete(x: string): Promise<string> } }).llm.complete('hi')) + '!',
      },
    );
    const result = await parent.request('run', [{ llm: { complete: async (x: string) => `echo:${x}` } }]);
    expect(result).toBe('echo:hi!');
  });

  it('releases request-scoped callbacks when the request settles', async () => {
    let kept: (() => Promise<unknown>) | undefined;
    const { parent } = pair({}, { keep: ([fn]) => void (kept = fn as () => Promise<unknown>) });
    await parent.request('keep', [() => 'late']);
    await expect(kept!()).rejects.toThrow(
      'callback 1 is no longer available: the engine call that passed it has finished',
    );
  });

  it('keeps a function returned in a response callable later (a rollback handle)', async () => {
    const calls: string[] = [];
    const { parent } = pair({}, { spawn: () => ({ rollback: (why: string) => void calls.push(why) }) });
    const prep = (await parent.request('spawn', [])) as { rollback(why: string): Promise<unknown> };
    await prep.rollback('undo');
    expect(calls).toEqual(['undo']);
  });

  it('maps a reference sent back to its owner onto the original function', async () => {
    const original = () => 1;
    const { parent } = pair({}, { echo: ([fn]) => ({ fn }) });
    const out = (await parent.request('echo', [original])) as { fn: unknown };
    expect(out.fn).toBe(original);
  });

  it('forwards an abort of a passed AbortSignal to the other side', async () => {
    const { parent } = pair(
      {},
      {
        wait: ([params]) =>
          new Promise((_, reject) => {
            const signal = (params as { signal: AbortSignal }).signal;
            signal.addEventListener('abort', () =>
              reject(Object.assign(new Error(`aborted: ${(signal.reason as Error).message}`), { name: 'AbortError' })),
            );
          }),
      },
    );
    const controller = new AbortController();
    const pending = parent.request('wait', [{ signal: controller.signal }]);
    controller.abort(new Error('user stop'));
    const error = await pending.catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('AbortError');
    expect((error as Error).message).toBe('aborted: user stop');
  });

  it('rejects with the timeout error at the deadline and aborts the signals the call carried', async () => {
    let sawAbort: string | undefined;
    const { parent } = pair(
      {},
      {
        hang: ([params]) =>
          new Promise(() => {
            const signal = (params as { signal: AbortSignal }).signal;
            signal.addEventListener(
              'abort',
              () => (sawAbort = `${(signal.reason as Error).name}: ${(signal.reason as Error).message}`),
            );
          }),
      },
    );
    const deadlines: string[] = [];
    const error = await parent
      .request('hang', [{ signal: new AbortController().signal }], {
        deadlineMs: 20,
        onDeadline: () => deadlines.push('fired'),
      })
      .catch((e: Error) => e);
    expect((error as Error).message).toBe('timeout after 20 ms');
    expect(deadlines).toEqual(['fired']);
    await new Promise((r) => setTimeout(r, 10));
    expect(sawAbort).toBe('AbortError: cancelled by the host: deadline of 20 ms passed');
    expect(parent.pendingCount).toBe(0);
  });

  it('carries a thrown error back with its name and code', async () => {
    const { parent } = pair(
      {},
      { fail: () => Promise.reject(Object.assign(new RangeError('bad range'), { code: 'E_RANGE' })) },
    );
    const error = (await parent.request('fail', []).catch((e) => e)) as RangeError & { code: string };
    expect(error.name).toBe('RangeError');
    expect(error.message).toBe('bad range');
    expect(error.code).toBe('E_RANGE');
  });

  it('answers an unknown operation with an error and reports a reply to an unknown id', async () => {
    const { parent, child, problems } = pair({}, {});
    await expect(parent.request('nope', [])).rejects.toThrow('unsupported operation "nope"');
    child.handleMessage({ type: 'response', id: 999, ok: true, value: 1 });
    expect(problems).toEqual(['response for unknown request id 999']);
  });

  it('rejects pending and later requests once closed', async () => {
    const { parent } = pair({}, { hang: () => new Promise(() => {}) });
    const pending = parent.request('hang', []);
    parent.close(new Error('engine host exited with code 3'));
    await expect(pending).rejects.toThrow('engine host exited with code 3');
    await expect(parent.request('hang', [])).rejects.toThrow('engine host exited with code 3');
  });

  it('answers a release with the next message it sends, in the same write', async () => {
    const writes: { type: string }[][] = [];
    const child = new RpcPeer({
      side: 'child',
      send: (message) => writes.push([message as { type: string }]),
      sendMany: (messages) => writes.push(messages as { type: string }[]),
      handlers: { echo: ([x]) => x },
      onProtocolError: () => undefined,
    });
    child.handleMessage({ type: 'release', ids: [3, 4] });
    expect(writes).toEqual([]); // no message of its own for the answer
    child.handleMessage({ type: 'request', id: 1, op: 'echo', args: [7] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(writes).toEqual([
      [
        { type: 'released', ids: [3, 4] },
        { type: 'response', id: 1, ok: true, value: 7 },
      ],
    ]);
  });
});
