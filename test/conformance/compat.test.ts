/** Behaviour §14.26–29: E2 strict-validator retry and E3 acceptedHostParams projection. */
import { describe, expect, it, vi } from 'vitest';
import { buildContextEngineRuntimeSettings } from '../../src/runtime';
import { fakeEngine, slotConfig, testRuntime, USER_MESSAGE } from '../unit/runtime/engineFixtures';

const runtimeSettings = buildContextEngineRuntimeSettings({ selectedContextEngineId: 'strict' });

/** A validator that rejects the listed keys the way zod does. */
function zodLikeRejection(params: Record<string, unknown>, rejected: string[]) {
  const present = rejected.filter((key) => key in params);
  if (present.length > 0) {
    throw Object.assign(new Error('validation failed'), {
      issues: [{ code: 'unrecognized_keys', keys: present, path: [] }],
    });
  }
}

async function resolveWith(engine: ReturnType<typeof fakeEngine>) {
  const ctx = testRuntime();
  ctx.runtime.registerContextEngineForOwner('strict', () => engine, 'plugin:strict');
  return { ...ctx, wrapper: await ctx.runtime.resolveContextEngine(slotConfig('strict')) };
}

describe('conformance: compat', () => {
  it('§14.26 (E2) a zod unrecognized_keys rejection of runtimeSettings on assemble retries once without it, remembers it, no quarantine', async () => {
    const seen: Record<string, unknown>[] = [];
    const strict = vi.fn(async (params: Record<string, unknown>) => {
      seen.push(params);
      zodLikeRejection(params, ['runtimeSettings']);
      return { messages: [USER_MESSAGE], estimatedTokens: 7 };
    });
    const afterTurnSeen: Record<string, unknown>[] = [];
    const engine = fakeEngine(
      { id: 'strict' },
      {
        assemble: strict,
        afterTurn: vi.fn(async (params: Record<string, unknown>) => {
          afterTurnSeen.push(params);
          zodLikeRejection(params, ['runtimeSettings']);
        }),
      },
    );
    const { runtime, wrapper } = await resolveWith(engine);

    const result = await wrapper.assemble({
      sessionId: 's1',
      sessionKey: 'k',
      messages: [USER_MESSAGE],
      runtimeSettings,
      prompt: 'hi',
    });
    expect(result).toEqual({ messages: [USER_MESSAGE], estimatedTokens: 7 });
    expect(strict).toHaveBeenCalledTimes(2);
    expect(Object.keys(seen[0]!).sort()).toEqual(['messages', 'prompt', 'runtimeSettings', 'sessionId', 'sessionKey']);
    expect(Object.keys(seen[1]!).sort()).toEqual(['messages', 'prompt', 'sessionId', 'sessionKey']);

    await wrapper.afterTurn!({
      sessionId: 's1',
      sessionKey: 'k',
      sessionFile: '/f',
      messages: [],
      prePromptMessageCount: 0,
      runtimeSettings,
    });
    expect(afterTurnSeen).toHaveLength(1);
    expect(afterTurnSeen[0]).not.toHaveProperty('runtimeSettings');
    expect(afterTurnSeen[0]).toHaveProperty('sessionKey', 'k');
    expect(runtime.listContextEngineQuarantines()).toEqual([]);
  });

  it('§14.27 (E2) "Unrecognized key(s) in object: \'sessionKey\'" on ingest drops sessionKey; a runtimeSettings rejection on ingest is not retried', async () => {
    const ingest = vi.fn(async (params: Record<string, unknown>) => {
      if ('sessionKey' in params) throw new Error("Unrecognized key(s) in object: 'sessionKey'");
      return { ingested: true };
    });
    const { wrapper, runtime } = await resolveWith(fakeEngine({ id: 'strict' }, { ingest }));
    await expect(wrapper.ingest({ sessionId: 's1', sessionKey: 'k', message: USER_MESSAGE })).resolves.toEqual({
      ingested: true,
    });
    expect(ingest).toHaveBeenCalledTimes(2);
    expect(ingest.mock.calls[1]![0]).toEqual({ sessionId: 's1', message: USER_MESSAGE });
    expect(runtime.listContextEngineQuarantines()).toEqual([]);

    const rejectsSettings = vi.fn(async () => {
      throw new Error("Unrecognized key(s) in object: 'runtimeSettings'");
    });
    const second = await resolveWith(fakeEngine({ id: 'strict' }, { ingest: rejectsSettings }));
    const params = { sessionId: 's1', sessionKey: 'k', message: USER_MESSAGE, runtimeSettings };
    await expect(second.wrapper.ingest(params)).resolves.toEqual({ ingested: false });
    expect(rejectsSettings).toHaveBeenCalledTimes(1);
    expect(second.runtime.listContextEngineQuarantines()).toMatchObject([
      { engineId: 'strict', operation: 'ingest', reason: "Unrecognized key(s) in object: 'runtimeSettings'" },
    ]);
  });

  it('§14.28 (E3) acceptedHostParams ["runtimeSettings"]: assemble gets no sessionKey/prompt, compact keeps abortSignal, maintain gets none', async () => {
    const engine = fakeEngine({ id: 'e3', acceptedHostParams: ['runtimeSettings'] });
    const { wrapper } = await resolveWith(engine);
    const signal = new AbortController().signal;
    await wrapper.assemble({
      sessionId: 's1',
      sessionKey: 'k',
      prompt: 'p',
      messages: [USER_MESSAGE],
      tokenBudget: 900,
      runtimeSettings,
    });
    expect(engine.assemble.mock.calls[0]![0]).toEqual({
      sessionId: 's1',
      messages: [USER_MESSAGE],
      tokenBudget: 900,
      runtimeSettings,
    });
    await wrapper.compact({
      sessionId: 's1',
      sessionKey: 'k',
      force: true,
      abortSignal: signal,
      runtimeContext: { cwd: '/' },
    });
    expect((engine.compact.mock.calls[0] as unknown[])[0]).toEqual({
      sessionId: 's1',
      force: true,
      abortSignal: signal,
    });
    await wrapper.maintain!({ sessionId: 's1', sessionFile: '/f', abortSignal: signal, reason: 'turn' });
    expect((engine.maintain.mock.calls[0] as unknown[])[0]).toEqual({
      sessionId: 's1',
      sessionFile: '/f',
      reason: 'turn',
    });
  });

  it('§14.29 (E3) no acceptedHostParams passes every host param; [] passes none of the six (except abortSignal on compact)', async () => {
    const signal = new AbortController().signal;
    const all = {
      sessionId: 's1',
      sessionKey: 'k',
      sessionTarget: { sessionId: 's1' },
      runtimeContext: { cwd: '/' },
      runtimeSettings,
      abortSignal: signal,
    };

    const open = fakeEngine({ id: 'open' });
    const openWrapper = (await resolveWith(open)).wrapper;
    await openWrapper.compact({ ...all });
    expect((open.compact.mock.calls[0] as unknown[])[0]).toEqual(all);

    const closed = fakeEngine({ id: 'closed', acceptedHostParams: [] });
    const closedWrapper = (await resolveWith(closed)).wrapper;
    await closedWrapper.compact({ ...all });
    expect((closed.compact.mock.calls[0] as unknown[])[0]).toEqual({ sessionId: 's1', abortSignal: signal });
    await closedWrapper.assemble({ sessionId: 's1', sessionKey: 'k', prompt: 'p', runtimeSettings, messages: [] });
    expect(closed.assemble.mock.calls[0]![0]).toEqual({ sessionId: 's1', messages: [] });
    await closedWrapper.maintain!({ ...all, sessionFile: '/f' });
    expect((closed.maintain.mock.calls[0] as unknown[])[0]).toEqual({ sessionId: 's1', sessionFile: '/f' });
  });
});
