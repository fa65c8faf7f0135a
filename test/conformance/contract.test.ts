/** Behaviour §14.6–9: contract validation messages. */
import { describe, expect, it } from 'vitest';
import { describeContextEngineContractError } from '../../src/runtime';
import { fakeEngine, slotConfig, testRuntime } from '../unit/runtime/engineFixtures';

describe('conformance: contract validation', () => {
  it('§14.6 a factory returning null gives "Context engine "<id>" factory returned null instead of a ContextEngine object."', async () => {
    expect(describeContextEngineContractError('nully', null)).toBe(
      'Context engine "nully" factory returned null instead of a ContextEngine object.',
    );
    const { runtime } = testRuntime();
    runtime.registerContextEngine('nully', () => null as never);
    const engine = await runtime.resolveContextEngine(slotConfig('nully'));
    expect(engine.info.id).toBe('legacy');
    expect(runtime.listContextEngineQuarantines()).toMatchObject([
      {
        engineId: 'nully',
        operation: 'contract-validation',
        reason: 'Context engine "nully" factory returned null instead of a ContextEngine object.',
      },
    ]);
  });

  it('§14.7 an engine without info.name and compact lists "missing info.name, missing compact()" in order', () => {
    const { compact: _compact, ...withoutCompact } = fakeEngine();
    const value = { ...withoutCompact, info: { id: 'broken' } };
    expect(describeContextEngineContractError('broken', value)).toBe(
      'Context engine "broken" factory returned an invalid ContextEngine: missing info.name, missing compact().',
    );
  });

  it('§14.8 info.id differing from the registered id passes validation', async () => {
    expect(describeContextEngineContractError('registered-id', fakeEngine({ id: 'some-other-id' }))).toBeUndefined();
    const { runtime } = testRuntime();
    runtime.registerContextEngine('registered-id', () => fakeEngine({ id: 'some-other-id' }));
    const engine = await runtime.resolveContextEngine(slotConfig('registered-id'));
    expect(engine.info.id).toBe('some-other-id');
    expect(runtime.listContextEngineQuarantines()).toEqual([]);
  });

  it('§14.9 only info, ingest, assemble and compact are required (no bootstrap/afterTurn/ingestBatch is fine)', () => {
    const minimal = {
      info: { id: 'min', name: 'Minimal' },
      ingest: async () => ({ ingested: false }),
      assemble: async () => ({ messages: [], estimatedTokens: 0 }),
      compact: async () => ({ ok: true, compacted: false }),
    };
    expect(describeContextEngineContractError('min', minimal)).toBeUndefined();
    expect(describeContextEngineContractError('min', { ...minimal, ingest: undefined })).toBe(
      'Context engine "min" factory returned an invalid ContextEngine: missing ingest().',
    );
  });
});
