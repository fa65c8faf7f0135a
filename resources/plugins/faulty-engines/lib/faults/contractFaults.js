'use strict';
// Faults in the engine's contract with its host: a malformed result, a strict parameter validator, host
// requirements the embedded runner lacks, and a compact() that neither compacts nor delegates.

const { createPassThroughEngine, delegateCompaction } = require('../passThroughEngine.js');
const { parseStrict } = require('../strictParams.js');

const CONTRACT_FAULTS = [
  {
    id: 'faulty-malformed-result',
    fault: 'assemble() resolves {messages: "not an array", estimatedTokens: "many"}.',
    expect: {
      kind: 'finding',
      operation: 'assemble',
      reason: 'invalid AssembleResult: messages is not an array, estimatedTokens is not a number',
    },
    create() {
      const engine = createPassThroughEngine('faulty-malformed-result', 'Faulty: malformed assemble result');
      engine.assemble = async function malformed() {
        return { messages: 'not an array', estimatedTokens: 'many' };
      };
      return engine;
    },
  },
  {
    id: 'faulty-strict-validator',
    fault:
      'Every method rejects keys outside the early (E1) contract with a ZodError (unrecognized_keys), e.g. runtimeSettings.',
    expect: {
      kind: 'compat-retry',
      operation: 'assemble',
      reason:
        'not quarantined: the E2 retry drops the rejected host keys (sessionKey, prompt, runtimeSettings on assemble; ' +
        'sessionKey, runtimeSettings, sessionTarget, runtimeContext on bootstrap/maintain/afterTurn/compact) and remembers them',
    },
    create() {
      const base = createPassThroughEngine('faulty-strict-validator', 'Faulty: strict E1 param validator');
      return {
        info: base.info,
        async bootstrap(params) {
          parseStrict('bootstrap', params);
          return { bootstrapped: false, reason: 'nothing to import' };
        },
        async maintain(params) {
          parseStrict('maintain', params);
          return { changed: false, bytesFreed: 0, rewrittenEntries: 0 };
        },
        async ingest(params) {
          parseStrict('ingest', params);
          return { ingested: false };
        },
        async ingestBatch(params) {
          parseStrict('ingestBatch', params);
          return { ingestedCount: 0 };
        },
        async afterTurn(params) {
          parseStrict('afterTurn', params);
        },
        async assemble(params) {
          return base.assemble(parseStrict('assemble', params));
        },
        async compact(params) {
          return delegateCompaction(parseStrict('compact', params));
        },
        async prepareSubagentSpawn(params) {
          parseStrict('prepareSubagentSpawn', params);
          return { rollback() {} };
        },
        async onSubagentEnded(params) {
          parseStrict('onSubagentEnded', params);
        },
      };
    },
  },
  {
    id: 'faulty-host-requirement',
    fault: 'Requires host capabilities "assemble-before-prompt" and "thread-bootstrap-projection" for agent-run.',
    expect: {
      kind: 'host-unsupported',
      operation: 'agent-run',
      reason:
        'Context engine "faulty-host-requirement" cannot run operation "agent-run" on OpenClaw embedded runner. ' +
        'Missing host capabilities: thread-bootstrap-projection. ' +
        'Required capabilities: assemble-before-prompt, thread-bootstrap-projection. ' +
        'Host capabilities: bootstrap, assemble-before-prompt, reference-context, after-turn, maintain, compact, runtime-llm-complete. ' +
        'Run this engine on the Codex app-server.',
    },
    create() {
      const engine = createPassThroughEngine('faulty-host-requirement', 'Faulty: needs the Codex app-server');
      engine.info.hostRequirements = {
        'agent-run': {
          requiredCapabilities: ['assemble-before-prompt', 'thread-bootstrap-projection'],
          unsupportedMessage: 'Run this engine on the Codex app-server.',
        },
      };
      return engine;
    },
  },
  {
    id: 'faulty-noop-compact',
    fault:
      'Does not own compaction, yet compact() returns {ok:true, compacted:false, reason:"nothing to do"} without delegating.',
    expect: {
      kind: 'finding',
      operation: 'compact',
      reason: 'non-owning engine with a no-op compact(): /compact and overflow recovery are disabled for this slot',
    },
    create() {
      const engine = createPassThroughEngine('faulty-noop-compact', 'Faulty: no-op compact');
      engine.compact = async function noop() {
        return { ok: true, compacted: false, reason: 'nothing to do' };
      };
      return engine;
    },
  },
];

module.exports = { CONTRACT_FAULTS };
