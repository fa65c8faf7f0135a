/** Behaviour §14.1–5, 10, 21–25: slot resolution, registry owners and plugin registration diagnostics. */
import { describe, expect, it, vi } from 'vitest';
import type { ContextEngine } from '../../src/contract';
import { fakeEngine, slotConfig, testRuntime, USER_MESSAGE } from '../unit/runtime/engineFixtures';

const assembleParams = { sessionId: 's1', messages: [USER_MESSAGE] };

describe('conformance: resolution and registry', () => {
  it('§14.1 no slot, or a blank slot, selects "legacy"', async () => {
    const { runtime } = testRuntime();
    for (const config of [undefined, {}, slotConfig(undefined), slotConfig(''), slotConfig('   ')]) {
      const engine = await runtime.resolveContextEngine(config);
      expect(engine.info.id).toBe('legacy');
      expect(runtime.describeResolvedEngine(engine)).toEqual({ engineId: 'legacy', owner: 'core', quarantined: false });
    }
    expect(runtime.listContextEngineQuarantines()).toEqual([]);
  });

  it('§14.2 slot " foo " resolves the engine id foo (trimmed)', async () => {
    const { runtime } = testRuntime();
    const factory = vi.fn(() => fakeEngine({ id: 'foo-meta' }));
    runtime.registerContextEngine('foo', factory);
    const engine = await runtime.resolveContextEngine(slotConfig(' foo '));
    expect(factory).toHaveBeenCalledTimes(1);
    expect(engine.info.id).toBe('foo-meta');
    expect(runtime.describeResolvedEngine(engine)).toEqual({
      engineId: 'foo',
      owner: 'public-sdk',
      quarantined: false,
    });
  });

  it('§14.3 an unregistered non-default slot resolves legacy and quarantines {operation:"resolve", reason:"not registered"}', async () => {
    const { runtime } = testRuntime();
    const engine = await runtime.resolveContextEngine(slotConfig('ghost'));
    expect(engine.info.id).toBe('legacy');
    const quarantines = runtime.listContextEngineQuarantines();
    expect(quarantines).toHaveLength(1);
    expect(quarantines[0]).toMatchObject({ engineId: 'ghost', operation: 'resolve', reason: 'not registered' });
    expect(quarantines[0]!.owner).toBeUndefined();
    expect(quarantines[0]!.failedAt).toBeInstanceOf(Date);
  });

  it('§14.4 an unregistered, selected legacy throws "Context engine "legacy" is not registered. Available engines: …"', async () => {
    const { runtime } = testRuntime();
    runtime.clearContextEnginesForOwner('core');
    await expect(runtime.resolveContextEngine(slotConfig('legacy'))).rejects.toThrow(
      new Error('Context engine "legacy" is not registered. Available engines: (none)'),
    );
    runtime.registerContextEngine('alpha', () => fakeEngine());
    runtime.registerContextEngine('beta', () => fakeEngine());
    await expect(runtime.resolveContextEngine(undefined)).rejects.toThrow(
      new Error('Context engine "legacy" is not registered. Available engines: alpha, beta'),
    );
  });

  it('§14.5 a throwing factory quarantines a non-default engine with operation "factory"; for legacy it propagates', async () => {
    const { runtime } = testRuntime();
    runtime.registerContextEngine('boom', () => {
      throw new Error('factory exploded');
    });
    const engine = await runtime.resolveContextEngine(slotConfig('boom'));
    expect(engine.info.id).toBe('legacy');
    expect(runtime.listContextEngineQuarantines()).toMatchObject([
      { engineId: 'boom', owner: 'public-sdk', operation: 'factory', reason: 'factory exploded' },
    ]);

    const broken = testRuntime({
      legacyFactory: () => {
        throw new Error('legacy factory exploded');
      },
    }).runtime;
    await expect(broken.resolveContextEngine(undefined)).rejects.toThrow(new Error('legacy factory exploded'));
    expect(broken.listContextEngineQuarantines()).toEqual([]);
  });

  it('§14.10 a quarantined id resolves legacy without calling its factory again', async () => {
    const { runtime } = testRuntime();
    const factory = vi.fn(() =>
      fakeEngine({}, { assemble: vi.fn(async () => Promise.reject(new Error('bad assemble'))) }),
    );
    runtime.registerContextEngine('flaky', factory);
    const first = await runtime.resolveContextEngine(slotConfig('flaky'));
    await first.assemble(assembleParams);
    expect(factory).toHaveBeenCalledTimes(1);
    const second = await runtime.resolveContextEngine(slotConfig('flaky'));
    expect(factory).toHaveBeenCalledTimes(1);
    expect(second.info.id).toBe('legacy');
    expect(runtime.describeResolvedEngine(second)).toEqual({ engineId: 'legacy', owner: 'core', quarantined: false });
  });

  it('§14.21 a read-only-discovery registration logs the discovery-only warning, returns legacy and does not quarantine', async () => {
    const { runtime, lines } = testRuntime();
    const { api } = runtime.createPluginApi('shy', { registrationMode: 'discovery' });
    const factory = vi.fn(() => fakeEngine());
    api.registerContextEngine('shy-engine', factory);
    const engine = await runtime.resolveContextEngine(slotConfig('shy-engine'));
    expect(engine.info.id).toBe('legacy');
    expect(factory).not.toHaveBeenCalled();
    expect(runtime.listContextEngineQuarantines()).toEqual([]);
    expect(lines).toContainEqual({
      level: 'warn',
      message:
        '[context-engine] Context engine "shy-engine" owner=plugin:shy is registered for read-only discovery only; ' +
        'falling back to default engine "legacy" without quarantine until runtime activation registers it.',
    });
  });

  it('§14.22 api.registerContextEngine("legacy", f) fails with "context engine id reserved by core: legacy"', () => {
    const { runtime } = testRuntime();
    const legacyBefore = runtime.listContextEngineRegistrations().find((entry) => entry.id === 'legacy');
    const { api, diagnostics, contextEngineIds } = runtime.createPluginApi('usurper');
    api.registerContextEngine(' legacy ', () => fakeEngine());
    expect(diagnostics).toEqual([{ level: 'error', message: 'context engine id reserved by core: legacy' }]);
    expect(contextEngineIds).toEqual([]);
    expect(runtime.getEngineOwner('legacy')).toBe('core');
    expect(runtime.listContextEngineRegistrations().find((entry) => entry.id === 'legacy')?.factory).toBe(
      legacyBefore?.factory,
    );
  });

  it('§14.23 plugin B registering x already held by plugin A fails with "context engine already registered: x (plugin:A)"', () => {
    const { runtime } = testRuntime();
    const a = runtime.createPluginApi('A');
    const b = runtime.createPluginApi('B');
    const factoryA = () => fakeEngine();
    a.api.registerContextEngine('x', factoryA);
    b.api.registerContextEngine('x', () => fakeEngine());
    expect(a.diagnostics).toEqual([]);
    expect(a.contextEngineIds).toEqual(['x']);
    expect(b.diagnostics).toEqual([{ level: 'error', message: 'context engine already registered: x (plugin:A)' }]);
    expect(b.contextEngineIds).toEqual([]);
    expect(runtime.listContextEngineRegistrations().find((entry) => entry.id === 'x')).toMatchObject({
      owner: 'plugin:A',
      factory: factoryA,
    });
  });

  it('§14.24 a later readOnlyDiscovery registration by the same owner returns ok and keeps the runtime factory', async () => {
    const { runtime } = testRuntime();
    const live = vi.fn(() => fakeEngine({ id: 'live' }));
    const discovered = vi.fn(() => fakeEngine({ id: 'discovered' }));
    expect(runtime.registerContextEngineForOwner('eng', live, 'plugin:p', { lifecycle: 'runtime' })).toEqual({
      ok: true,
    });
    expect(
      runtime.registerContextEngineForOwner('eng', discovered, 'plugin:p', {
        lifecycle: 'readOnlyDiscovery',
        allowSameOwnerRefresh: true,
      }),
    ).toEqual({ ok: true });
    expect(runtime.listContextEngineRegistrations().find((entry) => entry.id === 'eng')).toMatchObject({
      factory: live,
      lifecycle: 'runtime',
    });
    const engine = await runtime.resolveContextEngine(slotConfig('eng'));
    expect(engine.info.id).toBe('live');
    expect(discovered).not.toHaveBeenCalled();
  });

  it('§14.25 a fresh runtime registration of a quarantined id clears the quarantine (E2: immediately)', async () => {
    const { runtime } = testRuntime();
    runtime.registerContextEngineForOwner('eng', () => fakeEngine(), 'plugin:p');
    runtime.quarantineContextEngine({ engineId: 'eng', operation: 'assemble', error: new Error('x') });
    expect(runtime.isContextEngineQuarantined('eng')).toBe(true);
    // a discovery-only refresh must not lift it
    runtime.registerContextEngineForOwner('eng', () => fakeEngine(), 'plugin:p', {
      lifecycle: 'readOnlyDiscovery',
      allowSameOwnerRefresh: true,
    });
    expect(runtime.isContextEngineQuarantined('eng')).toBe(true);
    runtime.registerContextEngineForOwner('eng', () => fakeEngine({ id: 'fresh' }), 'plugin:p', {
      allowSameOwnerRefresh: true,
    });
    expect(runtime.listContextEngineQuarantines()).toEqual([]);
    const engine: ContextEngine = await runtime.resolveContextEngine(slotConfig('eng'));
    expect(engine.info.id).toBe('fresh');
  });
});
