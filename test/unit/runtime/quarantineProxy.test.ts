import { describe, expect, it, vi } from 'vitest';
import type { ContextEngine } from '../../../src/contract';
import {
  cannedFallbackResult,
  isContextEngineAbortError,
  wrapContextEngineWithRuntimeQuarantine,
} from '../../../src/runtime';
import { failing, fakeEngine, slotConfig, testRuntime, USER_MESSAGE } from './engineFixtures';

const assembleParams = { sessionId: 's', messages: [USER_MESSAGE] };

async function resolve(overrides: Parameters<typeof fakeEngine>[1] = {}, legacyOverrides?: Record<string, unknown>) {
  const ctx = testRuntime(
    legacyOverrides
      ? {
          legacyFactory: () =>
            ({
              info: { id: 'legacy', name: 'Legacy Context Engine', version: '9' },
              ingest: async () => ({ ingested: false }),
              assemble: async (p: { messages: never[] }) => ({ messages: p.messages, estimatedTokens: 0 }),
              compact: async () => ({ ok: true, compacted: false }),
              ...legacyOverrides,
            }) as unknown as ContextEngine,
        }
      : {},
  );
  const engine = fakeEngine({ id: 'eng' }, overrides);
  ctx.runtime.registerContextEngineForOwner('eng', () => engine, 'plugin:p');
  return { ...ctx, engine, wrapper: await ctx.runtime.resolveContextEngine(slotConfig('eng')) };
}

describe('quarantine proxy', () => {
  it('rethrows the original error when the fallback also throws', async () => {
    const original = new Error('engine failed');
    const { wrapper, runtime } = await resolve(
      { assemble: vi.fn(async () => Promise.reject(original)) },
      { assemble: async () => Promise.reject(new Error('legacy failed too')) },
    );
    await expect(wrapper.assemble(assembleParams)).rejects.toBe(original);
    expect(runtime.listContextEngineQuarantines()).toMatchObject([{ operation: 'assemble', reason: 'engine failed' }]);
  });

  it('calls the fallback’s own method when it has one (same params)', async () => {
    const legacyBootstrap = vi.fn(async () => ({ bootstrapped: true, reason: 'legacy did it' }));
    const { wrapper, runtime } = await resolve({}, { bootstrap: legacyBootstrap });
    runtime.quarantineContextEngine({ engineId: 'eng', operation: 'x', error: 'y' });
    const params = { sessionId: 's', sessionFile: '/f' };
    await expect(wrapper.bootstrap!(params)).resolves.toEqual({ bootstrapped: true, reason: 'legacy did it' });
    expect(legacyBootstrap.mock.calls[0]).toEqual([params]);
    expect(wrapper.info.version).toBe('9');
  });

  it('resolves the fallback lazily and once per proxy', async () => {
    const legacyFactory = vi.fn(() => ({
      info: { id: 'legacy', name: 'Legacy Context Engine' },
      ingest: async () => ({ ingested: false }),
      assemble: async () => ({ messages: [], estimatedTokens: 0 }),
      compact: async () => ({ ok: true, compacted: false }),
    }));
    const { runtime } = testRuntime({ legacyFactory });
    runtime.registerContextEngineForOwner('eng', () => fakeEngine({}, { assemble: failing('x') }), 'plugin:p');
    const wrapper = await runtime.resolveContextEngine(slotConfig('eng'));
    expect(legacyFactory).not.toHaveBeenCalled();
    await wrapper.assemble(assembleParams);
    await wrapper.assemble(assembleParams);
    await wrapper.ingest({ sessionId: 's', message: USER_MESSAGE });
    expect(legacyFactory).toHaveBeenCalledTimes(1);
  });

  it('passes the same factory context to the fallback', async () => {
    const legacyFactory = vi.fn(() => ({
      info: { id: 'legacy', name: 'Legacy Context Engine' },
      ingest: async () => ({ ingested: false }),
      assemble: async () => ({ messages: [], estimatedTokens: 0 }),
      compact: async () => ({ ok: true, compacted: false }),
    }));
    const { runtime } = testRuntime({ legacyFactory });
    runtime.registerContextEngineForOwner('eng', () => fakeEngine({}, { assemble: failing('x') }), 'plugin:p');
    const config = slotConfig('eng');
    const wrapper = await runtime.resolveContextEngine(config, { agentDir: '/agent', workspaceDir: '/ws' });
    await wrapper.assemble(assembleParams);
    expect(legacyFactory.mock.calls[0]).toEqual([{ config, agentDir: '/agent', workspaceDir: '/ws' }]);
  });

  it('does not quarantine AbortError-named errors, nor "cancelled" messages, while the call’s signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort('stop'); // a string reason: only the name/message rules can match
    const abortError = Object.assign(new Error('stop'), { name: 'AbortError' });
    expect(isContextEngineAbortError(abortError, controller.signal)).toBe(true);
    expect(isContextEngineAbortError('request canceled', controller.signal)).toBe(true);
    expect(isContextEngineAbortError(new Error('boom'), controller.signal)).toBe(false);

    const live = new AbortController();
    const cancelled = new Error('request cancelled by host');
    const { wrapper, runtime } = await resolve({
      afterTurn: vi.fn(async () => {
        live.abort();
        throw cancelled;
      }),
    });
    await expect(
      wrapper.afterTurn!({
        sessionId: 's',
        sessionFile: '/f',
        messages: [],
        prePromptMessageCount: 0,
        abortSignal: live.signal,
      } as never),
    ).rejects.toBe(cancelled);
    expect(runtime.listContextEngineQuarantines()).toEqual([]);
  });

  it('quarantines an AbortError when the call has no aborted signal (not caller intent)', async () => {
    const abortError = Object.assign(new Error('stop'), { name: 'AbortError' });
    expect(isContextEngineAbortError(abortError, undefined)).toBe(false);
    const { wrapper, runtime } = await resolve({ maintain: vi.fn(async () => Promise.reject(abortError)) });
    await expect(wrapper.maintain!({ sessionId: 's', sessionFile: '/f' })).resolves.toMatchObject({ changed: false });
    expect(runtime.listContextEngineQuarantines()).toMatchObject([{ operation: 'maintain', reason: 'stop' }]);
  });

  it('an already-aborted call with a string reason throws an AbortError carrying it', async () => {
    const controller = new AbortController();
    controller.abort('user left');
    const { wrapper, engine } = await resolve();
    await expect(wrapper.compact({ sessionId: 's', abortSignal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
      message: 'user left',
    });
    expect(engine.compact).not.toHaveBeenCalled();
  });

  it('quarantines a "cancelled" message when the signal is not aborted', async () => {
    expect(isContextEngineAbortError(new Error('cancelled'), new AbortController().signal)).toBe(false);
    expect(isContextEngineAbortError(new Error('cancelled'), undefined)).toBe(false);
    const { wrapper, runtime } = await resolve({ assemble: failing('operation cancelled') });
    await wrapper.assemble(assembleParams);
    expect(runtime.listContextEngineQuarantines()).toMatchObject([
      { operation: 'assemble', reason: 'operation cancelled' },
    ]);
  });

  it('returns to the engine after the quarantine is cleared', async () => {
    const { wrapper, runtime, engine } = await resolve();
    runtime.quarantineContextEngine({ engineId: 'eng', operation: 'x', error: 'y' });
    await wrapper.ingest({ sessionId: 's', message: USER_MESSAGE });
    expect(engine.ingest).not.toHaveBeenCalled();
    expect(runtime.clearContextEngineQuarantine('eng')).toBe(true);
    expect(runtime.clearContextEngineQuarantine('eng')).toBe(false);
    await expect(wrapper.ingest({ sessionId: 's', message: USER_MESSAGE })).resolves.toEqual({ ingested: true });
    expect(wrapper.info.id).toBe('eng');
  });

  it('binds unguarded members (dispose, custom methods) to the engine and exposes only the methods it has', async () => {
    const custom = Object.assign(fakeEngine({ id: 'eng' }), {
      extra(this: { info: { id: string } }) {
        return this.info.id;
      },
    });
    delete (custom as Partial<typeof custom>).bootstrap;
    const { runtime } = testRuntime();
    runtime.registerContextEngineForOwner('eng', () => custom, 'plugin:p');
    const wrapper = (await runtime.resolveContextEngine(slotConfig('eng'))) as unknown as {
      extra: () => string;
      bootstrap?: unknown;
      dispose: () => Promise<void>;
    };
    const { extra } = wrapper;
    expect(extra()).toBe('eng');
    expect(wrapper.bootstrap).toBeUndefined();
    await wrapper.dispose();
    expect(custom.dispose).toHaveBeenCalledTimes(1);
  });

  it('canned results: what each method gives when the fallback lacks it; assemble and compact have none', () => {
    const reason = 'context engine downgraded to legacy';
    expect(cannedFallbackResult('bootstrap')).toEqual({ bootstrapped: false, reason });
    expect(cannedFallbackResult('maintain')).toEqual({ changed: false, bytesFreed: 0, rewrittenEntries: 0, reason });
    expect(cannedFallbackResult('ingest')).toEqual({ ingested: false });
    expect(cannedFallbackResult('ingestBatch')).toEqual({ ingestedCount: 0 });
    for (const method of ['commitTurn', 'afterTurn', 'prepareSubagentSpawn', 'onSubagentEnded'] as const) {
      expect(cannedFallbackResult(method), method).toBeUndefined();
    }
    expect(() => cannedFallbackResult('assemble')).toThrow('No legacy fallback result for assemble');
    expect(() => cannedFallbackResult('compact')).toThrow('No legacy fallback result for compact');
  });

  it("reads as legacy while quarantined, before the fallback is resolved, and as the fallback's info after", async () => {
    const engine = fakeEngine({ id: 'eng', name: 'Engine' });
    const legacy = fakeEngine({ id: 'legacy', name: 'Legacy Context Engine', version: '9' });
    let quarantined = false;
    const wrapper = wrapContextEngineWithRuntimeQuarantine(engine, {
      engineId: 'eng',
      isQuarantined: () => quarantined,
      quarantine: () => {},
      resolveFallback: async () => legacy,
    });
    expect(wrapper.info).toMatchObject({ id: 'eng', name: 'Engine' });
    quarantined = true;
    expect(wrapper.info).toEqual({ id: 'legacy', name: 'Legacy Context Engine' });
    await wrapper.assemble(assembleParams as never);
    expect(wrapper.info).toEqual(legacy.info);
  });

  it('is not applied to the default engine: legacy failures propagate and never quarantine', async () => {
    const failure = new Error('legacy assemble broke');
    const { runtime } = testRuntime({
      legacyFactory: () => ({
        info: { id: 'legacy', name: 'Legacy Context Engine' },
        ingest: async () => ({ ingested: false }),
        assemble: async () => Promise.reject(failure),
        compact: async () => ({ ok: true, compacted: false }),
      }),
    });
    const legacy = await runtime.resolveContextEngine(undefined);
    await expect(legacy.assemble(assembleParams)).rejects.toBe(failure);
    expect(runtime.listContextEngineQuarantines()).toEqual([]);
  });
});
