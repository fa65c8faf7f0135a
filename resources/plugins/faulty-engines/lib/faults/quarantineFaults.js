'use strict';
// Faults OpenClaw quarantines: a factory that throws, an invalid engine, and one engine per method that rejects.

const { createPassThroughEngine } = require('../passThroughEngine.js');

/** Baseline engine with `method` replaced by one that rejects with `message`. */
function throwingIn(id, method, message) {
  const engine = createPassThroughEngine(id, `Faulty: ${method} throws`);
  engine[method] = async function failing() {
    throw new Error(message);
  };
  return engine;
}

/** A fault whose one engine method rejects with `reason`: the quarantine names that method and reason. */
function throwingFault(id, method, fault, reason) {
  return {
    id,
    fault,
    expect: { kind: 'quarantine', operation: method, reason },
    create() {
      return throwingIn(id, method, reason);
    },
  };
}

const QUARANTINE_FAULTS = [
  {
    id: 'faulty-factory-throws',
    fault: 'The factory throws before any engine exists.',
    expect: { kind: 'quarantine', operation: 'factory', reason: 'factory exploded: missing database path' },
    create() {
      throw new Error('factory exploded: missing database path');
    },
  },
  {
    id: 'faulty-invalid-contract',
    fault: 'The factory returns an object without info.name and without compact().',
    expect: {
      kind: 'quarantine',
      operation: 'contract-validation',
      reason:
        'Context engine "faulty-invalid-contract" factory returned an invalid ContextEngine: missing info.name, missing compact().',
    },
    create() {
      const engine = createPassThroughEngine('faulty-invalid-contract', 'unused');
      delete engine.info.name;
      delete engine.compact;
      return engine;
    },
  },
  throwingFault(
    'faulty-ingest-throws',
    'ingest',
    'ingest() rejects (the engine has no afterTurn/ingestBatch, so OpenClaw calls ingest after each turn).',
    'ingest failed: message store is read-only',
  ),
  throwingFault(
    'faulty-ingestbatch-throws',
    'ingestBatch',
    'ingestBatch() rejects (no afterTurn, so OpenClaw calls ingestBatch after each turn).',
    'ingestBatch failed: batch write conflict',
  ),
  throwingFault(
    'faulty-bootstrap-throws',
    'bootstrap',
    'bootstrap() rejects (called when the session transcript already existed).',
    'bootstrap failed: cannot parse session header',
  ),
  throwingFault(
    'faulty-maintain-throws',
    'maintain',
    'maintain() rejects (after bootstrap and after every successful turn).',
    'maintain failed: transcript rewrite rejected',
  ),
  throwingFault(
    'faulty-afterturn-throws',
    'afterTurn',
    'afterTurn() rejects at the end of every turn.',
    'afterTurn failed: summary queue is full',
  ),
  throwingFault(
    'faulty-assemble-throws',
    'assemble',
    "assemble() rejects; the turn falls back to legacy's result.",
    'assemble failed: index out of range',
  ),
  throwingFault(
    'faulty-compact-throws',
    'compact',
    'compact() rejects; OpenClaw rethrows the error (no silent downgrade) and quarantines.',
    'compact failed: summarizer returned HTTP 500',
  ),
  throwingFault(
    'faulty-spawn-throws',
    'prepareSubagentSpawn',
    'prepareSubagentSpawn() rejects; the spawn fails with the original error and the engine is quarantined.',
    'prepareSubagentSpawn failed: parent session not found',
  ),
  throwingFault(
    'faulty-subagent-ended-throws',
    'onSubagentEnded',
    'onSubagentEnded() rejects when a subagent finishes.',
    'onSubagentEnded failed: child state is locked',
  ),
];

module.exports = { QUARANTINE_FAULTS };
