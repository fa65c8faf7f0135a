'use strict';
// Faults in what assemble() returns: nothing throws, but the context breaks a safety rule or the estimate lies.

const { estimateMessagesTokens } = require('../estimateTokens.js');
const { createPassThroughEngine } = require('../passThroughEngine.js');

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

const ASSEMBLE_FAULTS = [
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
];

module.exports = { ASSEMBLE_FAULTS };
