'use strict';
// openclaw/plugin-sdk/session-transcript-runtime as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
// Explicit exports.X assignments so Node's CommonJS lexer sees the names when ESM code imports this file.
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk)
  throw new Error('openclaw/plugin-sdk/session-transcript-runtime is only available inside a ContextScope engine host');
exports.readVisibleSessionTranscriptMessageEntries =
  sdk.sessionTranscriptRuntime.readVisibleSessionTranscriptMessageEntries;
exports.readSessionTranscriptVisibleMessageDelta =
  sdk.sessionTranscriptRuntime.readSessionTranscriptVisibleMessageDelta;
exports.readSessionTranscriptRawDelta = sdk.sessionTranscriptRuntime.readSessionTranscriptRawDelta;
exports.readSessionTranscriptEvents = sdk.sessionTranscriptRuntime.readSessionTranscriptEvents;
exports.resolveSessionTranscriptIdentity = sdk.sessionTranscriptRuntime.resolveSessionTranscriptIdentity;
exports.resolveSessionTranscriptTarget = sdk.sessionTranscriptRuntime.resolveSessionTranscriptTarget;
exports.formatSessionTranscriptMemoryHitKey = sdk.sessionTranscriptRuntime.formatSessionTranscriptMemoryHitKey;
exports.parseSessionTranscriptMemoryHitKey = sdk.sessionTranscriptRuntime.parseSessionTranscriptMemoryHitKey;
// the default import, as the .mjs twin has it (jiti, which loads ES modules in the confined host on Node 20, reads it)
exports.default = sdk.sessionTranscriptRuntime;
