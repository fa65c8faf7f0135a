/** Behaviour §14.11–20: the quarantine record, log line, fallback results and abort handling. */
import { describe, expect, it, vi } from 'vitest';
import { fakeEngine, failing, slotConfig, testRuntime, USER_MESSAGE } from '../unit/runtime/engineFixtures';

const assembleParams = { sessionId: 's1', sessionKey: 'agent:main:s1', messages: [USER_MESSAGE] };

async function resolveFaulty(overrides: Parameters<typeof fakeEngine>[1], owner = 'plugin:faulty') {
  const ctx = testRuntime();
  const engine = fakeEngine({ id: 'faulty' }, overrides);
  ctx.runtime.registerContextEngineForOwner('faulty', () => engine, owner);
  const wrapper = await ctx.runtime.resolveContextEngine(slotConfig('faulty'));
  return { ...ctx, engine, wrapper };
}

describe('conformance: quarantine', () => {
  it('§14.11 only the first failure is kept; later failures do not overwrite operation or reason', async () => {
    const { runtime, wrapper, events } = await resolveFaulty({
      assemble: failing('first failure'),
      ingest: failing('second failure'),
    });
    await wrapper.assemble(assembleParams);
    runtime.quarantineContextEngine({ engineId: 'faulty', operation: 'ingest', error: new Error('second failure') });
    expect(runtime.listContextEngineQuarantines()).toMatchObject([
      { engineId: 'faulty', owner: 'plugin:faulty', operation: 'assemble', reason: 'first failure' },
    ]);
    expect(events.filter((event) => event.type === 'quarantine')).toHaveLength(1);
  });

  it('§14.12 the quarantine log line is exact (with and without owner)', async () => {
    const { lines, wrapper, events } = await resolveFaulty({ assemble: failing('kaput') });
    await wrapper.assemble(assembleParams);
    expect(lines.filter((line) => line.level === 'error')).toEqual([
      {
        level: 'error',
        message:
          '[context-engine] Context engine "faulty" owner=plugin:faulty failed during assemble: kaput; ' +
          'quarantining it for this process and falling back to default engine "legacy".',
      },
    ]);
    const quarantineEvent = events.find((event) => event.type === 'quarantine');
    expect(quarantineEvent).toMatchObject({
      engineId: 'faulty',
      owner: 'plugin:faulty',
      operation: 'assemble',
      reason: 'kaput',
    });
    expect(typeof (quarantineEvent as { failedAt: unknown }).failedAt).toBe('number');

    const unowned = testRuntime();
    await unowned.runtime.resolveContextEngine(slotConfig('missing'));
    expect(unowned.lines.filter((line) => line.level === 'error').map((line) => line.message)).toEqual([
      '[context-engine] Context engine "missing" failed during resolve: not registered; ' +
        'quarantining it for this process and falling back to default engine "legacy".',
    ]);
  });

  it("§14.13 a throwing assemble returns legacy's {messages: params.messages, estimatedTokens: 0} and quarantines with operation assemble", async () => {
    const { runtime, wrapper } = await resolveFaulty({ assemble: failing('assemble broke') });
    const result = await wrapper.assemble(assembleParams);
    expect(result).toEqual({ messages: assembleParams.messages, estimatedTokens: 0 });
    expect(result.messages).toBe(assembleParams.messages);
    expect(runtime.listContextEngineQuarantines()).toMatchObject([
      { engineId: 'faulty', operation: 'assemble', reason: 'assemble broke' },
    ]);
  });

  it('§14.14 a throwing compact rethrows the original error and quarantines', async () => {
    const original = new Error('compact broke');
    const { runtime, wrapper } = await resolveFaulty({ compact: vi.fn(async () => Promise.reject(original)) });
    await expect(wrapper.compact({ sessionId: 's1', sessionFile: '/tmp/s1.jsonl', force: true })).rejects.toBe(
      original,
    );
    expect(runtime.listContextEngineQuarantines()).toMatchObject([
      { engineId: 'faulty', operation: 'compact', reason: 'compact broke' },
    ]);
  });

  it('§14.15 a throwing prepareSubagentSpawn rethrows the original error and quarantines', async () => {
    const original = new Error('spawn prep broke');
    const { runtime, wrapper } = await resolveFaulty({
      prepareSubagentSpawn: vi.fn(async () => Promise.reject(original)),
    });
    await expect(wrapper.prepareSubagentSpawn!({ parentSessionKey: 'p', childSessionKey: 'c' })).rejects.toBe(original);
    expect(runtime.listContextEngineQuarantines()).toMatchObject([
      { engineId: 'faulty', operation: 'prepareSubagentSpawn', reason: 'spawn prep broke' },
    ]);
  });

  it('§14.16 bootstrap on a quarantined wrapper returns {bootstrapped:false, reason:"context engine downgraded to legacy"}', async () => {
    const { runtime, wrapper, engine } = await resolveFaulty({});
    runtime.quarantineContextEngine({ engineId: 'faulty', operation: 'assemble', error: 'x' });
    const result = await wrapper.bootstrap!({ sessionId: 's1', sessionFile: '/tmp/s1.jsonl' });
    expect(result).toEqual({ bootstrapped: false, reason: 'context engine downgraded to legacy' });
    expect(engine.bootstrap).not.toHaveBeenCalled();
  });

  it('§14.17 quarantined maintain / ingestBatch / onSubagentEnded return the canned results', async () => {
    const { runtime, wrapper, engine } = await resolveFaulty({});
    runtime.quarantineContextEngine({ engineId: 'faulty', operation: 'assemble', error: 'x' });
    await expect(wrapper.maintain!({ sessionId: 's1', sessionFile: '/tmp/s1.jsonl' })).resolves.toEqual({
      changed: false,
      bytesFreed: 0,
      rewrittenEntries: 0,
      reason: 'context engine downgraded to legacy',
    });
    await expect(wrapper.ingestBatch!({ sessionId: 's1', messages: [USER_MESSAGE] })).resolves.toEqual({
      ingestedCount: 0,
    });
    await expect(wrapper.onSubagentEnded!({ childSessionKey: 'c', reason: 'completed' })).resolves.toBeUndefined();
    expect(engine.maintain).not.toHaveBeenCalled();
    expect(engine.ingestBatch).not.toHaveBeenCalled();
    expect(engine.onSubagentEnded).not.toHaveBeenCalled();
  });

  it('§14.18 wrapper.info reads the legacy info while quarantined', async () => {
    const { runtime, wrapper } = await resolveFaulty({ assemble: failing('nope') });
    expect(wrapper.info.id).toBe('faulty');
    // before the fallback is resolved (quarantine recorded from outside)
    runtime.quarantineContextEngine({ engineId: 'faulty', operation: 'maintain', error: 'x' });
    expect(wrapper.info).toEqual({ id: 'legacy', name: 'Legacy Context Engine' });
    // after the fallback is resolved, its full info
    await wrapper.assemble(assembleParams);
    expect(wrapper.info).toEqual({ id: 'legacy', name: 'Legacy Context Engine', version: '1.0.0' });
    expect(runtime.describeResolvedEngine(wrapper)).toEqual({
      engineId: 'faulty',
      owner: 'plugin:faulty',
      quarantined: true,
    });
  });

  it('§14.19 an already-aborted abortSignal throws before calling the engine and records no quarantine', async () => {
    const { runtime, wrapper, engine } = await resolveFaulty({});
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    await expect(
      wrapper.maintain!({ sessionId: 's1', sessionFile: '/f', abortSignal: controller.signal }),
    ).rejects.toBe(reason);
    expect(engine.maintain).not.toHaveBeenCalled();

    const noReason = { aborted: true, reason: undefined } as unknown as AbortSignal;
    await expect(wrapper.compact({ sessionId: 's1', abortSignal: noReason })).rejects.toMatchObject({
      name: 'AbortError',
      message: 'Context engine operation aborted.',
    });
    expect(engine.compact).not.toHaveBeenCalled();
    expect(runtime.listContextEngineQuarantines()).toEqual([]);
  });

  it("§14.20 a compact rejecting with the aborted signal's reason propagates and does not quarantine", async () => {
    const controller = new AbortController();
    const reason = new Error('deadline');
    const { runtime, wrapper } = await resolveFaulty({
      compact: vi.fn(async () => {
        controller.abort(reason);
        throw reason;
      }),
    });
    await expect(wrapper.compact({ sessionId: 's1', force: true, abortSignal: controller.signal })).rejects.toBe(
      reason,
    );
    expect(runtime.listContextEngineQuarantines()).toEqual([]);
    expect(runtime.isContextEngineQuarantined('faulty')).toBe(false);
  });
});
