'use strict';
// openclaw/plugin-sdk/session-store-runtime as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
// Explicit exports.X assignments so Node's CommonJS lexer sees the names when ESM code imports this file.
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk)
  throw new Error('openclaw/plugin-sdk/session-store-runtime is only available inside a ContextScope engine host');
exports.loadTranscriptEventsSync = sdk.sessionStoreRuntime.loadTranscriptEventsSync;
exports.readTranscriptStatsSync = sdk.sessionStoreRuntime.readTranscriptStatsSync;
// the default import, as the .mjs twin has it (jiti, which loads ES modules in the confined host on Node 20, reads it)
exports.default = sdk.sessionStoreRuntime;
