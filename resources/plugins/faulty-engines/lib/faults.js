'use strict';
// The catalogue of deliberately broken engines. Each entry is the valid pass-through baseline with exactly one
// fault, plus what an inspector is expected to report for it (`expect`), so tests and the README stay in step.
//
// expect.kind:
//   "quarantine"  — OpenClaw quarantines the engine: expect.operation and expect.reason are the record's fields.
//   "deadline"    — the call never returns; only a host-side deadline or watchdog can end it.
//   "crash"       — the engine's process dies.
//   "finding"     — nothing throws; the result breaks the contract or a safety rule and should be flagged.
//   "compat-retry"— a strict validator rejects host keys; the E2 retry drops them and the engine keeps working.
//   "host-unsupported" — fails closed before the run starts (not a quarantine).
//   "registration"— the plugin registers the engine only in some registration modes.

const { estimateMessagesTokens } = require('./estimateTokens.js');
const { createPassThroughEngine, delegateCompaction } = require('./passThroughEngine.js');
const { parseStrict } = require('./strictParams.js');

/** Baseline engine with `method` replaced by one that rejects with `message`. */
function throwingIn(id, method, message) {
  const engine = createPassThroughEngine(id, `Faulty: ${method} throws`);
  engine[method] = async function failing() {
    throw new Error(message);
  };
  return engine;
}

/** The newest whole user turns that fit `budget` tokens (always at least the newest turn). */
function newestTurnsWithin(messages, budget) {
  let best = -1;
  let tokens = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    tokens += estimateMessagesTokens([messages[i]]);
    if (messages[i].role !== 'user') continue;
    if (best !== -1 && tokens > budget) break;
    best = i;
  }
  return best === -1 ? messages : messages.slice(best);
}

/** Split into turns starting at user messages (a leading non-user run is its own turn). */
function splitTurns(messages) {
  const turns = [];
  for (const message of messages) {
    if (turns.length === 0 || message.role === 'user') turns.push([]);
    turns[turns.length - 1].push(message);
  }
  return turns;
}

const FAULTS = [
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
  {
    id: 'faulty-ingest-throws',
    fault: 'ingest() rejects (the engine has no afterTurn/ingestBatch, so OpenClaw calls ingest after each turn).',
    expect: { kind: 'quarantine', operation: 'ingest', reason: 'ingest failed: message store is read-only' },
    create() {
      return throwingIn('faulty-ingest-throws', 'ingest', 'ingest failed: message store is read-only');
    },
  },
  {
    id: 'faulty-ingestbatch-throws',
    fault: 'ingestBatch() rejects (no afterTurn, so OpenClaw calls ingestBatch after each turn).',
    expect: { kind: 'quarantine', operation: 'ingestBatch', reason: 'ingestBatch failed: batch write conflict' },
    create() {
      return throwingIn('faulty-ingestbatch-throws', 'ingestBatch', 'ingestBatch failed: batch write conflict');
    },
  },
  {
    id: 'faulty-bootstrap-throws',
    fault: 'bootstrap() rejects (called when the session transcript already existed).',
    expect: { kind: 'quarantine', operation: 'bootstrap', reason: 'bootstrap failed: cannot parse session header' },
    create() {
      return throwingIn('faulty-bootstrap-throws', 'bootstrap', 'bootstrap failed: cannot parse session header');
    },
  },
  {
    id: 'faulty-maintain-throws',
    fault: 'maintain() rejects (after bootstrap and after every successful turn).',
    expect: { kind: 'quarantine', operation: 'maintain', reason: 'maintain failed: transcript rewrite rejected' },
    create() {
      return throwingIn('faulty-maintain-throws', 'maintain', 'maintain failed: transcript rewrite rejected');
    },
  },
  {
    id: 'faulty-afterturn-throws',
    fault: 'afterTurn() rejects at the end of every turn.',
    expect: { kind: 'quarantine', operation: 'afterTurn', reason: 'afterTurn failed: summary queue is full' },
    create() {
      return throwingIn('faulty-afterturn-throws', 'afterTurn', 'afterTurn failed: summary queue is full');
    },
  },
  {
    id: 'faulty-assemble-throws',
    fault: "assemble() rejects; the turn falls back to legacy's result.",
    expect: { kind: 'quarantine', operation: 'assemble', reason: 'assemble failed: index out of range' },
    create() {
      return throwingIn('faulty-assemble-throws', 'assemble', 'assemble failed: index out of range');
    },
  },
  {
    id: 'faulty-compact-throws',
    fault: 'compact() rejects; OpenClaw rethrows the error (no silent downgrade) and quarantines.',
    expect: { kind: 'quarantine', operation: 'compact', reason: 'compact failed: summarizer returned HTTP 500' },
    create() {
      return throwingIn('faulty-compact-throws', 'compact', 'compact failed: summarizer returned HTTP 500');
    },
  },
  {
    id: 'faulty-spawn-throws',
    fault: 'prepareSubagentSpawn() rejects; the spawn fails with the original error and the engine is quarantined.',
    expect: {
      kind: 'quarantine',
      operation: 'prepareSubagentSpawn',
      reason: 'prepareSubagentSpawn failed: parent session not found',
    },
    create() {
      return throwingIn(
        'faulty-spawn-throws',
        'prepareSubagentSpawn',
        'prepareSubagentSpawn failed: parent session not found',
      );
    },
  },
  {
    id: 'faulty-subagent-ended-throws',
    fault: 'onSubagentEnded() rejects when a subagent finishes.',
    expect: {
      kind: 'quarantine',
      operation: 'onSubagentEnded',
      reason: 'onSubagentEnded failed: child state is locked',
    },
    create() {
      return throwingIn(
        'faulty-subagent-ended-throws',
        'onSubagentEnded',
        'onSubagentEnded failed: child state is locked',
      );
    },
  },
  {
    id: 'faulty-assemble-hangs',
    fault: 'assemble() returns a promise that never settles.',
    expect: { kind: 'deadline', operation: 'assemble', reason: 'timeout after <assemble deadline> ms' },
    create() {
      const engine = createPassThroughEngine('faulty-assemble-hangs', 'Faulty: assemble hangs');
      engine.assemble = function hangs() {
        return new Promise(() => {});
      };
      return engine;
    },
  },
  {
    id: 'faulty-sync-loop',
    fault: "assemble() spins forever synchronously, blocking the engine process's event loop.",
    expect: {
      kind: 'deadline',
      operation: 'assemble',
      // No timer inside the blocked process can fire: only the host's deadline plus killing the process ends it.
      reason: 'timeout after <assemble deadline> ms; the engine process is killed',
    },
    create() {
      const engine = createPassThroughEngine('faulty-sync-loop', 'Faulty: synchronous infinite loop');
      engine.assemble = function spins() {
        // eslint-disable-next-line no-empty
        while (true) {}
      };
      return engine;
    },
  },
  {
    id: 'faulty-process-exit',
    fault: 'assemble() calls process.exit(3).',
    expect: { kind: 'crash', operation: 'assemble', reason: 'engine host exited with code 3' },
    create() {
      const engine = createPassThroughEngine('faulty-process-exit', 'Faulty: exits the process');
      engine.assemble = function exits() {
        process.exit(3);
      };
      return engine;
    },
  },
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
  {
    id: 'faulty-orphan-tool-calls',
    fault: 'assemble() drops every toolResult message, leaving the assistant toolCalls orphaned.',
    expect: { kind: 'finding', operation: 'assemble', reason: 'assembled toolCall(s) without a matching toolResult' },
    create() {
      const engine = createPassThroughEngine('faulty-orphan-tool-calls', 'Faulty: drops tool results');
      engine.assemble = async function dropsResults(params) {
        const messages = (params.messages ?? []).filter((m) => m.role !== 'toolResult');
        return { messages, estimatedTokens: estimateMessagesTokens(messages) };
      };
      return engine;
    },
  },
  {
    id: 'faulty-estimate-drift',
    fault:
      'assemble() trims to the budget but reports the tokens it freed as estimatedTokens (1 when nothing was freed).',
    expect: { kind: 'finding', operation: 'assemble', reason: 'estimatedTokens far from the assembled size' },
    create() {
      const engine = createPassThroughEngine('faulty-estimate-drift', 'Faulty: reports tokens freed');
      engine.assemble = async function drifts(params) {
        const messages = params.messages ?? [];
        const budget = typeof params.tokenBudget === 'number' ? params.tokenBudget : Infinity;
        const kept = newestTurnsWithin(messages, budget);
        const freed = estimateMessagesTokens(messages) - estimateMessagesTokens(kept);
        return { messages: kept, estimatedTokens: freed > 0 ? freed : 1 };
      };
      return engine;
    },
  },
  {
    id: 'faulty-assistant-first',
    fault: 'assemble() drops everything before the first assistant message, so the context opens on an assistant turn.',
    expect: { kind: 'finding', operation: 'assemble', reason: 'assembled context starts with an assistant message' },
    create() {
      const engine = createPassThroughEngine('faulty-assistant-first', 'Faulty: starts at an assistant message');
      engine.assemble = async function assistantFirst(params) {
        const all = params.messages ?? [];
        const first = all.findIndex((m) => m.role === 'assistant');
        const messages = first === -1 ? all : all.slice(first);
        return { messages, estimatedTokens: estimateMessagesTokens(messages) };
      };
      return engine;
    },
  },
  {
    id: 'faulty-nondeterministic',
    fault:
      'assemble() drops each older turn with probability 1/2 (Math.random), so assembling the same turn twice differs.',
    expect: {
      kind: 'finding',
      operation: 'assemble',
      reason: 'non-deterministic: the same turn assembled twice differs',
    },
    create() {
      const engine = createPassThroughEngine('faulty-nondeterministic', 'Faulty: random window');
      engine.assemble = async function random(params) {
        const turns = splitTurns(params.messages ?? []);
        const newest = turns.pop() ?? [];
        const kept = turns.filter(() => Math.random() >= 0.5);
        const messages = [...kept.flat(), ...newest];
        return { messages, estimatedTokens: estimateMessagesTokens(messages) };
      };
      return engine;
    },
  },
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

module.exports = { FAULTS };
