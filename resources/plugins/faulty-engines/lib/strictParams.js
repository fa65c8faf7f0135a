'use strict';
// A strict parameter validator in the style of zod's `.strict()`, as engines written against OpenClaw's early
// (E1) contract ship it: any key it does not know is rejected with a ZodError-shaped error. OpenClaw's E2 compat
// proxy recognises the `unrecognized_keys` issue, drops the host-added keys it is allowed to drop, retries, and
// remembers them for later calls — so this engine works after one rejected call per newly seen key.

// Keys each method accepts: the contract's params minus the host-added ones OpenClaw may drop on rejection
// (sessionKey, prompt, runtimeSettings, sessionTarget, runtimeContext), plus the E1 legacy bags.
const ACCEPTED_KEYS = {
  bootstrap: ['sessionId', 'sessionFile'],
  maintain: ['sessionId', 'sessionFile', 'reason', 'abortSignal'],
  ingest: ['sessionId', 'message', 'isHeartbeat'],
  ingestBatch: ['sessionId', 'messages', 'isHeartbeat'],
  afterTurn: [
    'sessionId',
    'sessionFile',
    'messages',
    'prePromptMessageCount',
    'autoCompactionSummary',
    'isHeartbeat',
    'tokenBudget',
    'legacyCompactionParams',
  ],
  assemble: ['sessionId', 'messages', 'tokenBudget', 'availableTools', 'citationsMode', 'model'],
  compact: [
    'sessionId',
    'sessionFile',
    'agentId',
    'tokenBudget',
    'force',
    'forceReason',
    'preflightCompactionTrigger',
    'currentTokenCount',
    'compactionTarget',
    'customInstructions',
    'abortSignal',
    'legacyParams',
  ],
  prepareSubagentSpawn: [
    'parentSessionKey',
    'childSessionKey',
    'contextMode',
    'parentSessionId',
    'parentSessionFile',
    'childSessionId',
    'childSessionFile',
    'ttlMs',
  ],
  onSubagentEnded: ['childSessionKey', 'reason'],
};

/** Same shape as zod v3's ZodError: name, issues[], and a message that is the issues as JSON. */
function unrecognizedKeysError(keys) {
  const issue = {
    code: 'unrecognized_keys',
    keys,
    path: [],
    message: `Unrecognized key(s) in object: ${keys.map((key) => `'${key}'`).join(', ')}`,
  };
  const error = new Error(JSON.stringify([issue], null, 2));
  error.name = 'ZodError';
  error.issues = [issue];
  return error;
}

/** Throws when `params` carries a key `method` does not accept. */
function parseStrict(method, params) {
  const accepted = ACCEPTED_KEYS[method];
  const unknown = Object.keys(params ?? {}).filter((key) => !accepted.includes(key));
  if (unknown.length > 0) throw unrecognizedKeysError(unknown);
  return params;
}

module.exports = { ACCEPTED_KEYS, parseStrict, unrecognizedKeysError };
