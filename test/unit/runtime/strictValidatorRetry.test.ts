import { describe, expect, it, vi } from 'vitest';
import {
  detectRejectedKeys,
  wrapContextEngineCompat,
  wrapContextEngineWithStrictValidatorRetry,
  selectCompatMode,
} from '../../../src/runtime';
import type { ContextEngine } from '../../../src/contract';
import { fakeEngine, USER_MESSAGE } from './engineFixtures';

const ALL = ['sessionKey', 'prompt', 'runtimeSettings', 'sessionTarget', 'runtimeContext'];

describe('detectRejectedKeys', () => {
  it.each([
    ["Unrecognized key(s) in object: 'runtimeSettings'", 'runtimeSettings'],
    ["unrecognized keys in object: 'a', 'prompt'", 'prompt'],
    ["data has additional property 'sessionTarget'", 'sessionTarget'],
    ["params must NOT have additional properties (found 'runtimeContext')", 'runtimeContext'],
    ['Unexpected property "sessionKey" in params', 'sessionKey'],
    ["extraneous field 'prompt'", 'prompt'],
    ["Unknown key 'runtimeSettings'", 'runtimeSettings'],
    ['invalid property `sessionTarget`', 'sessionTarget'],
    ['"sessionKey" is not allowed', 'sessionKey'],
    ["'runtimeContext' was not allowed here", 'runtimeContext'],
    [
      '[\n  {\n    "code": "unrecognized_keys",\n    "keys": [\n      "runtimeSettings"\n    ],\n    "path": []\n  }\n]',
      'runtimeSettings',
    ],
  ])('message %j rejects %s', (message, key) => {
    expect([...detectRejectedKeys(new Error(message), ALL)]).toEqual([key]);
  });

  it('walks cause chains, issues and errors arrays, and nested arrays', () => {
    const error = new Error('outer', {
      cause: { errors: [[{ issues: [{ code: 'unrecognized_keys', keys: ['prompt', 'notAHostKey'] }] }]] },
    });
    expect([...detectRejectedKeys(error, ALL)]).toEqual(['prompt']);
  });

  it('ignores errors that name no candidate key, and survives cycles', () => {
    const cyclic: Record<string, unknown> = { message: 'boom' };
    cyclic.cause = cyclic;
    expect(detectRejectedKeys(cyclic, ALL).size).toBe(0);
    expect(detectRejectedKeys(new Error('sessionKey is fine'), ALL).size).toBe(0);
    expect(detectRejectedKeys(new Error("Unrecognized key(s) in object: 'sessionKeyExtra'"), ALL).size).toBe(0);
  });

  it('only reports keys among the candidates', () => {
    expect(detectRejectedKeys(new Error("Unrecognized key(s) in object: 'runtimeSettings'"), ['sessionKey']).size).toBe(
      0,
    );
  });
});

describe('wrapContextEngineWithStrictValidatorRetry', () => {
  it('calls once, untouched, when the params carry none of the method’s droppable keys', async () => {
    const engine = fakeEngine();
    const wrapped = wrapContextEngineWithStrictValidatorRetry(engine as unknown as ContextEngine);
    const params = { sessionId: 's', messages: [USER_MESSAGE] };
    await wrapped.assemble(params);
    expect(engine.assemble).toHaveBeenCalledTimes(1);
    expect(engine.assemble.mock.calls[0]![0]).toBe(params);
  });

  it('learns several keys across retries and remembers them for every method of this wrapper only', async () => {
    const seen: string[][] = [];
    const compact = vi.fn(async (params: Record<string, unknown>) => {
      seen.push(Object.keys(params).sort());
      for (const key of ['runtimeContext', 'sessionTarget']) {
        if (key in params) throw new Error(`Unrecognized key(s) in object: '${key}'`);
      }
      return { ok: true, compacted: false };
    });
    const engine = fakeEngine({}, { compact });
    const wrapped = wrapContextEngineWithStrictValidatorRetry(engine as unknown as ContextEngine);
    await wrapped.compact({ sessionId: 's', runtimeContext: {}, sessionTarget: {} });
    expect(seen).toEqual([
      ['runtimeContext', 'sessionId', 'sessionTarget'],
      ['sessionId', 'sessionTarget'],
      ['sessionId'],
    ]);
    await wrapped.maintain!({ sessionId: 's', sessionFile: '/f', runtimeContext: {}, sessionTarget: {} });
    expect((engine.maintain.mock.calls[0] as unknown[])[0]).toEqual({ sessionId: 's', sessionFile: '/f' });

    const other = fakeEngine();
    const otherWrapped = wrapContextEngineWithStrictValidatorRetry(other as unknown as ContextEngine);
    await otherWrapped.maintain!({ sessionId: 's', sessionFile: '/f', runtimeContext: {} });
    expect((other.maintain.mock.calls[0] as unknown[])[0]).toEqual({
      sessionId: 's',
      sessionFile: '/f',
      runtimeContext: {},
    });
  });

  it('rethrows the error when nothing new is learned', async () => {
    const error = new Error("Unrecognized key(s) in object: 'sessionKey'");
    const ingest = vi.fn(async () => {
      throw error;
    });
    const wrapped = wrapContextEngineWithStrictValidatorRetry(fakeEngine({}, { ingest }) as unknown as ContextEngine);
    await expect(wrapped.ingest({ sessionId: 's', sessionKey: 'k', message: USER_MESSAGE })).rejects.toBe(error);
    expect(ingest).toHaveBeenCalledTimes(2);
  });

  it('keeps `this` as the real engine (private fields work)', async () => {
    class PrivateEngine {
      #count = 0;
      readonly info = { id: 'priv', name: 'Private' };
      async ingest() {
        this.#count += 1;
        return { ingested: this.#count > 0 };
      }
      async assemble(p: { messages: never[] }) {
        return { messages: p.messages, estimatedTokens: this.#count };
      }
      async compact() {
        return { ok: true, compacted: false };
      }
      get count() {
        return this.#count;
      }
    }
    const raw = new PrivateEngine();
    const wrapped = wrapContextEngineCompat(raw as unknown as ContextEngine) as unknown as PrivateEngine;
    await wrapped.ingest();
    expect(await wrapped.assemble({ messages: [] })).toEqual({ messages: [], estimatedTokens: 1 });
    expect(wrapped.count).toBe(1);
  });
});

describe('wrapContextEngineCompat', () => {
  it('is idempotent and picks projection only when acceptedHostParams is declared', () => {
    const e2 = fakeEngine() as unknown as ContextEngine;
    const e3 = fakeEngine({ acceptedHostParams: [] }) as unknown as ContextEngine;
    expect(selectCompatMode(e2)).toBe('retry');
    expect(selectCompatMode(e3)).toBe('projection');
    const wrapped = wrapContextEngineCompat(e2);
    expect(wrapped).not.toBe(e2);
    expect(wrapContextEngineCompat(wrapped)).toBe(wrapped);
  });

  it('wraps frozen engines and keeps non-lifecycle members', async () => {
    const frozen = Object.freeze({ ...fakeEngine(), describe: () => 'extra' });
    const wrapped = wrapContextEngineCompat(frozen as unknown as ContextEngine) as unknown as typeof frozen;
    expect(wrapped.describe()).toBe('extra');
    expect(wrapped.info).toBe(frozen.info);
    expect('describe' in wrapped).toBe(true);
    await wrapped.ingest({ sessionId: 's', message: USER_MESSAGE } as never);
    expect(frozen.ingest).toHaveBeenCalledTimes(1);
  });
});
