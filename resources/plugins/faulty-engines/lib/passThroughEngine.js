'use strict';
// The valid baseline every faulty engine starts from: sends the host's messages unchanged, stores nothing, and
// delegates compaction to OpenClaw. Each fault then replaces or adds exactly one thing (see faults.js).
//
// The baseline deliberately has no afterTurn/ingestBatch/bootstrap/maintain: OpenClaw then calls ingest() once
// per new message, and a fault that needs one of the optional methods adds just that method.

const { estimateMessagesTokens } = require('./estimateTokens.js');

/** Hand compact() to OpenClaw's built-in compactor. The SDK is required lazily, only when compaction runs. */
function delegateCompaction(params) {
  const { delegateCompactionToRuntime } = require('openclaw/plugin-sdk');
  return delegateCompactionToRuntime(params);
}

function createPassThroughEngine(id, name) {
  return {
    info: { id, name, version: '1.0.0', ownsCompaction: false },
    async ingest() {
      return { ingested: false };
    },
    async assemble(params) {
      const messages = Array.isArray(params.messages) ? params.messages : [];
      return { messages, estimatedTokens: estimateMessagesTokens(messages) };
    },
    async compact(params) {
      return delegateCompaction(params);
    },
  };
}

/** Wrap every method so each call is logged first; sync behaviour (loops, exits) passes through unchanged. */
function withCallLogging(engine, logger) {
  for (const [key, value] of Object.entries(engine)) {
    if (typeof value !== 'function') continue;
    engine[key] = function loggedCall(params) {
      logger.debug?.(`faulty-engines: ${engine.info?.id ?? '?'}.${key}()`);
      return value.call(engine, params);
    };
  }
  return engine;
}

module.exports = { createPassThroughEngine, delegateCompaction, withCallLogging };
