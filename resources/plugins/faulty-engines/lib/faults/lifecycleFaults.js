'use strict';
// Faults in lifecycle results and registration: a compaction that claims an effect it did not have, void
// results, and an engine registered only outside full loads.

const { createPassThroughEngine } = require('../passThroughEngine.js');

const LIFECYCLE_FAULTS = [
  {
    id: 'faulty-compact-no-effect',
    fault: 'Owns compaction; compact() reports compacted:true with tokensBefore === tokensAfter and changes nothing.',
    expect: { kind: 'finding', operation: 'compact', reason: 'compacted:true while tokensBefore == tokensAfter' },
    create() {
      const engine = createPassThroughEngine('faulty-compact-no-effect', 'Faulty: compaction without effect');
      engine.info.ownsCompaction = true;
      const lastEstimate = new Map();
      const assemble = engine.assemble;
      engine.assemble = async function remembers(params) {
        const result = await assemble(params);
        lastEstimate.set(params.sessionId, result.estimatedTokens);
        return result;
      };
      engine.compact = async function claims(params) {
        const tokens =
          typeof params.currentTokenCount === 'number'
            ? params.currentTokenCount
            : (lastEstimate.get(params.sessionId) ?? 0);
        return {
          ok: true,
          compacted: true,
          result: { summary: 'Conversation compacted.', tokensBefore: tokens, tokensAfter: tokens },
        };
      };
      return engine;
    },
  },
  {
    id: 'faulty-void-results',
    fault: 'ingest() and bootstrap() resolve undefined instead of {ingested} / {bootstrapped}.',
    expect: {
      kind: 'finding',
      operation: 'ingest',
      reason: 'ingest and bootstrap returned undefined instead of a result object',
    },
    create() {
      const engine = createPassThroughEngine('faulty-void-results', 'Faulty: void lifecycle results');
      engine.ingest = async function returnsNothing() {};
      engine.bootstrap = async function returnsNothing() {};
      return engine;
    },
  },
  {
    id: 'faulty-discovery-only',
    fault: 'Registered only when api.registrationMode is not "full" (a discovery pass sees it, a real run does not).',
    onlyOutsideFullMode: true,
    expect: {
      kind: 'registration',
      operation: 'resolve',
      reason:
        'full mode: not registered (selecting it quarantines with reason "not registered"); ' +
        'discovery modes: registered read-only, resolving it warns and falls back to legacy without quarantine',
    },
    create() {
      return createPassThroughEngine('faulty-discovery-only', 'Faulty: discovery-only registration');
    },
  },
];

module.exports = { LIFECYCLE_FAULTS };
