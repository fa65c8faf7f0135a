'use strict';
// openclaw/plugin-sdk/core as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
// Explicit exports.X assignments so Node's CommonJS lexer sees the names when ESM code imports this file.
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk) throw new Error('openclaw/plugin-sdk/core is only available inside a ContextScope engine host');
exports.buildMemorySystemPromptAddition = sdk.core.buildMemorySystemPromptAddition;
exports.prepareMemorySystemPromptAddition = sdk.core.prepareMemorySystemPromptAddition;
exports.delegateCompactionToRuntime = sdk.core.delegateCompactionToRuntime;
exports.definePluginEntry = sdk.core.definePluginEntry;
exports.redactSensitiveText = sdk.core.redactSensitiveText;
// the default import, as the .mjs twin has it (jiti, which loads ES modules in the confined host on Node 20, reads it)
exports.default = sdk.core;
