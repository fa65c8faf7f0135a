/**
 * Property: for any sequence of guarded lifecycle calls where any subset of the engine's calls throws, the
 * wrapper never throws except where the spec rethrows (compact, prepareSubagentSpawn — only for the failing call
 * itself), the first failure is the one recorded, and after it the engine's own methods are never called again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GUARDED_METHODS, type ContextEngine, type GuardedMethod } from '../../../src/contract';
import { createLegacyPassThroughEngine, LEGACY_PASS_THROUGH_COMPACT_REASON } from '../../../src/runtime';
import { slotConfig, testRuntime, USER_MESSAGE } from './engineFixtures';

type Thrown = { kind: 'error' | 'string' | 'object'; text: string };
interface Step {
  method: GuardedMethod;
  throws: Thrown | null;
}

const PARAMS: Record<GuardedMethod, unknown> = {
  bootstrap: { sessionId: 's', sessionKey: 'k', sessionFile: '/f' },
  maintain: { sessionId: 's', sessionKey: 'k', sessionFile: '/f', reason: 'turn' },
  ingest: { sessionId: 's', sessionKey: 'k', message: USER_MESSAGE },
  ingestBatch: { sessionId: 's', sessionKey: 'k', messages: [USER_MESSAGE] },
  afterTurn: { sessionId: 's', sessionKey: 'k', sessionFile: '/f', messages: [USER_MESSAGE], prePromptMessageCount: 0 },
  assemble: { sessionId: 's', sessionKey: 'k', messages: [USER_MESSAGE] },
  compact: { sessionId: 's', sessionKey: 'k', sessionFile: '/f', force: true },
  prepareSubagentSpawn: { parentSessionKey: 'p', childSessionKey: 'c' },
  onSubagentEnded: { childSessionKey: 'c', reason: 'completed' },
  commitTurn: { sessionId: 's', advancementKey: 'a', admission: {}, terminal: {}, messages: [] },
};

/** What the fake engine returns from each method when it does not throw. */
const ENGINE_RESULT: Record<GuardedMethod, unknown> = {
  bootstrap: { bootstrapped: true },
  maintain: { changed: true, bytesFreed: 1, rewrittenEntries: 1 },
  ingest: { ingested: true },
  ingestBatch: { ingestedCount: 1 },
  afterTurn: undefined,
  assemble: { messages: [], estimatedTokens: 99 },
  compact: { ok: true, compacted: true, result: { tokensBefore: 10 } },
  prepareSubagentSpawn: { rollback: 'engine' },
  onSubagentEnded: undefined,
  commitTurn: { status: 'committed' },
};

/** What the pass-through legacy fallback yields for each method (its own result or the canned one). */
const FALLBACK_RESULT: Record<GuardedMethod, unknown> = {
  bootstrap: { bootstrapped: false, reason: 'context engine downgraded to legacy' },
  maintain: { changed: false, bytesFreed: 0, rewrittenEntries: 0, reason: 'context engine downgraded to legacy' },
  ingest: { ingested: false },
  ingestBatch: { ingestedCount: 0 },
  afterTurn: undefined,
  assemble: { messages: [USER_MESSAGE], estimatedTokens: 0 },
  compact: { ok: true, compacted: false, reason: LEGACY_PASS_THROUGH_COMPACT_REASON },
  prepareSubagentSpawn: undefined,
  onSubagentEnded: undefined,
  commitTurn: undefined,
};

function toThrown(thrown: Thrown): unknown {
  if (thrown.kind === 'error') return new Error(thrown.text);
  if (thrown.kind === 'string') return thrown.text;
  return { message: thrown.text };
}

const thrownArb: fc.Arbitrary<Thrown> = fc.record({
  kind: fc.constantFrom<Thrown['kind']>('error', 'string', 'object'),
  text: fc.string({ minLength: 1, maxLength: 20 }),
});
const stepArb: fc.Arbitrary<Step> = fc.record({
  method: fc.constantFrom(...GUARDED_METHODS),
  throws: fc.option(thrownArb, { freq: 3 }),
});

describe('quarantine proxy (property)', () => {
  it('never throws except compact/prepareSubagentSpawn at the first failure; first failure recorded; engine never called after it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 25 }), async (steps) => {
        const calls: GuardedMethod[] = [];
        let cursor = 0;
        const engine: Record<string, unknown> = { info: { id: 'prop', name: 'Property Engine' } };
        for (const method of GUARDED_METHODS) {
          engine[method] = async () => {
            calls.push(method);
            const step = steps[cursor]!;
            if (step.throws) throw toThrown(step.throws);
            return ENGINE_RESULT[method];
          };
        }
        // the proxy is under test, not legacy compaction: a pass-through legacy keeps fallback results transcript-free
        const { runtime } = testRuntime({ legacyFactory: () => createLegacyPassThroughEngine() });
        runtime.registerContextEngineForOwner('prop', () => engine as unknown as ContextEngine, 'plugin:prop');
        const wrapper = (await runtime.resolveContextEngine(slotConfig('prop'))) as unknown as Record<
          string,
          (p: unknown) => Promise<unknown>
        >;

        const firstFailure = steps.findIndex((step) => step.throws !== null);
        for (cursor = 0; cursor < steps.length; cursor++) {
          const step = steps[cursor]!;
          const call = wrapper[step.method]!(PARAMS[step.method]);
          if (cursor === firstFailure && (step.method === 'compact' || step.method === 'prepareSubagentSpawn')) {
            const error = await call.then(
              () => {
                throw new Error(`expected ${step.method} to rethrow`);
              },
              (e: unknown) => e,
            );
            if (step.throws!.kind === 'error') expect((error as Error).message).toBe(step.throws!.text);
            else expect(error).toEqual(toThrown(step.throws!));
          } else if (firstFailure === -1 || cursor < firstFailure) {
            expect(await call).toEqual(ENGINE_RESULT[step.method]);
          } else {
            expect(await call).toEqual(FALLBACK_RESULT[step.method]);
          }
        }

        const expectedCalls = steps
          .slice(0, firstFailure === -1 ? steps.length : firstFailure + 1)
          .map((step) => step.method);
        expect(calls).toEqual(expectedCalls);
        const quarantines = runtime.listContextEngineQuarantines();
        if (firstFailure === -1) {
          expect(quarantines).toEqual([]);
        } else {
          const first = steps[firstFailure]!;
          expect(quarantines).toHaveLength(1);
          // OpenClaw: error.message for Errors, String(error) otherwise.
          const reason = first.throws!.kind === 'object' ? '[object Object]' : first.throws!.text;
          expect(quarantines[0]).toMatchObject({
            engineId: 'prop',
            owner: 'plugin:prop',
            operation: first.method,
            reason,
          });
        }
      }),
      { numRuns: 300 },
    );
  });
});
