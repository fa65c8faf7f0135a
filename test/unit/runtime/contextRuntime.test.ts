import { describe, expect, it, vi } from 'vitest';
import type { ContextEngine } from '../../../src/contract';
import { createContextRuntime } from '../../../src/engines';
import { formatQuarantineLogLine, sanitizeForLog } from '../../../src/runtime';
import { fakeEngine, failing, recordingLogger, slotConfig, testRuntime, USER_MESSAGE } from './engineFixtures';

describe('registry owner rules', () => {
  it('refuses legacy for any owner but core, reporting core', () => {
    const { runtime } = testRuntime();
    expect(
      runtime.registerContextEngineForOwner('legacy', () => fakeEngine(), 'plugin:x', { allowSameOwnerRefresh: true }),
    ).toEqual({
      ok: false,
      existingOwner: 'core',
    });
    expect(runtime.registerContextEngine('legacy', () => fakeEngine())).toEqual({ ok: false, existingOwner: 'core' });
  });

  it('refuses a different owner, and the same owner without allowSameOwnerRefresh', () => {
    const { runtime } = testRuntime();
    const first = () => fakeEngine();
    expect(runtime.registerContextEngineForOwner('e', first, 'plugin:a')).toEqual({ ok: true });
    expect(
      runtime.registerContextEngineForOwner('e', () => fakeEngine(), 'plugin:b', { allowSameOwnerRefresh: true }),
    ).toEqual({
      ok: false,
      existingOwner: 'plugin:a',
    });
    expect(runtime.registerContextEngineForOwner('e', () => fakeEngine(), 'plugin:a')).toEqual({
      ok: false,
      existingOwner: 'plugin:a',
    });
    expect(runtime.listContextEngineRegistrations().find((r) => r.id === 'e')?.factory).toBe(first);
  });

  it('trims the owner and throws the exact message for an empty one', () => {
    const { runtime } = testRuntime();
    expect(runtime.registerContextEngineForOwner('e', () => fakeEngine(), '  plugin:a  ')).toEqual({ ok: true });
    expect(runtime.getEngineOwner('e')).toBe('plugin:a');
    expect(() => runtime.registerContextEngineForOwner('f', () => fakeEngine(), '   ')).toThrow(
      'registerContextEngineForOwner: owner must be a non-empty string, got "   "',
    );
  });

  it('a discovery registration can be upgraded by a later runtime registration of the same owner', async () => {
    const { runtime } = testRuntime();
    runtime.registerContextEngineForOwner('e', () => fakeEngine({ id: 'disc' }), 'plugin:a', {
      lifecycle: 'readOnlyDiscovery',
    });
    expect(
      runtime.registerContextEngineForOwner('e', () => fakeEngine({ id: 'live' }), 'plugin:a', {
        allowSameOwnerRefresh: true,
      }),
    ).toEqual({
      ok: true,
    });
    expect((await runtime.resolveContextEngine(slotConfig('e'))).info.id).toBe('live');
  });

  it('clearContextEnginesForOwner removes that owner’s ids and their quarantines only', () => {
    const { runtime } = testRuntime();
    runtime.registerContextEngineForOwner('a1', () => fakeEngine(), 'plugin:a');
    runtime.registerContextEngineForOwner('a2', () => fakeEngine(), 'plugin:a');
    runtime.registerContextEngineForOwner('b1', () => fakeEngine(), 'plugin:b');
    runtime.quarantineContextEngine({ engineId: 'a1', operation: 'x', error: 'y' });
    runtime.quarantineContextEngine({ engineId: 'b1', operation: 'x', error: 'y' });
    expect(runtime.clearContextEnginesForOwner('plugin:a')).toEqual(['a1', 'a2']);
    expect(runtime.listContextEngineIds()).toEqual(['b1', 'legacy']);
    expect(runtime.listContextEngineQuarantines().map((q) => q.engineId)).toEqual(['b1']);
  });

  it('ensureContextEnginesInitialized is idempotent and does not replace a core refresh', async () => {
    const { runtime } = testRuntime();
    const real = vi.fn(() => fakeEngine({ id: 'legacy', name: 'Real Legacy' }));
    runtime.registerContextEngineForOwner('legacy', real, 'core', { allowSameOwnerRefresh: true });
    runtime.ensureContextEnginesInitialized();
    expect(runtime.listContextEngineIds()).toEqual(['legacy']);
    expect((await runtime.resolveContextEngine(undefined)).info.name).toBe('Real Legacy');
  });
});

describe('resolution', () => {
  it('calls the factory on every resolution with {config, agentDir, workspaceDir}', async () => {
    const { runtime } = testRuntime();
    const factory = vi.fn(() => fakeEngine());
    runtime.registerContextEngine('e', factory);
    const config = slotConfig('e');
    const a = await runtime.resolveContextEngine(config, { agentDir: '/a', workspaceDir: '/w' });
    const b = await runtime.resolveContextEngine(config);
    expect(factory.mock.calls).toEqual([
      [{ config, agentDir: '/a', workspaceDir: '/w' }],
      [{ config, agentDir: undefined, workspaceDir: undefined }],
    ]);
    expect(a).not.toBe(b);
  });

  it('accepts async factories', async () => {
    const { runtime } = testRuntime();
    runtime.registerContextEngine('e', async () => fakeEngine({ id: 'async' }));
    expect((await runtime.resolveContextEngine(slotConfig('e'))).info.id).toBe('async');
  });

  it('legacyFactory replaces the built-in pass-through', async () => {
    const { runtime } = testRuntime({ legacyFactory: () => fakeEngine({ id: 'legacy', name: 'Plugged' }) });
    expect((await runtime.resolveContextEngine(undefined)).info.name).toBe('Plugged');
  });

  it('the default legacy is the built-in engine with OpenClaw’s info and behaviour', async () => {
    const { runtime } = testRuntime();
    const legacy = await runtime.resolveContextEngine(undefined);
    expect(legacy.info).toEqual({ id: 'legacy', name: 'Legacy Context Engine', version: '1.0.0' });
    const messages = [USER_MESSAGE];
    await expect(legacy.assemble({ sessionId: 's', messages })).resolves.toEqual({ messages, estimatedTokens: 0 });
    await expect(legacy.ingest({ sessionId: 's', message: USER_MESSAGE })).resolves.toEqual({ ingested: false });
    expect(legacy.bootstrap).toBeUndefined();
    expect(typeof legacy.afterTurn).toBe('function');
    // built-in compaction works on the session transcript: without a sessionFile there is nothing to compact
    await expect(legacy.compact({ sessionId: 's' })).rejects.toThrow('compact() received no sessionFile');
  });

  it('a contract-invalid selected legacy throws the contract error', async () => {
    const { runtime } = testRuntime({ legacyFactory: () => ({ info: { id: 'legacy' } }) as never });
    await expect(runtime.resolveContextEngine(undefined)).rejects.toThrow(
      'Context engine "legacy" factory returned an invalid ContextEngine: missing info.name, missing ingest(), missing assemble(), missing compact().',
    );
  });

  it('a fallback to a missing or invalid legacy fails with the [context-engine] messages', async () => {
    const { runtime } = testRuntime();
    runtime.clearContextEnginesForOwner('core');
    runtime.registerContextEngine('e', () => null as never);
    await expect(runtime.resolveContextEngine(slotConfig('e'))).rejects.toThrow(
      '[context-engine] fallback failed: default engine "legacy" is not registered. Available engines: e',
    );
    const invalid = testRuntime({ legacyFactory: () => 42 as never }).runtime;
    await expect(invalid.resolveContextEngine(slotConfig('missing'))).rejects.toThrow(
      '[context-engine] Context engine "legacy" factory returned 42 instead of a ContextEngine object.',
    );
  });

  it('a validator that throws quarantines with operation contract-validation', async () => {
    const { runtime } = testRuntime();
    const hostile = {
      get info(): never {
        throw new Error('info getter exploded');
      },
    };
    runtime.registerContextEngine('e', () => hostile as never);
    expect((await runtime.resolveContextEngine(slotConfig('e'))).info.id).toBe('legacy');
    expect(runtime.listContextEngineQuarantines()).toMatchObject([
      { operation: 'contract-validation', reason: 'info getter exploded' },
    ]);
  });

  it('runtimes are isolated from each other', async () => {
    const one = testRuntime().runtime;
    const two = testRuntime().runtime;
    one.registerContextEngine('e', () => fakeEngine());
    await two.resolveContextEngine(slotConfig('e'));
    expect(one.listContextEngineQuarantines()).toEqual([]);
    expect(two.listContextEngineQuarantines()).toMatchObject([{ engineId: 'e', operation: 'resolve' }]);
    expect(two.listContextEngineIds()).toEqual(['legacy']);
  });

  it('describeResolvedEngine and resolveContextEngineOwnerPluginId track quarantine', async () => {
    const { runtime } = testRuntime();
    runtime.registerContextEngineForOwner('e', () => fakeEngine({}, { assemble: failing('x') }), 'plugin:acme');
    const wrapper = await runtime.resolveContextEngine(slotConfig('e'));
    expect(runtime.describeResolvedEngine(wrapper)).toEqual({
      engineId: 'e',
      owner: 'plugin:acme',
      quarantined: false,
    });
    expect(runtime.resolveContextEngineOwnerPluginId(wrapper)).toBe('acme');
    await wrapper.assemble({ sessionId: 's', messages: [] });
    expect(runtime.describeResolvedEngine(wrapper)).toEqual({ engineId: 'e', owner: 'plugin:acme', quarantined: true });
    expect(runtime.resolveContextEngineOwnerPluginId(wrapper)).toBeUndefined();
    expect(runtime.describeResolvedEngine(fakeEngine() as unknown as ContextEngine)).toBeUndefined();
  });
});

describe('quarantine records, logs and events', () => {
  it('lists failedAt as a Date, emits epoch ms, and reaches subscribers until they unsubscribe', async () => {
    const at = new Date('2026-05-01T10:00:00.000Z');
    const { logger, lines } = recordingLogger();
    const onEvent = vi.fn();
    const runtime = createContextRuntime({ logger, onEvent, now: () => at });
    const listener = vi.fn();
    const unsubscribe = runtime.subscribe(listener);
    runtime.quarantineContextEngine({ engineId: 'a', operation: 'ingest', error: new Error('bad') });
    unsubscribe();
    runtime.quarantineContextEngine({ engineId: 'b', operation: 'ingest', error: 'worse' });

    expect(runtime.listContextEngineQuarantines()).toEqual([
      { engineId: 'a', operation: 'ingest', reason: 'bad', failedAt: at },
      { engineId: 'b', operation: 'ingest', reason: 'worse', failedAt: at },
    ]);
    expect(listener.mock.calls.map(([event]) => event)).toEqual([
      {
        type: 'log',
        level: 'error',
        message:
          '[context-engine] Context engine "a" failed during ingest: bad; quarantining it for this process and falling back to default engine "legacy".',
      },
      { type: 'quarantine', engineId: 'a', operation: 'ingest', reason: 'bad', failedAt: at.getTime() },
    ]);
    expect(onEvent).toHaveBeenCalledTimes(4);
    expect(lines.map((line) => line.level)).toEqual(['error', 'error']);
  });

  it('a throwing subscriber does not change runtime behaviour', async () => {
    const { runtime } = testRuntime();
    runtime.subscribe(() => {
      throw new Error('observer bug');
    });
    runtime.registerContextEngine('e', () => fakeEngine({}, { assemble: failing('x') }));
    const wrapper = await runtime.resolveContextEngine(slotConfig('e'));
    await expect(wrapper.assemble({ sessionId: 's', messages: [] })).resolves.toEqual({
      messages: [],
      estimatedTokens: 0,
    });
  });

  it('sanitises log parts: newlines and terminal escapes cannot forge lines', () => {
    expect(sanitizeForLog('line1\nline2\r\u001b[31mred\u001b[0m')).toBe('line1 line2 red');
    expect(formatQuarantineLogLine({ engineId: 'e', owner: 'plugin:p', operation: 'assemble', reason: 'a\nb' })).toBe(
      '[context-engine] Context engine "e" owner=plugin:p failed during assemble: a b; quarantining it for this process and falling back to default engine "legacy".',
    );
  });
});

describe('createPluginApi', () => {
  it('reports missing id and missing factory with OpenClaw’s diagnostics', () => {
    const { runtime } = testRuntime();
    const { api, diagnostics, contextEngineIds } = runtime.createPluginApi('p');
    api.registerContextEngine('   ', () => fakeEngine());
    api.registerContextEngine(' e ', undefined as never);
    expect(diagnostics).toEqual([
      { level: 'error', message: 'context engine registration missing id' },
      { level: 'error', message: 'context engine "e" registration missing factory' },
    ]);
    expect(contextEngineIds).toEqual([]);
    expect(runtime.listContextEngineIds()).toEqual(['legacy']);
  });

  it('registers trimmed ids under plugin:<id> with same-owner refresh, lifecycle from registrationMode', () => {
    const { runtime } = testRuntime();
    const full = runtime.createPluginApi('p', { pluginConfig: { depth: 2 } });
    expect(full.api.registrationMode).toBe('full');
    expect(full.api.pluginConfig).toEqual({ depth: 2 });
    full.api.registerContextEngine(' e ', () => fakeEngine());
    full.api.registerContextEngine('e', () => fakeEngine());
    expect(full.diagnostics).toEqual([]);
    expect(full.contextEngineIds).toEqual(['e']);
    expect(runtime.listContextEngineRegistrations().find((r) => r.id === 'e')).toMatchObject({
      owner: 'plugin:p',
      lifecycle: 'runtime',
    });

    const discovery = runtime.createPluginApi('q', { registrationMode: 'cli-metadata' });
    discovery.api.registerContextEngine('d', () => fakeEngine());
    expect(runtime.listContextEngineRegistrations().find((r) => r.id === 'd')).toMatchObject({
      owner: 'plugin:q',
      lifecycle: 'readOnlyDiscovery',
    });
  });

  it('routes plugin logs through the runtime logger by default', () => {
    const { runtime, lines } = testRuntime();
    runtime.createPluginApi('p').api.logger.info('hello from plugin');
    expect(lines).toEqual([{ level: 'info', message: 'hello from plugin' }]);
  });
});
